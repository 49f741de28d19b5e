/* The sanitize gate (app/sanitize_gate.h). */
#include "app/sanitize_gate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "core/rng.h"
#include "gpu/sanitize.h"
#include "app/evaluate.h"
#include "app/task.h"
#include "vcs/task_rev.h"

static const char *const gate_names[] = {
#define RUNG_GATE_NAME(id, name) name,
	RUNG_GATE_LIST(RUNG_GATE_NAME)
#undef RUNG_GATE_NAME
};

const char *rung_gate_name(rung_gate_state s)
{
	return (unsigned)s < RUNG_NGATE ? gate_names[s] : "?";
}

unsigned rung_gate_tools(const rung_spec *spec)
{
	return RUNG_GATE_BASE_TOOLS | (spec ? spec->sanitize & RUNG_SAN_BIT(RUNG_SAN_INITCHECK) : 0);
}

/* Passed every other rung and was timed: what could be recommended. */
static bool timed_pass(const rung_result *r)
{
	if (!r || r->impossible || !r->bench.valid || isnan(r->bench.median))
		return false;
	for (int s = 0; s < RUNG_NSTEPS; s++) {
		if (s == RUNG_STEP_SANITIZE)
			continue;
		if (r->steps[s].status == RUNG_S_FAILED)
			return false;
	}
	return r->steps[RUNG_STEP_CHECK].status == RUNG_S_OK && r->steps[RUNG_STEP_BENCH].status == RUNG_S_OK;
}

rung_gate_state rung_gate_of(const rung_result *r, unsigned tools)
{
	if (!r)
		return RUNG_GATE_NA;
	rung_status st = r->steps[RUNG_STEP_SANITIZE].status;
	if (st == RUNG_S_FAILED && timed_pass(r))
		return RUNG_GATE_FAILED;
	if (!timed_pass(r))
		return RUNG_GATE_NA;
	if (st == RUNG_S_RUNNING || st == RUNG_S_PENDING)
		return RUNG_GATE_SANITIZING;
	if (st == RUNG_S_OK && (r->sanitize_tools & tools) == tools)
		return RUNG_GATE_SANITIZED;
	return RUNG_GATE_NOT_SANITIZED;
}

bool rung_gate_needs(const rung_result *r, unsigned tools)
{
	return rung_gate_of(r, tools) == RUNG_GATE_NOT_SANITIZED;
}

bool rung_gate_unavailable(char *buf, size_t len)
{
	char path[4096];
	if (rung_sanitizer_find(path, sizeof(path)))
		return false;
	snprintf(buf, len, "no compute-sanitizer");
	return true;
}

void rung_gate_bench_note(char *buf, size_t len, const rung_result *r)
{
	size_t o = 0;
	buf[0] = 0;
	for (int t = 0; t < RUNG_NSAN_TOOLS && o < len; t++) {
		if (!(r->sanitize_tools & RUNG_SAN_BIT(t)))
			continue;
		const char *tool = rung_san_tool_name((rung_san_tool)t);
		const char *sep = o ? "; " : "";
		switch (r->sanitize_bench[t]) {
		case RUNG_SANB_OVER:
			o += (size_t)snprintf(buf + o, len - o, "%s%s: over the %.0f s limit at the benchmark shape (not covered there)",
					      sep, tool, r->sanitize_bench_limit_s);
			break;
		case RUNG_SANB_OFF:
			o += (size_t)snprintf(buf + o, len - o, "%s%s: not run at the benchmark shape (limit 0)", sep, tool);
			break;
		case RUNG_SANB_NONE: /* a result sanitized before the benchmark shape was */
			o += (size_t)snprintf(buf + o, len - o, "%s%s: the smallest check shape only", sep, tool);
			break;
		default:
			break;
		}
	}
}

void rung_gate_describe(char *buf, size_t len, const rung_result *r, unsigned tools, const char *why)
{
	rung_gate_state s = rung_gate_of(r, tools);
	char tl[128], note[400], w[128];
	switch (s) {
	case RUNG_GATE_SANITIZED:
		rung_san_tools_format(tl, sizeof(tl), r->sanitize_tools);
		rung_gate_bench_note(note, sizeof(note), r);
		snprintf(buf, len, "sanitized (%s; %s)", tl, note[0] ? note : "benchmark shape covered");
		return;
	case RUNG_GATE_FAILED:
		snprintf(buf, len, "sanitize failed: %s", r->steps[RUNG_STEP_SANITIZE].reason);
		return;
	case RUNG_GATE_NOT_SANITIZED:
		if (!why && rung_gate_unavailable(w, sizeof(w)))
			why = w;
		if (why)
			snprintf(buf, len, "unsanitized (%s)", why);
		else
			snprintf(buf, len, "not sanitized");
		return;
	default:
		snprintf(buf, len, "%s", rung_gate_name(s));
		return;
	}
}

void rung_gate_pick_rows(rung_gate_pick *out, const rung_vrow *rows, int n, unsigned tools)
{
	memset(out, 0, sizeof(*out));
	out->best = out->candidate = -1;
	out->best_state = out->candidate_state = RUNG_GATE_NA;
	int cand = rung_vrows_best(rows, n);
	if (cand < 0)
		return;
	out->candidate = cand;
	out->candidate_state = rung_gate_of(rows[cand].result, tools);
	if (out->candidate_state == RUNG_GATE_SANITIZED) {
		out->best = cand;
		out->best_state = out->candidate_state;
		return;
	}
	/* the fastest that passed the gate, by the same rules (rung_vrows_best
	 * on the rows with the others' results hidden) */
	rung_vrow *only = malloc((size_t)n * sizeof(*only));
	int sb = -1;
	if (only) {
		memcpy(only, rows, (size_t)n * sizeof(*only));
		for (int i = 0; i < n; i++)
			if (rung_gate_of(rows[i].result, tools) != RUNG_GATE_SANITIZED)
				only[i].result = NULL;
		sb = rung_vrows_best(only, n);
		free(only); /* a shallow copy: nothing of its own */
	}
	if (sb >= 0) {
		out->best = sb;
		out->best_state = RUNG_GATE_SANITIZED;
		out->pending = true;
	} else {
		out->best = cand;
		out->best_state = out->candidate_state;
		out->provisional = true;
	}
}

/* Results of the same machine code as row k: a no-op version and the commit
 * it copies, or two copies of one commit. */
static bool same_code(const rung_vrow *a, const rung_vrow *b)
{
	const rung_result *x = a->result, *y = b->result;
	if (!x || !y || a == b)
		return false;
	return (x->noop_of[0] && !strcmp(x->noop_of, b->v.id)) || (y->noop_of[0] && !strcmp(y->noop_of, a->v.id)) ||
	       (x->noop_of[0] && !strcmp(x->noop_of, y->noop_of)) || (x->key[0] && !strcmp(x->key, y->key));
}

static int row_of(const rung_vrow *rows, int n, const rung_version *v)
{
	for (int i = 0; rows && i < n; i++)
		if (!strcmp(rows[i].v.id, v->id))
			return i;
	return -1;
}

static bool covers_ok(const rung_result *r, unsigned tools)
{
	rung_status st = r->steps[RUNG_STEP_SANITIZE].status;
	return (st == RUNG_S_OK || st == RUNG_S_FAILED) && (r->sanitize_tools & tools) == tools;
}

int rung_gate_run(rung_result *r, rung_evaler *e, const rung_version *v, const rung_vrow *rows, int nrows,
		  rung_progress_fn progress, void *ud, char *why, size_t whylen, bool *reused)
{
	rung_vctx *c = e->c;
	if (reused)
		*reused = false;
	unsigned tools = rung_gate_tools(c->task.spec);
	why[0] = 0;
	int k = row_of(rows, nrows, v);
	/* the same machine code sanitized already: its run, not another */
	for (int j = 0; k >= 0 && j < nrows; j++) {
		if (!same_code(&rows[k], &rows[j]) || !covers_ok(rows[j].result, tools))
			continue;
		rung_result_sanitize_copy(r, rows[j].result);
		if (c->store && r->key[0] && rung_store_put(c->store, r, rows[k].content, v->worktree ? NULL : v->id) < 0)
			return rung_error_last_code() < 0 ? rung_error_last_code() : RUNG_ESTORE;
		if (reused)
			*reused = true;
		return (int)rung_gate_of(r, tools);
	}
	if (!e->env.valid && !e->pool) {
		snprintf(why, whylen, "no GPU");
		return RUNG_GATE_UNSANITIZED;
	}
	if (rung_gate_unavailable(why, whylen))
		return RUNG_GATE_UNSANITIZED;
	rung_source src;
	rung_task task;
	int err = rung_vtask_source(&src, &c->task, v->worktree ? "WORKTREE" : v->id, v->kernel_path);
	if (err < 0)
		return err;
	err = rung_task_of_version(&task, c->repo, &c->task, &src, v);
	if (err < 0) {
		rung_source_clear(&src);
		return err;
	}
	/* kept to put back when the run cannot happen (a SKIPPED rung is no verdict) */
	rung_result *keep = malloc(sizeof(*keep));
	if (!keep) {
		rung_task_clear(&task);
		rung_source_clear(&src);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	rung_result_init(keep);
	rung_result_sanitize_copy(keep, r);
	rung_eval_opts o = e->opts;
	o.flags &= ~(unsigned)RUNG_EVAL_FORCE;
	o.sanitize_set = true;
	o.sanitize = tools;
	if (e->pool) /* on the device of the member that timed it, as the pool pins its own runs */
		o.sanitize_wrap = rung_evaler_sanitize_wrap(e, r->env.uuid);
	o.progress = progress;
	o.ud = ud;
	rung_eval_info info;
	memset(&info, 0, sizeof(info));
	err = rung_eval_sanitize(r, &info, &e->ev, &task, &o, NULL, NULL);
	rung_task_clear(&task);
	rung_source_clear(&src);
	if (err == 0 && r->steps[RUNG_STEP_SANITIZE].status == RUNG_S_SKIPPED) {
		snprintf(why, whylen, "%s", r->steps[RUNG_STEP_SANITIZE].reason);
		rung_result_sanitize_copy(r, keep);
		free(keep);
		return RUNG_GATE_UNSANITIZED;
	}
	free(keep);
	if (err < 0)
		return err;
	/* the other results of this machine code get the same run */
	for (int j = 0; k >= 0 && j < nrows && c->store; j++) {
		if (!same_code(&rows[k], &rows[j]) || !rows[j].result->key[0])
			continue;
		rung_result_sanitize_copy(rows[j].result, r);
		if (rung_store_put(c->store, rows[j].result, rows[j].content, rows[j].v.worktree ? NULL : rows[j].v.id) < 0)
			rung_error_clear(); /* that one stays unsanitized; this one is stored */
	}
	return (int)rung_gate_of(r, tools);
}

int rung_gate_task(rung_result *r, rung_gate_state *state, rung_evaluator *ev, const rung_task *t,
		   rung_progress_fn progress, void *ud, char *why, size_t whylen)
{
	rung_result_init(r);
	why[0] = 0;
	unsigned tools = rung_gate_tools(t->spec);
	rung_eval_opts o = {.sanitize_set = true, .sanitize = tools, .progress = progress, .ud = ud};
	if (rung_eval_lookup(r, ev, t, &o) != 1) { /* not stored: a result of its own */
		r->steps[RUNG_STEP_COMPILE].status = RUNG_S_OK;
		r->run_dims = t->spec->dims;
		r->base_seed = rung_seed_fresh();
	}
	if (covers_ok(r, tools)) {
		*state = r->steps[RUNG_STEP_SANITIZE].status == RUNG_S_OK ? RUNG_GATE_SANITIZED : RUNG_GATE_FAILED;
		return 0;
	}
	if (!rung_evaluator_env(ev)) {
		snprintf(why, whylen, "no GPU");
		*state = RUNG_GATE_UNSANITIZED;
		return 0;
	}
	if (rung_gate_unavailable(why, whylen)) {
		*state = RUNG_GATE_UNSANITIZED;
		return 0;
	}
	int e = rung_eval_sanitize(r, NULL, ev, t, &o, NULL, NULL);
	if (e < 0)
		return e;
	rung_status st = r->steps[RUNG_STEP_SANITIZE].status;
	if (st == RUNG_S_SKIPPED) {
		snprintf(why, whylen, "%s", r->steps[RUNG_STEP_SANITIZE].reason);
		*state = RUNG_GATE_UNSANITIZED;
	} else {
		*state = st == RUNG_S_OK ? RUNG_GATE_SANITIZED : RUNG_GATE_FAILED;
	}
	return 0;
}

int rung_gate_batch(rung_gate_report *rep, rung_evaler *e, rung_gate_event_fn on_event, rung_progress_fn progress,
		    void *ud)
{
	memset(rep, 0, sizeof(*rep));
	rep->pick.best = rep->pick.candidate = -1;
	rung_vctx *c = e->c;
	unsigned tools = rung_gate_tools(c->task.spec);
	for (int tries = 0;; tries++) {
		rung_vrow *rows = NULL;
		int n = 0;
		int err = rung_vctx_rows(&rows, &n, c, NULL, 0);
		if (err < 0)
			return err;
		rung_gate_pick_rows(&rep->pick, rows, n, tools);
		int cand = rep->pick.candidate;
		bool run = cand >= 0 && rep->pick.candidate_state == RUNG_GATE_NOT_SANITIZED && !rep->why[0] &&
			   tries < RUNG_GATE_MAX_TRIES;
		if (!run) {
			if (rep->pick.best >= 0) {
				snprintf(rep->best_id, sizeof(rep->best_id), "%s", rows[rep->pick.best].v.id);
				snprintf(rep->best_short, sizeof(rep->best_short), "%s", rows[rep->pick.best].v.short_id);
			}
			if (!rep->why[0] && rep->pick.provisional && rep->pick.best_state == RUNG_GATE_NOT_SANITIZED)
				rung_gate_unavailable(rep->why, sizeof(rep->why));
			rung_vrows_free(rows, n);
			return 0;
		}
		/* where it cannot run, no start is announced */
		char why[512] = "";
		bool can = (e->env.valid || e->pool) && !rung_gate_unavailable(why, sizeof(why));
		if (!can && !why[0])
			snprintf(why, sizeof(why), "no GPU");
		rung_gate_event ev = {.kind = RUNG_GATE_EV_START, .v = &rows[cand].v, .median_ms = rows[cand].result->bench.median,
				      .tools = tools};
		if (on_event && can)
			on_event(ud, &ev);
		bool reused = false;
		int st = rung_gate_run(rows[cand].result, e, &rows[cand].v, rows, n, progress, ud, why, sizeof(why), &reused);
		if (st < 0) {
			rung_vrows_free(rows, n);
			return st;
		}
		ev.kind = RUNG_GATE_EV_DONE;
		ev.state = (rung_gate_state)st;
		ev.r = rows[cand].result;
		ev.reused = reused;
		ev.why = why;
		if (ev.state == RUNG_GATE_UNSANITIZED)
			snprintf(rep->why, sizeof(rep->why), "%s", why);
		else if (!reused)
			rep->ran++;
		rep->failed += ev.state == RUNG_GATE_FAILED;
		if (on_event)
			on_event(ud, &ev);
		rung_vrows_free(rows, n);
	}
}

void *rung_gate_best_json(rung_vctx *c)
{
	rung_vrow *rows = NULL;
	int n = 0;
	if (rung_vctx_rows(&rows, &n, c, NULL, 0) < 0) {
		rung_error_clear();
		return json_null();
	}
	unsigned tools = rung_gate_tools(c->task.spec);
	char why[128] = "";
	bool unavail = rung_gate_unavailable(why, sizeof(why));
	rung_gate_pick p;
	rung_gate_pick_rows(&p, rows, n, tools);
	json_t *j = json_null();
	char d[700];
	if (p.best >= 0) {
		const rung_result *r = rows[p.best].result;
		rung_gate_state st = rung_gate_of(r, tools);
		if (st == RUNG_GATE_NOT_SANITIZED && unavail)
			st = RUNG_GATE_UNSANITIZED;
		rung_gate_describe(d, sizeof(d), r, tools, unavail ? why : NULL);
		j = json_pack("{s:s,s:s,s:s,s:b,s:s}", "version", rows[p.best].v.id, "short", rows[p.best].v.short_id, "state",
			      rung_gate_name(st), "provisional", p.provisional, "detail", d);
		json_t *pend = json_null();
		if (j && p.pending) {
			const rung_result *cr = rows[p.candidate].result;
			rung_gate_state cs = rung_gate_of(cr, tools);
			if (cs == RUNG_GATE_NOT_SANITIZED && unavail)
				cs = RUNG_GATE_UNSANITIZED;
			rung_gate_describe(d, sizeof(d), cr, tools, unavail ? why : NULL);
			pend = json_pack("{s:s,s:s,s:s,s:s}", "version", rows[p.candidate].v.id, "short", rows[p.candidate].v.short_id,
					 "state", rung_gate_name(cs), "detail", d);
		}
		if (j)
			json_object_set_new(j, "pending", pend ? pend : json_null());
	}
	rung_vrows_free(rows, n);
	return j ? j : json_null();
}

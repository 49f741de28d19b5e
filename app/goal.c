#include "app/goal.h"
#include "app/sanitize_gate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "core/err.h"
#include "core/stats.h"
#include "vcs/ceil_store.h"

const char *rung_stop_name(rung_stop_state s)
{
	static const char *const names[] = {
#define RUNG_STOP_NAME(id, name) name,
		RUNG_STOP_LIST(RUNG_STOP_NAME)
#undef RUNG_STOP_NAME
	};
	return s >= 0 && s < RUNG_NSTOPS ? names[s] : "?";
}

rung_dtype rung_goal_dtype(const rung_spec *spec)
{
	for (int i = 0; spec && i < spec->nargs; i++)
		if (spec->args[i].kind == RUNG_ARG_OUTPUT || spec->args[i].kind == RUNG_ARG_INOUT)
			return spec->args[i].dtype;
	return RUNG_DT_F32;
}

void rung_goal_status_clear(rung_goal_status *s)
{
	free(s->points);
	for (int i = 0; s->own_rec && i < s->nown; i++)
		if (s->own_rec[i]) {
			rung_result_clear(s->own_rec[i]);
			free(s->own_rec[i]);
		}
	free(s->own_rec);
	free(s->own_v);
	memset(s, 0, sizeof(*s));
}

/* Passed every rung it ran, with a valid bench. */
static bool timed_pass(const rung_result *r)
{
	return rung_result_passed(r) && r->steps[RUNG_STEP_BENCH].status == RUNG_S_OK && r->bench.valid &&
	       r->bench.median > 0;
}

static rung_goal_point_kind kind_of(const rung_result *r)
{
	if (!r)
		return RUNG_GP_NONE;
	if (rung_result_status(r) == RUNG_S_FAILED)
		return RUNG_GP_FAILED;
	if (!timed_pass(r) || r->nsuspects > 0 || r->impossible || rung_bench_shared(&r->bench))
		return RUNG_GP_IGNORED;
	return RUNG_GP_COUNTED;
}

/* The ratio b / a of two medians (b faster: < 1) with a ~95% interval: the
 * bootstrap of their samples where both have some (and not so many that the
 * rule, run by every brief and every frame of the title bar, would take long),
 * else twice the medians' standard errors. *faster: b is faster than a beyond
 * the noise. */
static double ratio_of(const rung_bench *a, const rung_bench *b, double *lo, double *hi, bool *faster)
{
	double ratio = b->median / a->median;
	if (a->samples && b->samples && a->n >= 2 && b->n >= 2 && a->n + b->n <= 4000) {
		rung_compare cmp;
		if (rung_compare_samples(&cmp, a->samples, a->n, b->samples, b->n, 0, 0x5eed) == 0) {
			*lo = cmp.lo, *hi = cmp.hi;
			*faster = cmp.verdict == RUNG_CMP_FASTER;
			return ratio;
		}
		rung_error_clear();
	}
	double ra = isfinite(a->rse_median) ? a->rse_median : 0, rb = isfinite(b->rse_median) ? b->rse_median : 0;
	double band = 2 * sqrt(ra * ra + rb * rb);
	*lo = ratio * (1 - band), *hi = ratio * (1 + band);
	*faster = *hi < 1 && ratio < 1 - RUNG_CMP_MIN_EFFECT;
	return ratio;
}

static void fmt_pct(char *buf, size_t len, double v)
{
	snprintf(buf, len, v >= 10 || v == 0 ? "%.0f%%" : "%.1f%%", v);
}

/* "62% of the FP32 roof" for the status's roof_best */
static void roof_words(char *buf, size_t len, const rung_goal_status *s)
{
	char p[32];
	fmt_pct(p, sizeof(p), s->roof_pct);
	snprintf(buf, len, "%s of the %s roof", p, s->roof.bound);
}

static void fmt_x(char *buf, size_t len, double v)
{
	snprintf(buf, len, v >= 10 ? "%.1fx" : "%.2fx", v);
}

/* The figures that follow a STOP or CONTINUE: "best 62% of the FP32 roof by df16e84 (target 80%)". */
static size_t figures(char *b, size_t len, const rung_goal_status *s)
{
	size_t o = 0;
	const rung_goal_spec *g = &s->goal;
	char w[96], x[32], t[32];
	if (s->roof_best >= 0 && isfinite(s->roof_pct)) {
		roof_words(w, sizeof(w), s);
		o += (size_t)snprintf(b + o, len - o, "best %s", w);
		if (g->roof > 0) {
			fmt_pct(t, sizeof(t), g->roof);
			o += (size_t)snprintf(b + o, len - o, " (target %s)", t);
		}
		o += (size_t)snprintf(b + o, len - o, " by %s", s->v[s->roof_best].short_id);
	} else if (g->roof > 0) {
		fmt_pct(t, sizeof(t), g->roof);
		o += (size_t)snprintf(b + o, len - o, "no version's roof %% known yet (target %s)", t);
	}
	if (isfinite(s->speedup) && (g->speedup > 0 || s->roof_best < 0 || !isfinite(s->roof_pct))) {
		fmt_x(x, sizeof(x), s->speedup);
		o += (size_t)snprintf(b + o, len - o, "%s%s over the baseline", o ? "; " : "", x);
		if (g->speedup > 0) {
			fmt_x(t, sizeof(t), g->speedup);
			o += (size_t)snprintf(b + o, len - o, " (target %s)", t);
		}
	} else if (g->speedup > 0) {
		fmt_x(t, sizeof(t), g->speedup);
		o += (size_t)snprintf(b + o, len - o, "%sno speedup over a baseline yet (target %s)", o ? "; " : "", t);
	}
	if (!o && s->counted == 0)
		o += (size_t)snprintf(b + o, len - o, "no version counts yet (none passed every rung, timed alone, with no suspect)");
	return o;
}

static void make_line(rung_goal_status *s)
{
	char *b = s->line;
	size_t len = sizeof(s->line), o = 0;
	const rung_goal_spec *g = &s->goal;
	char w[96], t[32], lo[32], hi[32];
	switch (s->state) {
	case RUNG_STOP_DONE:
		o += (size_t)snprintf(b + o, len - o, "STOP: done by the person: %s", s->done.reason[0] ? s->done.reason : "(no reason)");
		if (s->done.who[0])
			o += (size_t)snprintf(b + o, len - o, " (%s)", s->done.who);
		break;
	case RUNG_STOP_GOAL_MET:
		if (!strcmp(s->which, "roof")) {
			roof_words(w, sizeof(w), s);
			fmt_pct(t, sizeof(t), g->roof);
			fmt_pct(lo, sizeof(lo), s->roof_lo);
			fmt_pct(hi, sizeof(hi), s->roof_hi);
			o += (size_t)snprintf(b + o, len - o, "STOP: goal met: %s (target %s) by %s, interval %s to %s", w, t,
					      s->v[s->met_by].short_id, lo, hi);
		} else {
			fmt_x(w, sizeof(w), s->speedup);
			fmt_x(t, sizeof(t), g->speedup);
			fmt_x(lo, sizeof(lo), s->speedup_lo);
			fmt_x(hi, sizeof(hi), s->speedup_hi);
			o += (size_t)snprintf(b + o, len - o, "STOP: goal met: %s over the baseline %s (target %s) by %s, interval %s to %s",
					      w, s->v[s->baseline].short_id, t, s->v[s->met_by].short_id, lo, hi);
		}
		break;
	case RUNG_STOP_PLATEAU:
		o += (size_t)snprintf(b + o, len - o, "STOP: plateau: %d passing versions in a row without a gain beyond the noise (plateau = %d); ",
				      s->since_gain, g->plateau);
		o += figures(b + o, len - o, s);
		break;
	case RUNG_STOP_BUDGET:
		o += (size_t)snprintf(b + o, len - o, "STOP: budget spent: %d of %d versions evaluated; ", s->evaluated, g->versions);
		o += figures(b + o, len - o, s);
		break;
	default:
		o += (size_t)snprintf(b + o, len - o, "CONTINUE: %s", s->has_goal ? "" : "no [goal] in rung.ini; ");
		o += figures(b + o, len - o, s);
		if (s->counted > 0)
			o += (size_t)snprintf(b + o, len - o, "; %d version%s since the last gain", s->since_gain,
					      s->since_gain == 1 ? "" : "s");
		if (g->plateau > 0)
			o += (size_t)snprintf(b + o, len - o, " (plateau at %d)", g->plateau);
		if (g->versions > 0)
			o += (size_t)snprintf(b + o, len - o, "; %d of %d versions evaluated", s->evaluated, g->versions);
		break;
	}
	if (s->recorded && o < len)
		snprintf(b + o, len - o, " (on recorded results)");
}

int rung_goal_compute(rung_goal_status *out, const rung_goal_spec *g, rung_dtype dt, const rung_goal_version *v, int n,
		      const rung_goal_done *done, const rung_ceilings *measured)
{
	memset(out, 0, sizeof(*out));
	out->best = out->baseline = out->roof_best = out->met_by = -1;
	out->roof_pct = out->roof_lo = out->roof_hi = NAN;
	out->speedup = out->speedup_lo = out->speedup_hi = NAN;
	out->which = "";
	out->v = v;
	out->n = n;
	if (g) {
		out->goal = *g;
		out->has_goal = g->line > 0;
	}
	if (done)
		out->done = *done;
	out->points = calloc((size_t)(n > 0 ? n : 1), sizeof(*out->points));
	if (!out->points)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	/* the baseline: the person's, else the oldest counted version */
	for (int i = 0; i < n && out->baseline < 0; i++)
		if (v[i].baseline && v[i].r && timed_pass(v[i].r))
			out->baseline = i;
	double best_ms = NAN;
	int best = -1;
	for (int i = 0; i < n; i++) {
		rung_goal_point *p = &out->points[i];
		const rung_result *r = v[i].r;
		p->kind = kind_of(r);
		p->ms = r && r->bench.valid && r->bench.median > 0 ? r->bench.median : NAN;
		p->roof_pct = NAN;
		if (r)
			out->evaluated++;
		if (p->kind == RUNG_GP_COUNTED) {
			rung_fit_roof roof;
			p->roof_pct = rung_result_fit_roof_pct(r, measured, dt, rung_result_tensor(r), &roof);
			out->counted++;
			if (out->baseline < 0)
				out->baseline = i;
			bool faster = best < 0;
			if (best >= 0) {
				double lo, hi;
				ratio_of(&v[best].r->bench, &r->bench, &lo, &hi, &faster);
			}
			p->gain = faster;
			out->since_gain = faster ? 0 : out->since_gain + 1;
			if ((best < 0 || r->bench.median < best_ms) && !v[i].rejected) {
				best = i, best_ms = r->bench.median;
				out->roof = roof;
			}
		}
		p->best_ms = best_ms;
	}
	/* the sanitize gate (app/sanitize_gate.h): where some counted version is
	 * sanitized, the version to keep is the fastest of those; a faster one
	 * not sanitized yet is not recommended (none sanitized: the fastest) */
	if (best >= 0 && rung_gate_of(v[best].r, RUNG_GATE_BASE_TOOLS) != RUNG_GATE_SANITIZED) {
		int sb = -1;
		for (int i = 0; i < n; i++)
			if (out->points[i].kind == RUNG_GP_COUNTED && !v[i].rejected &&
			    rung_gate_of(v[i].r, RUNG_GATE_BASE_TOOLS) == RUNG_GATE_SANITIZED &&
			    (sb < 0 || v[i].r->bench.median < v[sb].r->bench.median))
				sb = i;
		if (sb >= 0) {
			best = sb;
			rung_result_fit_roof_pct(v[sb].r, measured, dt, rung_result_tensor(v[sb].r), &out->roof);
		}
	}
	out->best = best;
	/* the roof goal is judged on the version to keep: the fastest (a faster
	 * kernel on tensor cores may sit further below its own, higher roof) */
	if (best >= 0 && isfinite(out->points[best].roof_pct)) {
		double rse = isfinite(v[best].r->bench.rse_median) ? v[best].r->bench.rse_median : 0;
		out->roof_best = best;
		out->roof_pct = out->points[best].roof_pct;
		out->roof_lo = out->roof_pct / (1 + 2 * rse);
		out->roof_hi = out->roof_pct / (1 - 2 * rse > 0.01 ? 1 - 2 * rse : 0.01);
	}
	if (best >= 0 && out->baseline >= 0) {
		const rung_bench *a = &v[out->baseline].r->bench, *b = &v[best].r->bench;
		double lo, hi;
		bool faster;
		double ratio = ratio_of(a, b, &lo, &hi, &faster);
		out->speedup = 1 / ratio;
		out->speedup_lo = hi > 0 ? 1 / hi : NAN;
		out->speedup_hi = lo > 0 ? 1 / lo : NAN;
	}
	/* the state, the person first */
	if (out->done.in_force) {
		out->state = RUNG_STOP_DONE;
		out->which = "done";
	} else if (g && g->roof > 0 && out->roof_best >= 0 && out->roof_pct >= g->roof) {
		out->state = RUNG_STOP_GOAL_MET;
		out->which = "roof";
		out->met_by = out->roof_best;
	} else if (g && g->speedup > 0 && isfinite(out->speedup) && out->speedup >= g->speedup) {
		out->state = RUNG_STOP_GOAL_MET;
		out->which = "speedup";
		out->met_by = best;
	} else if (g && g->plateau > 0 && out->counted > 0 && out->since_gain >= g->plateau) {
		out->state = RUNG_STOP_PLATEAU;
		out->which = "plateau";
	} else if (g && g->versions > 0 && out->evaluated >= g->versions) {
		out->state = RUNG_STOP_BUDGET;
		out->which = "versions";
	}
	make_line(out);
	return 0;
}

void rung_goal_set_recorded(rung_goal_status *s, bool recorded)
{
	if (s->recorded == recorded)
		return;
	s->recorded = recorded;
	make_line(s);
}

void rung_goal_short(char *buf, size_t len, const rung_goal_status *s)
{
	char w[96] = "", t[32];
	if (s->roof_best >= 0 && isfinite(s->roof_pct))
		roof_words(w, sizeof(w), s);
	else if (isfinite(s->speedup))
		fmt_x(w, sizeof(w), s->speedup), strncat(w, " over the baseline", sizeof(w) - strlen(w) - 1);
	if (s->state != RUNG_STOP_CONTINUE) {
		snprintf(buf, len, "STOP: %s%s%s%s", rung_stop_name(s->state), w[0] ? " (" : "", w, w[0] ? ")" : "");
		return;
	}
	t[0] = 0;
	if (s->goal.roof > 0 && s->roof_best >= 0)
		snprintf(t, sizeof(t), ", goal %g%%", s->goal.roof);
	else if (s->goal.speedup > 0)
		snprintf(t, sizeof(t), ", goal %gx", s->goal.speedup);
	snprintf(buf, len, "CONTINUE%s%s%s", w[0] ? ": " : "", w, t);
}

void rung_goal_done_of_notes(rung_goal_done *out, const rung_note *const *notes, int n)
{
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < n; i++) {
		const rung_note *nt = notes[i];
		for (int k = 0; nt && k < nt->ndirectives; k++) {
			const rung_directive *d = &nt->directives[k];
			if (!d->task_done || d->remark || rung_directive_status(d) == RUNG_DSTATUS_CLOSED)
				continue;
			if (out->in_force && d->time < out->time)
				continue;
			out->in_force = true;
			out->time = d->time;
			snprintf(out->reason, sizeof(out->reason), "%s", d->text ? d->text : "");
			snprintf(out->who, sizeof(out->who), "%s", d->author);
			rung_directive_id(out->id, nt, k);
			snprintf(out->version, sizeof(out->version), "%.7s", nt->commit);
		}
	}
}

int rung_goal_of_rows(rung_goal_status *out, rung_vctx *c, const rung_vrow *rows, int n)
{
	memset(out, 0, sizeof(*out));
	rung_goal_version *v = calloc((size_t)(n > 0 ? n : 1), sizeof(*v));
	rung_result **rec = calloc((size_t)(n > 0 ? n : 1), sizeof(*rec));
	const rung_note **notes = calloc((size_t)(n > 0 ? n : 1), sizeof(*notes));
	if (!v || !rec || !notes) {
		free(v), free(rec), free(notes);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	bool live = false;
	for (int i = 0; i < n; i++)
		live |= rows[i].result != NULL;
	int nnotes = 0;
	const rung_env *env = NULL;
	for (int i = 0; i < n; i++) {
		const rung_vrow *row = &rows[n - 1 - i]; /* oldest first */
		v[i].r = row->result;
		if (!live && c && c->store) {
			rec[i] = rung_recorded_lookup(c, &row->v, row->content);
			v[i].r = rec[i];
		}
		snprintf(v[i].short_id, sizeof(v[i].short_id), "%s", row->v.short_id);
		v[i].baseline = row->has_note && row->note.verdict == RUNG_NOTE_BASELINE;
		v[i].rejected = row->has_note && row->note.verdict == RUNG_NOTE_REJECT;
		if (row->has_note)
			notes[nnotes++] = &row->note;
		if (v[i].r && v[i].r->env.valid)
			env = &v[i].r->env;
	}
	rung_error_clear(); /* a recorded lookup that found nothing */
	rung_goal_done done;
	rung_goal_done_of_notes(&done, notes, nnotes);
	free(notes);
	/* measured ceilings where the store has them; a reader never creates their table */
	rung_ceilings meas;
	const rung_ceilings *mp = c && c->store && env && rung_store_has_table(c->store, "ceilings") == 1
					  ? rung_store_guard_ceilings(&meas, c->store, env)
					  : NULL;
	rung_error_clear();
	const rung_spec *spec = c ? c->task.spec : NULL;
	int e = rung_goal_compute(out, spec ? &spec->goal : NULL, rung_goal_dtype(spec), v, n, &done, mp);
	bool any_rec = false;
	for (int i = 0; i < n; i++) /* a compile rung's verdict kept with no GPU is no measurement */
		any_rec |= rec[i] != NULL && !rung_result_compile_verdict(rec[i]);
	rung_goal_set_recorded(out, !live && any_rec);
	out->own_v = v;
	out->own_rec = rec;
	out->nown = n;
	return e;
}

int rung_goal_load(rung_goal_status *out, rung_vctx *c)
{
	memset(out, 0, sizeof(*out));
	rung_vrow *rows = NULL;
	int n = 0;
	int e = rung_vctx_rows(&rows, &n, c, NULL, 0);
	if (e < 0)
		return e;
	e = rung_goal_of_rows(out, c, rows, n);
	rung_vrows_free(rows, n);
	return e;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *version_or_null(const rung_goal_status *s, int i)
{
	return i >= 0 && i < s->n ? json_string(s->v[i].short_id) : json_null();
}

json_t *rung_goal_to_json(const rung_goal_status *s)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "state", json_string(rung_stop_name(s->state)));
	json_object_set_new(o, "stop", json_boolean(s->state != RUNG_STOP_CONTINUE));
	json_object_set_new(o, "which", json_string(s->which ? s->which : ""));
	json_object_set_new(o, "line", json_string(s->line));
	json_t *g = json_object();
	if (s->goal.roof > 0)
		json_object_set_new(g, "roof", json_real(s->goal.roof));
	if (s->goal.speedup > 0)
		json_object_set_new(g, "speedup", json_real(s->goal.speedup));
	if (s->goal.plateau > 0)
		json_object_set_new(g, "plateau", json_integer(s->goal.plateau));
	if (s->goal.versions > 0)
		json_object_set_new(g, "versions", json_integer(s->goal.versions));
	json_object_set_new(o, "goal", s->has_goal ? g : (json_decref(g), json_null()));
	json_object_set_new(o, "evaluated", json_integer(s->evaluated));
	json_object_set_new(o, "counted", json_integer(s->counted));
	json_object_set_new(o, "since_gain", json_integer(s->since_gain));
	json_object_set_new(o, "recorded", json_boolean(s->recorded));
	json_object_set_new(o, "best", version_or_null(s, s->best));
	json_object_set_new(o, "baseline", version_or_null(s, s->baseline));
	json_t *roof = json_null();
	if (s->roof_best >= 0) {
		roof = json_object();
		json_object_set_new(roof, "pct", num_or_null(s->roof_pct));
		json_object_set_new(roof, "lo", num_or_null(s->roof_lo));
		json_object_set_new(roof, "hi", num_or_null(s->roof_hi));
		json_object_set_new(roof, "name", json_string(s->roof.name));
		json_object_set_new(roof, "bound", json_string(s->roof.bound));
		json_object_set_new(roof, "version", version_or_null(s, s->roof_best));
	}
	json_object_set_new(o, "roof", roof);
	json_t *sp = json_null();
	if (isfinite(s->speedup))
		sp = json_pack("{s:o,s:o,s:o}", "x", num_or_null(s->speedup), "lo", num_or_null(s->speedup_lo), "hi",
			       num_or_null(s->speedup_hi));
	json_object_set_new(o, "speedup", sp);
	json_object_set_new(o, "met_by", version_or_null(s, s->met_by));
	json_object_set_new(o, "done", s->done.in_force ? json_pack("{s:s,s:s,s:s}", "reason", s->done.reason, "who",
								   s->done.who, "id", s->done.id)
							: json_null());
	return o;
}

/* rung log's rows (app/log.h). */
#include "app/log.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "core/metric_table.h"
#include "core/stats.h"
#include "app/goal.h"

bool rung_log_other_gpu(const rung_result *r, const rung_result *base)
{
	char why[8];
	return r && base && r != base && rung_results_other_gpu(r, base, why, sizeof(why));
}

double rung_log_delta(const rung_result *r, const rung_result *base)
{
	if (!r || !base || !r->bench.valid || !base->bench.valid || !(base->bench.median > 0) || isnan(r->bench.median) ||
	    rung_log_other_gpu(r, base))
		return NAN;
	return (r->bench.median - base->bench.median) / base->bench.median;
}

double rung_log_speedup(const rung_result *r, const rung_result *base)
{
	if (!r || !base || !r->bench.valid || !base->bench.valid || rung_log_other_gpu(r, base))
		return NAN;
	return rung_speedup(r->bench.median, base->bench.median);
}

const char *rung_log_note_line(const rung_vrow *r, char *buf, size_t len, bool status)
{
	buf[0] = 0;
	if (!r->has_note)
		return buf;
	/* newest directive first: the most recent steering, with its status when it
	 * is no longer open ("[closed] try BK=16 ...": #28 D-20 showed it bare) */
	if (r->note.ndirectives > 0) {
		const rung_directive *d = &r->note.directives[r->note.ndirectives - 1];
		rung_dstatus st = rung_directive_status(d);
		if (st == RUNG_DSTATUS_OPEN || !status)
			snprintf(buf, len, "%s", d->text);
		else
			snprintf(buf, len, "[%s] %s", rung_dstatus_name(st), d->text);
		return buf;
	}
	if (r->note.other) {
		const char *nl = strchr(r->note.other, '\n');
		snprintf(buf, len, "%.*s", nl ? (int)(nl - r->note.other) : (int)strlen(r->note.other), r->note.other);
	}
	return buf;
}

/* Where version v of the whole list is among rows (-1: not there). */
static int index_of(const rung_vrow *rows, int n, const rung_vrow *v)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(rows[i].v.id, v->v.id))
			return i;
	return -1;
}

static void free_results(rung_result **r, int n)
{
	for (int i = 0; r && i < n; i++)
		if (r[i]) {
			rung_result_clear(r[i]);
			free(r[i]);
		}
	free(r);
}

int rung_log_load(rung_log *out, rung_vctx *c, const rung_log_req *req)
{
	memset(out, 0, sizeof(*out));
	out->base_shown = out->base_rec_shown = out->gate_best_shown = -1;
	out->gate.best = out->gate.candidate = -1;
	int e = rung_vctx_rows(&out->rows, &out->n, c, req->range, req->max);
	if (e < 0)
		return e;
	/* "vs base" is against the task's baseline whatever rows are shown (max,
	 * range): it is looked for in the whole list */
	out->all = out->rows;
	out->nall = out->n;
	if ((req->range || req->max) && rung_vctx_rows(&out->all, &out->nall, c, NULL, 0) < 0) {
		out->all = out->rows;
		out->nall = out->n;
		return rung_error_recode(RUNG_EIO);
	}
	rung_vrow *rows = out->rows, *all = out->all;
	int n = out->n, nall = out->nall;
	int ball = rung_vrows_baseline(all, nall);
	out->base = ball >= 0 ? all[ball].result : NULL;
	out->base_shown = ball >= 0 ? index_of(rows, n, &all[ball]) : -1;
	/* recorded results of versions with no live one, and their own baseline */
	out->rec = calloc((size_t)n + 1, sizeof(*out->rec));
	out->recall = all == rows ? out->rec : calloc((size_t)nall + 1, sizeof(*out->recall));
	rung_result **rec = out->rec, **recall = out->recall;
	int brec = -1;
	if (rec && recall) {
		for (int i = 0; i < nall; i++)
			if (!all[i].result)
				recall[i] = rung_recorded_lookup(c, &all[i].v, all[i].content);
		for (int i = 0; i < nall && brec < 0; i++)
			if (all[i].has_note && all[i].note.verdict == RUNG_NOTE_BASELINE)
				brec = i;
		for (int i = nall - 1; i >= 0 && brec < 0; i--)
			if (recall[i] && rung_result_passed(recall[i]) && recall[i]->bench.valid)
				brec = i;
		for (int i = 0; recall != rec && i < n; i++) { /* the shown rows' own, moved from the whole list's */
			int k = index_of(all, nall, &rows[i]);
			if (k >= 0)
				rec[i] = recall[k], recall[k] = NULL;
		}
	}
	out->base_rec_shown = brec >= 0 ? index_of(rows, n, &all[brec]) : -1;
	if (recall && brec >= 0)
		out->base_rec = recall[brec] ? recall[brec] : out->base_rec_shown >= 0 ? rec[out->base_rec_shown] : NULL;
	out->base_row = ball >= 0 ? &all[ball] : brec >= 0 ? &all[brec] : NULL;
	if (rung_store_read_error(c->store) < 0) /* a recorded lookup met a damaged store */
		return rung_error_recode(RUNG_EIO);
	for (int i = 0; rec && i < n; i++)
		out->any_recorded |= !rows[i].result && rec[i];
	/* the recommended version under the sanitize gate, over every version */
	out->gate_tools = rung_gate_tools(c->task.spec);
	out->gate_unavailable = rung_gate_unavailable(out->gate_why, sizeof(out->gate_why));
	rung_gate_pick_rows(&out->gate, all, nall, out->gate_tools);
	out->gate_best_shown = out->gate.best >= 0 ? index_of(rows, n, &all[out->gate.best]) : -1;
	if (req->goal && n > 0) { /* the stop rule's line, over every version of the task */
		rung_goal_status gs;
		e = req->range || req->max ? rung_goal_load(&gs, c) : rung_goal_of_rows(&gs, c, rows, n);
		if (e == 0) {
			snprintf(out->goal_line, sizeof(out->goal_line), "%s", gs.line);
			out->has_goal = true;
		}
		rung_goal_status_clear(&gs);
		rung_error_clear();
	}
	return 0;
}

void rung_log_clear(rung_log *l)
{
	free_results(l->rec, l->n);
	if (l->recall != l->rec)
		free_results(l->recall, l->nall);
	if (l->all != l->rows)
		rung_vrows_free(l->all, l->nall);
	rung_vrows_free(l->rows, l->n);
	memset(l, 0, sizeof(*l));
}

static json_t *jnum(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

/* a result as its JSON (core/result.h), null when there is none */
static json_t *result_json(const rung_result *r)
{
	char *rj = r ? rung_result_to_json(r) : NULL;
	json_t *full = rj ? json_loads(rj, 0, NULL) : NULL;
	free(rj);
	return full ? full : json_null();
}

const char *rung_log_gate_state(const rung_log *l, int i)
{
	rung_gate_state g = rung_gate_of(l->rows[i].result, l->gate_tools);
	if (g == RUNG_GATE_NOT_SANITIZED && l->gate_unavailable)
		g = RUNG_GATE_UNSANITIZED;
	return rung_gate_name(g);
}

json_t *rung_log_row_to_json(const rung_log *l, int i)
{
	const rung_vrow *row = &l->rows[i];
	const rung_result *r = row->result, *base = l->base, *recorded = l->rec ? l->rec[i] : NULL;
	json_t *o = json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "rev", json_string(row->v.id));
	json_object_set_new(o, "short", json_string(row->v.short_id));
	json_object_set_new(o, "subject", json_string(row->v.subject));
	json_object_set_new(o, "author", json_string(row->v.author));
	json_object_set_new(o, "time", json_integer(row->v.time));
	json_object_set_new(o, "worktree", json_boolean(row->v.worktree));
	json_object_set_new(o, "merge", json_boolean(row->v.merge));
	json_object_set_new(o, "spec_differs", json_boolean(row->v.spec_differs));
	json_object_set_new(o, "kernel_path", json_string(row->v.kernel_path));
	if (row->v.renamed_from[0])
		json_object_set_new(o, "renamed_from", json_string(row->v.renamed_from));
	if (row->v.kernel_from[0])
		json_object_set_new(o, "kernel_from", json_string(row->v.kernel_from));
	json_t *st = json_object();
	for (int s = 0; s < RUNG_NSTEPS; s++)
		json_object_set_new(st, rung_step_name((rung_step_id)s),
				    json_string(rung_status_name(r ? r->steps[s].status : RUNG_S_NONE)));
	json_object_set_new(o, "steps", st);
	json_object_set_new(o, "evaluated", json_boolean(r != NULL));
	json_object_set_new(o, "pass", json_boolean(rung_result_passed(r)));
	json_object_set_new(o, "impossible", json_boolean(r && r->impossible));
	json_t *sus = json_array(); /* evidence (docs/CHECKS.md, "Evidence: suspects") */
	for (int k = 0; r && k < r->nsuspects; k++)
		json_array_append_new(sus, json_pack("{s:s,s:s}", "kind", rung_suspect_name(r->suspects[k].kind), "reason",
						     r->suspects[k].reason));
	json_object_set_new(o, "suspect", json_boolean(r && r->nsuspects > 0));
	if (r && r->noop_of[0])
		json_object_set_new(o, "noop_of", json_string(r->noop_of));
	json_object_set_new(o, "suspects", sus);
	json_object_set_new(o, "sanitize_state", json_string(rung_log_gate_state(l, i)));
	json_object_set_new(o, "best", json_boolean(i == l->gate_best_shown && l->gate_best_shown >= 0));
	for (int k = 0; k < RUNG_NMETRICS; k++)
		if (rung_metrics[k].log)
			json_object_set_new(o, rung_metrics[k].key, jnum(rung_metric_worst(r, (rung_metric_id)k)));
	json_object_set_new(o, "median_ms", jnum(r && r->bench.valid ? r->bench.median : NAN));
	char shared[512] = "";
	if (r && r->bench.valid)
		rung_gpu_procs_str(shared, sizeof(shared), &r->bench.shared);
	json_object_set_new(o, "shared", shared[0] ? json_string(shared) : json_null());
	json_object_set_new(o, "delta_vs_baseline", jnum(rung_log_delta(r, base)));
	json_object_set_new(o, "speedup_vs_baseline", jnum(rung_log_speedup(r, base)));
	if (rung_log_other_gpu(r, base))
		json_object_set_new(o, "other_gpu", json_string(r->env.gpu));
	json_object_set_new(o, "baseline", json_boolean(i == l->base_shown));
	json_object_set_new(o, "tflops", jnum(r && r->bench.valid ? r->bench.tflops : NAN));
	json_object_set_new(o, "tbps", jnum(r && r->bench.valid ? r->bench.tbps : NAN));
	json_object_set_new(o, "regs", r && r->compile.kernel.valid ? json_integer(r->compile.kernel.regs) : json_null());
	json_object_set_new(o, "spill_bytes",
			    r && r->compile.kernel.valid
				    ? json_integer(r->compile.kernel.spill_stores + r->compile.kernel.spill_loads)
				    : json_null());
	json_object_set_new(o, "reason", json_string(r ? rung_result_reason(r) : ""));
	json_object_set_new(o, "cached_from_other_commit", json_boolean(row->via_content));
	json_object_set_new(o, "verdict", json_string(row->has_note ? rung_note_verdict_name(row->note.verdict) : ""));
	char note[200];
	json_object_set_new(o, "note", json_string(rung_log_note_line(row, note, sizeof(note), false)));
	json_object_set_new(o, "content", json_string(row->content));
	json_object_set_new(o, "result", result_json(r));
	/* a result recorded on another machine (rung import), never mixed with live ones:
	 * given apart, and only where there is no live result */
	if (!r && recorded)
		json_object_set_new(o, "recorded", result_json(recorded));
	return o;
}

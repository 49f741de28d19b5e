/* Detail: what makes the selected version suspect, every rung of it, metrics
 * per shape and seed, first bad indices, a histogram of the timing samples,
 * what the kernel printed (inert), the environment and the compile log with errors at their lines. `t` switches to its SASS with
 * the stored per-instruction counts, then to its stored trace
 * (tui/screens/detail_prof.c), and back. `l` splits it: the kernel's source
 * beside the SASS of the line under the cursor (tui/screens/detail_src.c),
 * opened at the line a compile error or a failure names.
 * `u` goes to ncu's sections read back by `rung profile --ncu`, then its
 * source page (tui/screens/detail_ncu.c), and back. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/err.h"
#include "core/inert.h"
#include "core/metric_table.h"
#include "core/profile.h"
#include "app/session.h"
#include "tui/screens/detail_ncu.h"
#include "tui/screens/detail_prof.h"
#include "tui/screens/detail_src.h"
#include "tui/draw.h"
#include "tui/maplines.h"
#include "tui/model/occ_row.h"
#include "tui/model/rowmetrics.h"
#include "tui/view.h"

enum { PANE_SUMMARY, PANE_SASS, PANE_TRACE, NPANES };
static const char *const pane_names[NPANES] = {"summary", "SASS", "trace"};

typedef struct {
	rung_lines lines;
	int pane;
	int map_case; /* which case with errors the error map shows (m: next) */
	int map_line; /* the error map's first line in lines (-1: none) */
	bool pending; /* the SASS it needs is being made in the background (the view reopens when it is) */
	bool map_jump; /* m: the next open scrolls the map's header to the top */
	bool by_stall; /* SASS pane: the sampled lines, most stall samples first (s toggles) */
	int stall_rank; /* SASS pane: the rank of the sampled line ] and [ last went to (0: none yet; kept
			 * across a rebuild by a live update, reset by another version, pane or order) */
	int stall_offset; /* where the last ] or [ left the pane's top line */
	bool split;   /* the source view (l): lines holds the source pane */
	bool jump;    /* the source view opens at rung_srcview_jump's line */
	rung_srcview sv;
	char sv_error[256]; /* why there is no source view */
	int ncu;      /* u: 0 the pane, 1 ncu's sections, 2 its source page */
} detail_priv;

static void histogram(rung_lines *l, const rung_bench *b)
{
	if (!b->samples || b->n < 2)
		return;
	double lo = INFINITY, hi = -INFINITY;
	for (int i = 0; i < b->n; i++) {
		lo = fmin(lo, b->samples[i]);
		hi = fmax(hi, b->samples[i]);
	}
	enum { NB = 8, BARW = 30 };
	int count[NB] = {0}, maxc = 1;
	double span = hi > lo ? hi - lo : 1;
	for (int i = 0; i < b->n; i++) {
		int k = (int)((b->samples[i] - lo) / span * NB);
		if (k >= NB)
			k = NB - 1;
		if (k < 0)
			k = 0;
		if (++count[k] > maxc)
			maxc = count[k];
	}
	rung_lines_add(l, RUNG_ROLE_HEADER, "  timing samples (%d, %s)", b->n, b->method[0] ? b->method : "?");
	for (int k = 0; k < NB; k++) {
		char a[32], c[32], bar[BARW * 3 + 1] = "";
		rung_fmt_ms(a, sizeof(a), lo + span * k / NB);
		rung_fmt_ms(c, sizeof(c), lo + span * (k + 1) / NB);
		int n = count[k] * BARW / maxc;
		if (count[k] && !n)
			n = 1;
		for (int i = 0; i < n; i++)
			strcat(bar, rung_glyph(RUNG_G_BLOCK));
		rung_lines_new(l);
		rung_lines_seg(l, RUNG_ROLE_DIM, "  %9s-%-9s ", a, c);
		bool has_median = b->median >= lo + span * k / NB && (b->median < lo + span * (k + 1) / NB || k == NB - 1);
		rung_lines_seg(l, has_median ? RUNG_ROLE_FASTER : RUNG_ROLE_POINT, "%s", bar);
		rung_lines_seg(l, RUNG_ROLE_DIM, " %d%s", count[k], has_median ? "  <- median" : "");
	}
}

static void step_line(rung_lines *l, const rung_result *r, rung_step_id s, const char *extra)
{
	rung_role role;
	/* as the table: a recorded result's rungs are ○, not ↺ (reused) */
	bool here = rung_result_compile_verdict(r); /* the compile rung ran here, with no GPU (#28 D-16) */
	const char *g = rung_step_glyph(r->steps[s].status, r->cached && !here, r->recorded && !here, &role);
	rung_lines_new(l);
	rung_lines_seg(l, RUNG_ROLE_HEADER, "%-8s ", rung_step_name(s));
	rung_lines_seg(l, role, "%s %-7s", g, r->steps[s].status == RUNG_S_NONE ? "-" : rung_status_name(r->steps[s].status));
	if (!isnan(r->steps[s].wall_ms) && r->steps[s].status != RUNG_S_NONE)
		rung_lines_seg(l, RUNG_ROLE_DIM, " %7.1f ms", r->steps[s].wall_ms);
	if (extra && *extra)
		rung_lines_seg(l, RUNG_ROLE_DEFAULT, "  %s", extra);
	if (r->steps[s].reason[0])
		rung_lines_seg(l, r->steps[s].status == RUNG_S_FAILED ? RUNG_ROLE_FAILED : RUNG_ROLE_DIM, "  %s", r->steps[s].reason);
}

/* Source line n (1-based) of src, or NULL. */
static const char *source_line(const char *src, int n, int *len)
{
	const char *p = src;
	for (int i = 1; p && i < n; i++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p || !*p)
		return NULL;
	const char *e = strchr(p, '\n');
	*len = e ? (int)(e - p) : (int)strlen(p);
	return p;
}

/* Compile log: errors in the error role, each followed by the source line it names. */
static void compile_log(rung_lines *l, const char *log, const char *src)
{
	rung_lines_add(l, RUNG_ROLE_HEADER, "compile log");
	const char *p = log;
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		char line[1024];
		snprintf(line, sizeof(line), "%.*s", len > 1000 ? 1000 : len, p);
		bool err = strstr(line, "error") != NULL;
		rung_role role = err ? RUNG_ROLE_ERROR : strstr(line, "warning") ? RUNG_ROLE_WARNING : RUNG_ROLE_DEFAULT;
		rung_lines_add(l, role, "  %s", line);
		int ln = err && src ? rung_error_line(line, NULL, 0) : 0, sl;
		const char *s = ln ? source_line(src, ln, &sl) : NULL;
		if (s) {
			rung_lines_new(l);
			rung_lines_seg(l, RUNG_ROLE_DIM, "  %5d | ", ln);
			rung_lines_seg(l, RUNG_ROLE_DEFAULT, "%.*s", sl > 500 ? 500 : sl, s);
		}
		p = nl ? nl + 1 : NULL;
	}
}

/* What makes the version suspect (docs/CHECKS.md, "Evidence: suspects"), one
 * line each with its reason, before the rungs; nothing when there is none. */
static void suspect_section(rung_lines *l, const rung_model *m, int row, const rung_result *r)
{
	rung_row_metrics mx;
	rung_row_metrics_get(&mx, m, row, rung_model_baseline(m));
	if (!mx.suspect)
		return;
	rung_lines_new(l);
	rung_lines_seg(l, RUNG_ROLE_SUSPECT, "%s suspect", rung_glyph(RUNG_G_SUSPECT));
	rung_lines_seg(l, RUNG_ROLE_DIM, "  evidence that it may fool the bench: verify before building on it");
	for (int k = 0; k < r->nsuspects; k++) {
		rung_lines_new(l);
		rung_lines_seg(l, RUNG_ROLE_SUSPECT, "  %s", rung_suspect_name(r->suspects[k].kind));
		rung_lines_seg(l, RUNG_ROLE_DEFAULT, "  %s", r->suspects[k].reason);
	}
	if (mx.impossible && !rung_result_suspect(r, RUNG_SUSPECT_IMPOSSIBLE)) {
		rung_lines_new(l);
		rung_lines_seg(l, RUNG_ROLE_SUSPECT, "  %s", rung_suspect_name(RUNG_SUSPECT_IMPOSSIBLE));
		rung_lines_seg(l, RUNG_ROLE_DEFAULT, "  %.0f%% of the roof: faster than the roofline floor", mx.roof_pct);
	}
	rung_lines_add(l, RUNG_ROLE_DEFAULT, "%s", "");
}

/* What the kernel printed (the first 64 KiB, as stored): raw in the lines,
 * made inert when drawn (rung_tui_sanitize: ESC as ^[, C1 and bidi controls as
 * <U+XXXX>, invalid bytes as \xNN). */
static void kernel_output(rung_lines *l, const rung_result *r)
{
	if (r->output_bytes <= 0 && !(r->output && *r->output))
		return;
	char total[32], dropped[32];
	rung_fmt_bytes(total, sizeof(total), r->output_bytes);
	rung_fmt_bytes(dropped, sizeof(dropped), r->output_dropped);
	rung_lines_add(l, RUNG_ROLE_DEFAULT, "%s", "");
	rung_lines_new(l);
	rung_lines_seg(l, RUNG_ROLE_HEADER, "kernel output");
	rung_lines_seg(l, RUNG_ROLE_DIM, " (%s, %s dropped)", total, dropped);
	rung_lines_text(l, RUNG_ROLE_DEFAULT, "  ", r->output ? r->output : "");
	if (r->output_dropped > 0)
		rung_lines_add(l, RUNG_ROLE_DIM, "  ... %s more not kept", dropped);
}

static void build_summary(rung_view *v, int row)
{
	detail_priv *p = v->priv;
	rung_tui *t = v->tui;
	rung_model *m = t->model;
	rung_lines *l = &p->lines;
	const rung_model_row *mr = &m->rows[row];
	char date[64] = "";
	time_t tt = (time_t)mr->date;
	struct tm tm;
	if (gmtime_r(&tt, &tm))
		strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", &tm);
	/* the title bar has the short id and the subject: the whole commit id here,
	 * and the subject again only where the title cuts it (#28 D-20: it said
	 * both twice) */
	rung_lines_new(l);
	rung_lines_seg(l, RUNG_ROLE_KEY, "commit %s", mr->hash);
	rung_lines_seg(l, RUNG_ROLE_DIM, "  %s, %s", mr->author, date);
	char subj[sizeof(mr->subject) * 4];
	int sw = rung_tui_sanitize(subj, sizeof(subj), mr->subject, -1, 0);
	if (8 + sw + 10 > v->width) /* "abc1234 " + subject + " [detail]" */
		rung_lines_add(l, RUNG_ROLE_DEFAULT, "%s", mr->subject);
	if (mr->baseline || mr->best || mr->verdict || mr->note[0]) {
		rung_lines_new(l);
		if (mr->baseline)
			rung_lines_seg(l, RUNG_ROLE_BASELINE, "[baseline] ");
		if (mr->best)
			rung_lines_seg(l, RUNG_ROLE_BEST, "[best] ");
		if (mr->verdict)
			rung_lines_seg(l, RUNG_ROLE_NOTE, "verdict: %s ", rung_verdict_name(mr->verdict));
		if (mr->note[0])
			rung_lines_seg(l, RUNG_ROLE_NOTE, "note: %s", mr->note);
	}
	/* the sanitize gate (app/sanitize_gate.h): not best before it passed, in the CLI's words */
	char gd[700];
	rung_model_gate_describe(gd, sizeof(gd), m, mr);
	if (gd[0]) {
		rung_gate_state gs = rung_model_row_gate(m, mr);
		const char *tail = mr->best && m->gate_provisional ? ": this best is provisional"
				   : row == m->gate_pending ? ": faster than the best, not recommended until it passes the sanitizer"
				   : gs == RUNG_GATE_FAILED ? " (not best)"
				   : "";
		rung_lines_add(l, gs == RUNG_GATE_SANITIZED ? RUNG_ROLE_OK : gs == RUNG_GATE_FAILED ? RUNG_ROLE_FAILED
			       : gs == RUNG_GATE_SANITIZING ? RUNG_ROLE_RUNNING : RUNG_ROLE_WARNING,
			       "sanitize: %s%s", gd, tail);
	}
	rung_lines_add(l, RUNG_ROLE_DEFAULT, "%s", "");
	const rung_result *r = mr->result;
	if (!r && mr->pending) { /* the first frame's rows: its results are being read */
		rung_lines_add(l, RUNG_ROLE_DIM, "%s", m->fill_failed ? "its results could not be read (the status line says why)" : "reading its results...");
		return;
	}
	if (!r) {
		rung_lines_new(l);
		bool queued = mr->step[0] == RUNG_S_PENDING || mr->step[0] == RUNG_S_RUNNING;
		for (int s = 0; s < RUNG_NSTEPS; s++) {
			if (s == RUNG_STEP_SANITIZE && mr->step[s] == RUNG_S_NONE)
				continue; /* on request only: listed where it ran */
			rung_role role;
			rung_glyph_id g = rung_status_glyph(mr->step[s], false, &role);
			rung_lines_seg(l, role, "%s %s  ", rung_glyph(g), rung_step_name((rung_step_id)s));
		}
		rung_lines_add(l, RUNG_ROLE_DIM, queued ? "evaluation in progress" : "not evaluated: press e to evaluate it");
		return;
	}
	suspect_section(l, m, row, r);
	if (r->cached && !r->recorded) /* an imported result was run elsewhere, not reused from here */
		rung_lines_add(l, RUNG_ROLE_CACHED, "%s result of another version with the same files (reused, not run again)",
			       rung_glyph(RUNG_G_CACHED));
	if (r->noop_of[0]) /* the edit changed nothing that runs */
		rung_lines_add(l, RUNG_ROLE_CACHED, "no-op: same machine code, launch, spec and reference as %.7s:"
			       " its verdict and timing (rung check --force measures this one)", r->noop_of);
	if (rung_result_compile_verdict(r)) /* kept from a compile rung with no GPU (#28 D-16) */
		rung_lines_add(l, RUNG_ROLE_WARNING, "compile only: %s", r->recorded_note);
	else if (r->recorded)
		rung_lines_add(l, RUNG_ROLE_WARNING, "recorded: %s (imported, not measured here)",
			       r->recorded_note[0] ? r->recorded_note : "on another machine");
	char buf[512];
	const rung_kinfo *k = &r->compile.kernel;
	if (k->valid)
		snprintf(buf, sizeof(buf), "%s  regs %d  spills %lld/%lld  smem %lld B  stack %lld", r->compile.arch, k->regs,
			 (long long)k->spill_stores, (long long)k->spill_loads, (long long)k->smem, (long long)k->stack);
	else
		snprintf(buf, sizeof(buf), "%s", r->compile.arch);
	step_line(l, r, RUNG_STEP_COMPILE, buf);
	char dims[256] = "";
	rung_dimset_format(dims, sizeof(dims), &r->run_dims);
	snprintf(buf, sizeof(buf), "%s", dims);
	/* theoretical occupancy at the benchmark shape's launch geometry */
	rung_occupancy oc;
	if (k->valid && rung_row_occupancy(&oc, m, row) == 0) {
		char os[32];
		rung_fmt_occupancy(os, sizeof(os), &oc);
		size_t n = strlen(buf);
		snprintf(buf + n, sizeof(buf) - n, "  occupancy %s (%d block%s/SM)", os, oc.blocks, oc.blocks == 1 ? "" : "s");
	}
	step_line(l, r, RUNG_STEP_RUN, buf);
	snprintf(buf, sizeof(buf), "%d shape%s x %d seed%s", r->nshapes, r->nshapes == 1 ? "" : "s", r->nseeds,
		 r->nseeds == 1 ? "" : "s");
	if (r->ninputs > 1) {
		char names[80];
		rung_result_inputs_str(names, sizeof(names), r);
		size_t n = strlen(buf);
		snprintf(buf + n, sizeof(buf) - n, ", inputs %s", names);
	}
	if (r->nmetrics) { /* the version's max_rel, the number the versions table shows */
		char rel[32];
		size_t n = strlen(buf);
		snprintf(buf + n, sizeof(buf) - n, "  max_rel %s", rung_fmt_max_rel(rel, sizeof(rel), rung_result_max_rel(r)));
	}
	step_line(l, r, RUNG_STEP_CHECK, r->nmetrics ? buf : "");
	/* the seeds once, numbered: each case names its number (#28 D-20: a
	 * 20-digit seed on every line cut the metrics at 120 columns) */
	unsigned long long seeds[16];
	int nseeds = 0;
	for (int i = 0; i < r->nmetrics; i++) {
		int k = 0;
		while (k < nseeds && seeds[k] != (unsigned long long)r->metrics[i].seed)
			k++;
		if (k == nseeds && nseeds < 16)
			seeds[nseeds++] = (unsigned long long)r->metrics[i].seed;
	}
	bool long_seed = false; /* short ones (a given --seed 1000) stay on their lines */
	for (int k = 0; k < nseeds; k++)
		long_seed |= seeds[k] >= 100000000ull;
	if (!long_seed)
		nseeds = 0;
	if (nseeds) {
		char sl[512];
		int o = snprintf(sl, sizeof(sl), "  seed%s", nseeds == 1 ? "" : "s");
		for (int k = 0; k < nseeds && o < (int)sizeof(sl); k++)
			o += snprintf(sl + o, sizeof(sl) - (size_t)o, "%s %d = %llu", k ? "," : "", k + 1, seeds[k]);
		rung_lines_add(l, RUNG_ROLE_DIM, "%s", sl);
	}
	for (int i = 0; i < r->nmetrics; i++) {
		const rung_check_metric *cm = &r->metrics[i];
		int sk = 0;
		while (sk < nseeds && seeds[sk] != (unsigned long long)cm->seed)
			sk++;
		char ds[256] = "";
		rung_dimset_format(ds, sizeof(ds), &cm->dims);
		rung_lines_new(l);
		rung_lines_seg(l, cm->pass ? RUNG_ROLE_OK : RUNG_ROLE_FAILED, "  %s ", rung_glyph(cm->pass ? RUNG_G_OK : RUNG_G_FAILED));
		char in[24] = "";
		if (cm->inputs != RUNG_DIST_NORMAL)
			snprintf(in, sizeof(in), " %s", rung_dist_name(cm->inputs));
		char ms[256] = "";
		for (int k = 0, o = 0; k < RUNG_NMETRICS && o < (int)sizeof(ms); k++) { /* core/metric_table.h */
			const rung_metric_info *mi = &rung_metrics[k];
			double v = mi->detail ? mi->value(cm) : NAN;
			char t[48];
			if (!isnan(v)) /* absent from this output: left out */
				o += snprintf(ms + o, sizeof(ms) - (size_t)o, " %s %s", mi->detail,
					      rung_metric_str(t, sizeof(t), mi->detail_fmt, v, "-"));
		}
		if (sk < nseeds)
			rung_lines_seg(l, RUNG_ROLE_DEFAULT, "%s %s%s seed %d:%s", cm->output, ds, in, sk + 1, ms);
		else
			rung_lines_seg(l, RUNG_ROLE_DEFAULT, "%s %s%s seed %llu:%s", cm->output, ds, in,
				       (unsigned long long)cm->seed, ms);
		if (cm->nan_count || cm->inf_count || cm->unwritten)
			rung_lines_add(l, RUNG_ROLE_FAILED, "      nan %lld  inf %lld  unwritten %lld", (long long)cm->nan_count,
				       (long long)cm->inf_count, (long long)cm->unwritten);
		if (!cm->pass && cm->reason[0]) /* the reason counts the mismatches itself */
			rung_lines_add(l, RUNG_ROLE_FAILED, "      %s", cm->reason);
		for (int b = 0; b < cm->nbad; b++) {
			char coord[128] = "(";
			for (int d = 0; d < cm->bad_rank; d++) {
				char c[24];
				snprintf(c, sizeof(c), "%s%lld", d ? "," : "", (long long)cm->bad_coord[b][d]);
				strncat(coord, c, sizeof(coord) - strlen(coord) - 1);
			}
			strncat(coord, ")", sizeof(coord) - strlen(coord) - 1);
			/* a NaN where the kernel wrote no NaN is the poison it never overwrote */
			if (isnan(cm->bad_got[b]) && cm->nan_count == 0 && cm->unwritten > 0)
				rung_lines_add(l, RUNG_ROLE_FAILED, "      bad %s [%lld]: never written (poison left), expected %.6g", coord,
					       (long long)cm->bad_index[b], cm->bad_expected[b]);
			else
				rung_lines_add(l, RUNG_ROLE_FAILED, "      bad %s [%lld]: got %.6g expected %.6g", coord,
					       (long long)cm->bad_index[b], cm->bad_got[b], cm->bad_expected[b]);
		}
	}
	/* where the selected case is wrong (m: the next case with errors) */
	int cases[64], nc = rung_map_cases(cases, 64, r);
	if (nc > 0) {
		rung_lines_add(l, RUNG_ROLE_DEFAULT, "%s", "");
		p->map_line = l->n;
		rung_map_section(l, &r->metrics[cases[p->map_case % nc]], p->map_case % nc, nc, v->width);
		rung_lines_add(l, RUNG_ROLE_DEFAULT, "%s", "");
	}
	const rung_bench *b = &r->bench;
	if (b->valid) {
		char med[32], q1[32], q3[32];
		rung_fmt_ms(med, sizeof(med), b->median);
		rung_fmt_ms(q1, sizeof(q1), b->q1);
		rung_fmt_ms(q3, sizeof(q3), b->q3);
		snprintf(buf, sizeof(buf), "median %s [%s, %s]  rse %.2f%%  n=%d%s", med, q1, q3, b->rse_median * 100, b->n,
			 b->noise_ok ? "" : "  NOISY");
	} else {
		buf[0] = 0;
	}
	step_line(l, r, RUNG_STEP_BENCH, buf);
	if (b->valid) {
		rung_row_metrics mx;
		rung_model_row_mma(m, row); /* the roof that fits its instruction mix, named */
		rung_row_metrics_get(&mx, m, row, rung_model_baseline(m));
		char roof[96];
		rung_fmt_roof_of(roof, sizeof(roof), &mx, false);
		if (!isnan(b->tflops) && isnan(b->tbps) && !isnan(mx.roof_pct))
			rung_lines_add(l, RUNG_ROLE_DEFAULT, "  %.2f TFLOP/s, %.0f%% %s", b->tflops, mx.roof_pct, roof);
		else if (!isnan(b->tflops))
			rung_lines_add(l, RUNG_ROLE_DEFAULT, "  %.2f TFLOP/s", b->tflops);
		if (!isnan(b->tbps))
			rung_lines_add(l, RUNG_ROLE_DEFAULT, "  %.3f TB/s, intensity %.1f FLOP/B, %.0f%% %s", b->tbps,
				       mx.intensity, mx.roof_pct, roof);
		if (mx.impossible)
			rung_lines_add(l, RUNG_ROLE_IMPOSSIBLE, "  IMPOSSIBLE: faster than the roofline floor; the check or timing is fooled");
		if (mx.shared)
			rung_lines_add(l, RUNG_ROLE_SLOWER, "  %s: another process ran on the GPU during the bench; the timing is not trusted",
				       mx.shared_why);
		if (mx.has_delta && mx.env_differs)
			rung_lines_add(l, RUNG_ROLE_SLOWER, "  the baseline was measured elsewhere: %s", mx.env_why);
		char sp[96] = ""; /* "202× [201, 203]": the speedup over the baseline (core/stats.h) */
		if (mx.has_delta)
			rung_fmt_speedup_ci(sp, sizeof(sp), mx.speedup, mx.speedup * (1 - mx.noise), mx.speedup * (1 + mx.noise),
					    rung_tui_utf8);
		if (mx.has_delta && mx.delta_shared)
			rung_lines_add(l, RUNG_ROLE_SAME, "  %s vs baseline (noise band +-%.1f%%): no verdict, %s was timed on a shared GPU",
				       sp, mx.noise * 100, mx.shared ? "this version" : "the baseline");
		else if (mx.has_delta)
			rung_lines_add(l, mx.cmp == RUNG_CMP_FASTER ? RUNG_ROLE_FASTER : mx.cmp == RUNG_CMP_SLOWER ? RUNG_ROLE_SLOWER : RUNG_ROLE_SAME,
				       "  %s vs baseline (noise band +-%.1f%%): %s", sp, mx.noise * 100,
				       rung_cmp_verdict_name(mx.cmp));
		if (!isnan(b->event_median))
			rung_lines_add(l, RUNG_ROLE_DIM, "  event cross-check median %.4f ms, SM clock %.0f MHz, %d dropped",
				       b->event_median, b->clock_mhz, b->dropped);
		if (isfinite(b->record_offset))
			rung_lines_add(l, RUNG_ROLE_DIM,
				       "  kernel records %.4f ms less their launch floor %.2f us (rung's empty kernel: records %.2f us, profiler %.2f us; %s)",
				       b->record_median, b->record_offset * 1e3, b->record_floor * 1e3, b->profiler_floor * 1e3,
				       b->calibration);
		else if (isfinite(b->record_median))
			rung_lines_add(l, RUNG_ROLE_DIM,
				       "  short kernel: median from the range profiler (gpu__time_duration); kernel records %.4f ms",
				       b->record_median);
		else if (b->calibration[0])
			rung_lines_add(l, RUNG_ROLE_DIM, "  kernel records as they are, %s", b->calibration);
		histogram(l, b);
	}
	step_line(l, r, RUNG_STEP_PROFILE, "");
	for (int i = 0; i < r->ncounters; i++) {
		char val[48];
		rung_counter_format(val, sizeof(val), r->counters[i].name, r->counters[i].value);
		rung_lines_add(l, RUNG_ROLE_DEFAULT, "  %-52s %14s", r->counters[i].name, val);
	}
	char stored[64];
	rung_detail_prof_stored(stored, sizeof(stored), m, mr->hash);
	if (stored[0])
		rung_lines_add(l, RUNG_ROLE_NOTE, "  stored: %s (t shows them)", stored);
	kernel_output(l, r);
	if (r->steps[RUNG_STEP_SANITIZE].status != RUNG_S_NONE) { /* only where it ran (S runs it) */
		char tools[96];
		rung_san_tools_format(tools, sizeof(tools), r->sanitize_tools);
		step_line(l, r, RUNG_STEP_SANITIZE, tools);
		for (int i = 0; i < r->nsanitize; i++) {
			const rung_san_finding *f = &r->sanitize[i];
			char d[400];
			rung_san_describe(d, sizeof(d), f);
			rung_lines_add(l, f->where == RUNG_SANW_HOST ? RUNG_ROLE_DIM : RUNG_ROLE_FAILED, "  %-9s %s",
				       rung_san_where_name(f->where), d);
		}
	}
	if (r->env.valid) {
		rung_lines_add(l, RUNG_ROLE_DEFAULT, "%s", "");
		rung_lines_add(l, RUNG_ROLE_HEADER, "environment");
		rung_lines_add(l, RUNG_ROLE_DEFAULT, "  %s (%s, %d SMs) driver %s CUDA %s on %s", r->env.gpu, r->env.arch, r->env.sms,
			       r->env.driver, r->env.cuda, r->env.host);
		rung_lines_add(l, RUNG_ROLE_DEFAULT, "  SM %d MHz, memory %d MHz x %d bit, L2 %lld MiB, power limit %.0f W",
			       r->env.sm_clock_mhz, r->env.mem_clock_mhz, r->env.bus_width, (long long)(r->env.l2_bytes >> 20),
			       r->env.power_limit_w);
	}
	if (r->compile_log && *r->compile_log) {
		char *src = NULL;
		if (r->steps[RUNG_STEP_COMPILE].status == RUNG_S_FAILED && rung_model_text(&src, m, mr->hash, RUNG_TEXT_SOURCE) < 0)
			src = NULL;
		rung_lines_add(l, RUNG_ROLE_DEFAULT, "%s", "");
		compile_log(l, r->compile_log, src);
		free(src);
	}
}

static void build(rung_view *v)
{
	detail_priv *p = v->priv;
	rung_model *m = v->tui->model;
	rung_lines_clear(&p->lines);
	int row = rung_tui_selected_row(v->tui);
	if (row < 0) {
		rung_lines_add(&p->lines, RUNG_ROLE_DIM, "no version selected");
		return;
	}
	/* the source view and the SASS pane need the PTX and SASS: made in the
	 * background where that is slow (NVRTC, nvdisasm), as compare does; the
	 * view says so meanwhile and reopens when they are there (RUNG_EV_TEXT) */
	/* (keys from a script wait for it, as before: a script's :dump shows the pane) */
	bool scripted = v->tui->opts && v->tui->opts->script;
	bool wants_sass = !scripted && (p->split || (!p->ncu && p->pane == PANE_SASS));
	int prep = wants_sass ? rung_model_text_prepare(m, m->rows[row].hash) : 0;
	if (prep < 0)
		rung_error_clear(); /* the pane says why when it reads the text */
	p->pending = prep == 1;
	if (p->pending) {
		char what[96];
		snprintf(what, sizeof(what), "computing the SASS of %.*s (NVRTC, nvdisasm)... (Esc cancels)",
			 RUNG_ID(m->rows[row].hash));
		rung_srcview_clear(&p->sv);
		snprintf(p->sv_error, sizeof(p->sv_error), "%s", what);
		rung_lines_add(&p->lines, RUNG_ROLE_DIM, "%s", what);
		return;
	}
	if (p->split) {
		rung_srcview_clear(&p->sv);
		p->sv_error[0] = 0;
		if (rung_srcview_load(&p->sv, m, m->rows[row].hash, m->rows[row].result) < 0) {
			snprintf(p->sv_error, sizeof(p->sv_error), "%s", rung_error_last());
			rung_error_clear();
		}
		rung_srcview_source_lines(&p->lines, &p->sv);
		if (p->jump) {
			char why[160];
			int line = rung_srcview_jump(&p->sv, m->rows[row].result, why, sizeof(why));
			v->cursor = line - 1;
			v->offset = line - 1 - rung_view_rows(v) / 3;
			if (v->offset < 0)
				v->offset = 0;
			p->jump = false;
			if (why[0])
				rung_tui_message(v->tui, false, "source: %s", why);
		}
	} else if (p->ncu == 1)
		rung_detail_ncu_sections(&p->lines, m, m->rows[row].hash, v->width);
	else if (p->ncu == 2)
		rung_detail_ncu_source(&p->lines, m, m->rows[row].hash);
	else if (p->pane == PANE_SASS)
		rung_detail_sass_lines(&p->lines, m, m->rows[row].hash, p->by_stall, v->width);
	else if (p->pane == PANE_TRACE)
		rung_detail_trace_lines(&p->lines, m, m->rows[row].hash, v->width);
	else
		build_summary(v, row);
}

static int detail_open(rung_view *v)
{
	if (!v->priv && !(v->priv = calloc(1, sizeof(detail_priv))))
		return -1;
	detail_priv *p = v->priv;
	v->pager = !p->split;
	v->top = p->split ? 2 : 1;
	p->map_line = -1;
	build(v);
	v->nlines = p->lines.n;
	if (p->map_jump && p->map_line >= 0) { /* m: the map it names comes into view, its header on top */
		v->offset = v->cursor = p->map_line;
		rung_view_clamp(v);
	}
	p->map_jump = false;
	if (p->split)
		rung_view_clamp(v);
	return 0;
}

/* The source view: the source on the left with the cursor, the SASS of the
 * cursor's line on the right. */
static void draw_split(rung_view *v, int row)
{
	detail_priv *p = v->priv;
	rung_model *m = v->tui->model;
	const rung_srcview *sv = &p->sv;
	rung_view_draw_title(v, "%.*s source %s (l: back, t: SASS)", RUNG_ID(row >= 0 ? m->rows[row].hash : ""),
			     sv->file_name[0] ? sv->file_name : "");
	if (p->sv_error[0] || !sv->src) {
		rung_tui_draw(v->win, 1, 0, v->width, RUNG_ROLE_DIM, p->sv_error[0] ? p->sv_error : "no source");
		return;
	}
	int lw = v->width * 11 / 20, rx = lw + 1, rw = v->width - rx;
	if (rw < 20) { /* too narrow for two panes: the source alone */
		lw = v->width;
		rw = 0;
	}
	/* the code comes first: metric columns give way on a narrow pane */
	unsigned drop = rung_srcview_fit(sv, lw);
	if (drop != sv->drop) {
		p->sv.drop = drop;
		rung_lines_clear(&p->lines);
		rung_srcview_source_lines(&p->lines, &p->sv);
	}
	rung_lines hdr = {0};
	rung_srcview_source_header(&hdr, sv);
	if (hdr.n)
		rung_line_draw(v->win, 1, 0, lw, &hdr.v[0], 0);
	rung_lines_clear(&hdr);
	int rows = rung_view_rows(v);
	for (int i = 0; i < rows && v->offset + i < p->lines.n; i++) {
		const rung_line *ln = &p->lines.v[v->offset + i];
		if (v->offset + i == v->cursor) {
			rung_line c = *ln; /* the cursor's line: the same text in the cursor's role */
			for (int k = 0; k < c.nseg; k++)
				c.seg[k].role = RUNG_ROLE_CURSOR;
			rung_tui_fill(v->win, v->top + i, 0, lw, RUNG_ROLE_CURSOR);
			rung_line_draw_gutter(v->win, v->top + i, 0, lw, &c, c.nseg - 1, v->hscroll);
			rung_tui_draw(v->win, v->top + i, 0, 1, RUNG_ROLE_CURSOR, ">"); /* seen without colour too */
		} else {
			/* Right and Left scroll the code; the line numbers and counts stay */
			rung_line_draw_gutter(v->win, v->top + i, 0, lw, ln, ln->nseg - 1, v->hscroll);
		}
	}
	if (rw <= 0)
		return;
	for (int y = 1; y < v->height; y++)
		rung_tui_draw(v->win, y, lw, 1, RUNG_ROLE_AXIS, rung_tui_utf8 ? "\u2502" : "|");
	rung_lines right = {0};
	rung_srcview_sass_lines(&right, sv, v->cursor + 1, v->height - 1, rw);
	for (int i = 0; i < right.n && 1 + i < v->height; i++)
		rung_line_draw(v->win, 1 + i, rx, rw, &right.v[i], 0);
	rung_lines_clear(&right);
}

static void detail_draw(rung_view *v)
{
	detail_priv *p = v->priv;
	rung_model *m = v->tui->model;
	int row = rung_tui_selected_row(v->tui);
	if (p->split) {
		draw_split(v, row);
		return;
	}
	if (p->ncu)
		rung_view_draw_title(v, "%.*s ncu %s (u: %s)", RUNG_ID(row >= 0 ? m->rows[row].hash : ""),
				     p->ncu == 1 ? "sections" : "source page", p->ncu == 1 ? "source page" : pane_names[p->pane]);
	else if (p->pane == PANE_SUMMARY)
		rung_view_draw_title(v, "%.*s %s", RUNG_ID(row >= 0 ? m->rows[row].hash : ""), row >= 0 ? m->rows[row].subject : "");
	else
		rung_view_draw_title(v, "%.*s %s (t: %s)", RUNG_ID(row >= 0 ? m->rows[row].hash : ""), pane_names[p->pane],
				     pane_names[(p->pane + 1) % NPANES]);
	int rows = rung_view_rows(v);
	for (int i = 0; i < rows && v->offset + i < p->lines.n; i++)
		rung_line_draw(v->win, v->top + i, 0, v->width, &p->lines.v[v->offset + i], v->hscroll);
}

static int detail_request(rung_view *v, rung_request req)
{
	rung_tui *t = v->tui;
	rung_model *m = t->model;
	if (req == RUNG_REQ_ENTER)
		return RUNG_R_NONE;
	if (req == RUNG_REQ_SOURCE_VIEW) {
		detail_priv *p = v->priv;
		p->split = !p->split;
		p->jump = p->split;
		if (p->split)
			p->ncu = 0; /* l from an ncu page: the source view, and back to the summary panes after */
		v->offset = v->cursor = 0;
		v->hscroll = 0;
		if (!p->split)
			rung_srcview_clear(&p->sv);
		rung_tui_message(t, false, "detail: %s", p->split ? "source" : pane_names[p->pane]);
		return RUNG_R_REOPEN;
	}
	if (req == RUNG_REQ_NCU) {
		detail_priv *p = v->priv;
		if (p->split) { /* u leaves the source view for the ncu pages (the screen followed the status line only) */
			p->split = false;
			rung_srcview_clear(&p->sv);
			v->cursor = 0;
		}
		p->ncu = (p->ncu + 1) % 3;
		v->offset = 0;
		v->hscroll = 0;
		rung_tui_message(t, false, "detail: %s", p->ncu == 1 ? "ncu sections" : p->ncu == 2 ? "ncu source page" : pane_names[p->pane]);
		return RUNG_R_REOPEN;
	}
	if (req == RUNG_REQ_TEXT_KIND) {
		detail_priv *p = v->priv;
		p->ncu = 0; /* t leaves the ncu panes too */
		if (p->split) { /* t leaves the source view for the whole SASS */
			p->split = false;
			rung_srcview_clear(&p->sv);
			p->pane = PANE_SASS;
		} else {
			p->pane = (p->pane + 1) % NPANES;
		}
		p->stall_rank = 0;
		v->offset = 0;
		v->hscroll = 0;
		rung_tui_message(t, false, "detail: %s", pane_names[p->pane]);
		return RUNG_R_REOPEN;
	}
	if (req == RUNG_REQ_NEXT_CASE) {
		detail_priv *p = v->priv;
		int row = rung_tui_selected_row(t), cases[64];
		int nc = row >= 0 ? rung_map_cases(cases, 64, m->rows[row].result) : 0;
		if (nc == 0) {
			rung_tui_message(t, false, "no case with errors to map");
			return RUNG_R_NONE;
		}
		p->map_case = (p->map_case + 1) % nc;
		p->map_jump = !p->split && !p->ncu && p->pane == PANE_SUMMARY;
		rung_tui_message(t, false, "error map: case %d of %d", p->map_case + 1, nc);
		return RUNG_R_REOPEN;
	}
	detail_priv *dp = v->priv;
	if (req == RUNG_REQ_SORT && dp->pane == PANE_SASS) {
		dp->by_stall = !dp->by_stall;
		dp->stall_rank = 0;
		v->offset = 0;
		rung_tui_message(t, false, "SASS: %s", dp->by_stall ? "lines by stall samples" : "lines by pc");
		return RUNG_R_REOPEN;
	}
	/* ] and [: the next or previous of the most sampled lines, by rank (the
	 * most sampled first); the line comes to the pane's third row */
	if ((req == RUNG_REQ_NEXT_HUNK || req == RUNG_REQ_PREV_HUNK) && dp->pane == PANE_SASS) {
		int nranked = 0, at = -1;
		for (int i = 0; i < dp->lines.n; i++) {
			nranked += dp->lines.v[i].tag > 0;
			if (dp->stall_rank > 0 && dp->lines.v[i].tag == dp->stall_rank)
				at = i;
		}
		/* the last jump's line is no longer where it put it (scrolled, another
		 * version, rebuilt): start again from the most sampled */
		if (at < 0 || v->offset != dp->stall_offset)
			dp->stall_rank = 0;
		int want = dp->stall_rank + (req == RUNG_REQ_NEXT_HUNK ? 1 : -1);
		if (want < 1 && dp->stall_rank == 0)
			want = nranked; /* [ from nowhere: the least of the most sampled */
		for (int i = 0; want >= 1 && i < dp->lines.n; i++)
			if (dp->lines.v[i].tag == want) {
				dp->stall_rank = want;
				v->offset = i - 2 > 0 ? i - 2 : 0;
				rung_view_clamp(v); /* the position on the status line follows (#28 D-20: it stayed 1/2127) */
				dp->stall_offset = v->offset;
				rung_tui_message(t, false, "stalls: line %d of the %d most sampled", want, nranked);
				return RUNG_R_REDRAW;
			}
		if (!nranked)
			rung_tui_message(t, false, "stalls: no stall samples stored for this version");
		else if (want < 1)
			rung_tui_message(t, false, "stalls: already at the most sampled line");
		else
			rung_tui_message(t, false, "stalls: that was the last of the %d most sampled lines", nranked);
		return RUNG_R_NONE;
	}
	/* Tab: next version, so the detail can be paged through versions */
	if (req == RUNG_REQ_NEXT_PANE && m->nrows) {
		int row = rung_tui_selected_row(t);
		rung_tui_select_row(t, (row + 1) % m->nrows);
		v->offset = v->cursor = 0;
		((detail_priv *)v->priv)->map_case = 0;
		((detail_priv *)v->priv)->stall_rank = 0;
		((detail_priv *)v->priv)->jump = ((detail_priv *)v->priv)->split;
		return RUNG_R_REOPEN;
	}
	return RUNG_R_UNHANDLED;
}

static void detail_done(rung_view *v)
{
	detail_priv *p = v->priv;
	if (p && p->pending) /* Esc: the texts not started yet are not made */
		rung_model_text_cancel(v->tui->model);
	if (p) {
		rung_lines_clear(&p->lines);
		rung_srcview_clear(&p->sv);
		free(p);
	}
	v->priv = NULL;
}

static const char *detail_line_text(rung_view *v, int i, char *buf, int len)
{
	detail_priv *p = v->priv;
	(void)buf, (void)len;
	return i >= 0 && i < p->lines.n ? p->lines.v[i].text : NULL;
}

const rung_view_ops rung_screen_detail_ops = {
	.name = "detail",
	.open = detail_open,
	.draw = detail_draw,
	.request = detail_request,
	.done = detail_done,
	.line_text = detail_line_text,
};

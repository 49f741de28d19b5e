/* rung log [--json|--csv] [--rev RANGE] [-n N]: one row per version (newest
 * first) with its stored results: status per rung, max rel error, PSNR,
 * cosine, median time, delta vs the baseline, TFLOP/s or TB/s, regs/spills,
 * verdict and the first line of the note. Failed versions show the reason
 * ("check: C: worst at (127,4): ..."). In the table, a version with no live
 * result shows its recorded one (rung demo, rung import) when there is one,
 * labelled "recorded on <GPU>, <date> (not measured here)", its delta taken
 * against the baseline's recorded result only (never mixed with live). A
 * suspect version (docs/CHECKS.md, "Evidence: suspects") has "suspect" as its
 * verdict in the table until the person gives one, and a line per suspect
 * under its row; --json has "suspect" and "suspects", --csv a suspects column. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <langinfo.h>
#include <locale.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <jansson.h>

#include "core/err.h"
#include "core/inert.h"
#include "core/envcmp.h"
#include "core/roofline_guard.h"
#include "core/stats.h"
#include "cli/cli.h"
#include "app/demo.h"
#include <limits.h>

#include "core/metric_table.h"
#include "app/suspects.h"
#include "app/goal.h"
#include "app/sanitize_gate.h"
#include "app/session.h"
#include "tui/draw.h"
#include "tui/plot.h"

enum { FMT_TABLE, FMT_JSON, FMT_CSV };

typedef struct {
	char steps[64], metric[RUNG_NMETRICS][32], median[32], delta[32], speedup[48], perf[32], regs[32];
	char verdict[16], note[200], reason[600], suspects[200];
} row_text;

static void num(char *buf, size_t len, const char *fmt, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt, v);
}

static const char *note_first_line(const rung_vrow *r, char *buf, size_t len, bool status)
{
	buf[0] = 0;
	if (!r->has_note)
		return buf;
	/* newest directive first: the most recent steering, with its status when it
	 * is no longer open ("[closed] try BK=16 ...": #28 D-20 showed it bare) */
	for (int k = r->note.ndirectives - 1; k >= 0; k--) {
		rung_dstatus st = rung_directive_status(&r->note.directives[k]);
		if (st == RUNG_DSTATUS_OPEN || !status)
			snprintf(buf, len, "%s", r->note.directives[k].text);
		else
			snprintf(buf, len, "[%s] %s", rung_dstatus_name(st), r->note.directives[k].text);
		return buf;
	}
	if (r->note.other) {
		const char *nl = strchr(r->note.other, '\n');
		snprintf(buf, len, "%.*s", nl ? (int)(nl - r->note.other) : (int)strlen(r->note.other), r->note.other);
	}
	return buf;
}

/* Timed on another GPU model than the baseline (a mixed pool, another machine's results): no
 * speedup, no change (rung compare --stored says OTHER_GPU). */
static bool other_gpu(const rung_result *r, const rung_result *base)
{
	char why[8];
	return r && base && r != base && rung_results_other_gpu(r, base, why, sizeof(why));
}

static double delta_vs(const rung_result *r, const rung_result *base)
{
	if (!r || !base || !r->bench.valid || !base->bench.valid || !(base->bench.median > 0) || isnan(r->bench.median) ||
	    other_gpu(r, base))
		return NAN;
	return (r->bench.median - base->bench.median) / base->bench.median;
}

/* The speedup over the baseline (t_base / t, core/stats.h): NAN when either is not timed. */
static double speedup_vs(const rung_result *r, const rung_result *base)
{
	if (!r || !base || !r->bench.valid || !base->bench.valid || other_gpu(r, base))
		return NAN;
	return rung_speedup(r->bench.median, base->bench.median);
}

/* Where version v of the whole list is among the rows shown (-1: not shown). */
static int shown_index(const rung_vrow *rows, int n, const rung_vrow *v)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(rows[i].v.id, v->v.id))
			return i;
	return -1;
}

static void texts(row_text *t, const rung_vrow *row, const rung_result *base)
{
	memset(t, 0, sizeof(*t));
	const rung_result *r = row->result;
	rung_result_steps_str(t->steps, sizeof(t->steps), r);
	for (int k = 0; k < RUNG_NMETRICS; k++) /* the worst of each (core/metric_table.h) */
		if (rung_metrics[k].log)
			rung_metric_str(t->metric[k], sizeof(t->metric[k]), rung_metrics[k].log_fmt,
					rung_metric_worst(r, (rung_metric_id)k), "-");
	num(t->median, sizeof(t->median), "%.4g", r && r->bench.valid ? r->bench.median : NAN);
	if (r && r->bench.valid && rung_bench_shared(&r->bench)) /* timed beside another process */
		snprintf(t->median, sizeof(t->median), "~%.4g", r->bench.median);
	num(t->delta, sizeof(t->delta), "%+.1f%%", 100 * delta_vs(r, base));
	/* "202x +-0.6", the form every screen uses (rung_fmt_speedup_pm) */
	double sp = speedup_vs(r, base);
	if (isnan(sp))
		snprintf(t->speedup, sizeof(t->speedup), "-");
	else
		rung_fmt_speedup_pm(t->speedup, sizeof(t->speedup), sp,
				    rung_ratio_noise(r->bench.rse_median, base->bench.rse_median), false);
	rung_result_perf(t->perf, sizeof(t->perf), r);
	if (r && r->compile.kernel.valid)
		snprintf(t->regs, sizeof(t->regs), "%d/%" PRId64, r->compile.kernel.regs,
			 r->compile.kernel.spill_stores + r->compile.kernel.spill_loads);
	else
		snprintf(t->regs, sizeof(t->regs), "-");
	snprintf(t->verdict, sizeof(t->verdict), "%s",
		 row->has_note && row->note.verdict ? rung_note_verdict_name(row->note.verdict) : "");
	rung_suspect_kinds(t->suspects, sizeof(t->suspects), r);
	note_first_line(row, t->note, sizeof(t->note), true);
	if (r)
		snprintf(t->reason, sizeof(t->reason), "%s", rung_result_reason(r));
}

/* The metric columns of the table, each at its width (core/metric_table.h). */
static void put_metrics(const row_text *t)
{
	for (int k = 0; k < RUNG_NMETRICS; k++)
		if (rung_metrics[k].log)
			printf("%-*s ", rung_metrics[k].log_width, t->metric[k]);
}

/* The table's NOTE: its first line, at most this many bytes (the whole in
 * --json, --csv and rung notes; #28 D-20: one row carried 300 characters). */
#define NOTE_CELL 60

/* s cut to at most max bytes, at a UTF-8 boundary, ending in "..." when cut. */
static const char *cut_cell(char *buf, size_t len, const char *s, size_t max)
{
	size_t n = strlen(s);
	if (n <= max) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	size_t k = rung_utf8_whole(s, max > 3 ? max - 3 : 0);
	snprintf(buf, len, "%.*s...", (int)k, s);
	return buf;
}

/* One measured row of the table. */
static void put_row(const row_text *t, const char *id, const char *subj, bool is_base, const char *tail)
{
	char note[NOTE_CELL + 8];
	printf("%-8s %-24s %-28s ", id, subj, t->steps);
	put_metrics(t);
	printf("%-9s %-12s %-7s %-14s %-8s %-8s %s%s\n", t->median, is_base ? "base" : t->speedup, is_base ? "" : t->delta,
	       t->perf, t->regs, t->verdict, cut_cell(note, sizeof(note), t->note, NOTE_CELL), tail);
}

/* A failed row: the reason over the metric columns, VERDICT and NOTE in their
 * own (#28 D-20: a long reason pushed them out); a reason longer than those
 * columns is cut there and given whole on the next line. */
static void put_failed(const row_text *t, const char *id, const char *subj)
{
	int span = 9 + 1 + 12 + 1 + 7 + 1 + 14 + 1 + 8 + 1; /* MEDIAN_MS .. REGS/SP, as put_row */
	for (int k = 0; k < RUNG_NMETRICS; k++)
		if (rung_metrics[k].log)
			span += rung_metrics[k].log_width + 1;
	char cell[640], note[NOTE_CELL + 8];
	bool whole = strlen(t->reason) < (size_t)span;
	cut_cell(cell, sizeof(cell), t->reason, (size_t)span - 2);
	if (!t->verdict[0] && !t->note[0])
		printf("%-8s %-24s %-28s %s\n", id, subj, t->steps, cell);
	else if (!t->note[0])
		printf("%-8s %-24s %-28s %-*s%s\n", id, subj, t->steps, span, cell, t->verdict);
	else
		printf("%-8s %-24s %-28s %-*s%-8s %s\n", id, subj, t->steps, span, cell, t->verdict,
		       cut_cell(note, sizeof(note), t->note, NOTE_CELL));
	if (!whole)
		printf("         %s\n", t->reason);
}

/* The table's verdict: the person's, else "suspect" for a suspect version,
 * else "no-op" for a version with the machine code of an earlier one. */
static void table_verdict(row_text *t, const rung_result *r)
{
	if (!t->verdict[0] && t->suspects[0])
		snprintf(t->verdict, sizeof(t->verdict), "suspect");
	else if (!t->verdict[0] && r && r->noop_of[0])
		snprintf(t->verdict, sizeof(t->verdict), "no-op");
}

/* One CSV field, quoted per RFC 4180 where it must be. A text field (subject,
 * reason) that a spreadsheet would read as a formula (=, +, -, @, tab or CR
 * first) is quoted with a leading ' so it stays text. */
static void csv_put(const char *s, bool last, bool text)
{
	bool formula = text && strchr("=+-@\t\r", s[0]) && s[0];
	bool quote = formula || strpbrk(s, ",\"\n\r") != NULL;
	if (quote) {
		putchar('"');
		if (formula)
			putchar('\'');
		for (; *s; s++) {
			if (*s == '"')
				putchar('"');
			putchar(*s);
		}
		putchar('"');
	} else {
		fputs(s, stdout);
	}
	putchar(last ? '\n' : ',');
}

static void csv_field(const char *s, bool last)
{
	csv_put(s, last, false);
}

static void csv_text(const char *s, bool last)
{
	csv_put(s, last, true);
}

static json_t *jnum(double v) { return isnan(v) ? json_null() : json_real(v); }

/* The sanitize gate's state of a row for --json (app/sanitize_gate.h):
 * "not sanitized" becomes "unsanitized" where the run cannot happen here. */
static const char *gate_state_json(const rung_result *r, unsigned tools, bool unavailable)
{
	rung_gate_state g = rung_gate_of(r, tools);
	if (g == RUNG_GATE_NOT_SANITIZED && unavailable)
		g = RUNG_GATE_UNSANITIZED;
	return rung_gate_name(g);
}

static void print_json(const rung_vrow *row, const rung_result *base, bool is_base, const rung_result *recorded,
		       const char *gate_state, bool best)
{
	const rung_result *r = row->result;
	json_t *o = json_object();
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
	json_object_set_new(o, "sanitize_state", json_string(gate_state));
	json_object_set_new(o, "best", json_boolean(best));
	for (int k = 0; k < RUNG_NMETRICS; k++)
		if (rung_metrics[k].log)
			json_object_set_new(o, rung_metrics[k].key, jnum(rung_metric_worst(r, (rung_metric_id)k)));
	json_object_set_new(o, "median_ms", jnum(r && r->bench.valid ? r->bench.median : NAN));
	char shared[512] = "";
	if (r && r->bench.valid)
		rung_gpu_procs_str(shared, sizeof(shared), &r->bench.shared);
	json_object_set_new(o, "shared", shared[0] ? json_string(shared) : json_null());
	json_object_set_new(o, "delta_vs_baseline", jnum(delta_vs(r, base)));
	json_object_set_new(o, "speedup_vs_baseline", jnum(speedup_vs(r, base)));
	if (other_gpu(r, base))
		json_object_set_new(o, "other_gpu", json_string(r->env.gpu));
	json_object_set_new(o, "baseline", json_boolean(is_base));
	json_object_set_new(o, "tflops", jnum(r && r->bench.valid ? r->bench.tflops : NAN));
	json_object_set_new(o, "tbps", jnum(r && r->bench.valid ? r->bench.tbps : NAN));
	json_object_set_new(o, "regs", r && r->compile.kernel.valid ? json_integer(r->compile.kernel.regs) : json_null());
	json_object_set_new(o, "spill_bytes",
			    r && r->compile.kernel.valid
				    ? json_integer(r->compile.kernel.spill_stores + r->compile.kernel.spill_loads)
				    : json_null());
	json_object_set_new(o, "reason", json_string(r ? rung_result_reason(r) : ""));
	json_object_set_new(o, "cached_from_other_commit", json_boolean(row->via_content));
	json_object_set_new(o, "verdict",
			    json_string(row->has_note ? rung_note_verdict_name(row->note.verdict) : ""));
	char note[200];
	json_object_set_new(o, "note", json_string(note_first_line(row, note, sizeof(note), false)));
	json_object_set_new(o, "content", json_string(row->content));
	if (r) {
		char *rj = rung_result_to_json(r);
		json_t *full = rj ? json_loads(rj, 0, NULL) : NULL;
		json_object_set_new(o, "result", full ? full : json_null());
		free(rj);
	} else {
		json_object_set_new(o, "result", json_null());
	}
	/* a result recorded on another machine (rung import), never mixed with live ones:
	 * given apart, and only where there is no live result */
	if (!r && recorded) {
		char *rj = rung_result_to_json(recorded);
		json_t *full = rj ? json_loads(rj, 0, NULL) : NULL;
		json_object_set_new(o, "recorded", full ? full : json_null());
		free(rj);
	}
	char *s = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
	puts(s ? s : "{}");
	free(s);
	json_decref(o);
}

typedef struct {
	bool json, csv;
	const char *range;
	int max;
	bool plot, ascii;
	rung_vctx_opts where;
} log_opts;

static const rung_opt_spec log_specs[] = {
	{RUNG_OPT_BOOL(log_opts, json), .name = "json", .help = "JSON lines: one object per version, a line each (its rungs, results, baseline flag, recorded result)"},
	{RUNG_OPT_BOOL(log_opts, csv), .name = "csv", .help = "CSV, one line per version"},
	{RUNG_OPT_STR(log_opts, range), .name = "rev", .value = "RANGE", .help = "only these versions (a git range, A..B)"},
	{RUNG_OPT_NUM(log_opts, max, 0, INT_MAX), .shortname = 'n', .value = "N", .help = "the newest N versions only (0: all)"},
	{RUNG_OPT_BOOL(log_opts, plot), .name = "plot",
	 .help = "the stop rule's line and a plot of the ladder's progress (time, best so far, roof % against the goal; "
		 "$COLUMNS x $LINES)"},
	{RUNG_OPT_BOOL(log_opts, ascii), .name = "ascii", .help = "with --plot: ASCII only, not braille and block characters"},
	{RUNG_OPT_SUBTABLE(log_opts, where, rung_vctx_opt_specs)},
	{0}};
const rung_opt_table rung_opts_log = {.cmd = "log", .args = "", .opts = log_specs};

/* $COLUMNS x $LINES, else the terminal's size, else 80 x 24. */
static void plot_size(int *w, int *h)
{
	const char *cs = getenv("COLUMNS"), *ls = getenv("LINES");
	struct winsize ws;
	bool tty = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0;
	*w = cs && atoi(cs) > 0 ? atoi(cs) : tty ? ws.ws_col : 80;
	*h = ls && atoi(ls) > 0 ? atoi(ls) : tty ? ws.ws_row : 24;
	*h = *h > 2 ? *h - 2 : *h; /* the stop line and the prompt */
}

/* rung log --plot: the stop rule's line, then the picture of the ladder. all:
 * the rows are every version (else the task's are read again). */
static int print_plot(rung_vctx *c, const rung_vrow *rows, int n, const rung_vrow *all, bool ascii)
{
	rung_goal_status gs;
	int e = all ? rung_goal_of_rows(&gs, c, rows, n) : rung_goal_load(&gs, c);
	if (e < 0) {
		rung_goal_status_clear(&gs);
		return rung_cli_fail("log", e);
	}
	setlocale(LC_CTYPE, "");
	rung_tui_draw_init(!ascii && !strcmp(nl_langinfo(CODESET), "UTF-8"));
	int w, h;
	plot_size(&w, &h);
	rung_plot p;
	printf("%s\n", gs.line);
	if ((e = rung_plot_progress(&p, &gs, w, h)) == 0)
		rung_plot_print(&p, stdout);
	rung_plot_clear(&p);
	rung_goal_status_clear(&gs);
	return e < 0 ? rung_cli_fail("log", e) : RUNG_EXIT_OK;
}

int rung_cmd_log(int argc, char **argv)
{
	log_opts lo = {0};
	int rc, nargs;
	if (rung_opts_parse(&rc, &rung_opts_log, &lo, argc, argv, &nargs))
		return rc;
	if (lo.json + lo.csv + lo.plot > 1) {
		return rung_cli_error("log", RUNG_EXIT_USAGE, "--json, --csv and --plot: give one");
	}
	if (lo.ascii && !lo.plot) {
		return rung_cli_error("log", RUNG_EXIT_USAGE, "--ascii goes with --plot");
	}
	int fmt = lo.json ? FMT_JSON : lo.csv ? FMT_CSV : FMT_TABLE, max = lo.max;
	const char *range = lo.range;
	rung_vctx_opts o = lo.where;
	int each = rung_vctx_each_task(&o, argc, argv, rung_cmd_log, fmt == FMT_TABLE); /* every task at the root */
	if (each >= 0)
		return each;
	rung_vctx c;
	rc = rung_cli_vctx_open(&c, "log", &o, RUNG_VCTX_TASK | RUNG_VCTX_STORE_READ);
	if (rc)
		return rc;
	rung_vrow *rows;
	int n;
	int e = rung_vctx_rows(&rows, &n, &c, range, max);
	if (e < 0) { /* a bad --rev range is the command line's (2); git or the store rung's own (5) */
		rc = rung_cli_error("log", rung_cli_exit_of(e), "%s", rung_error_last());
		rung_vctx_close(&c);
		return rc;
	}
	if (lo.plot) {
		rc = print_plot(&c, rows, n, range || max ? NULL : rows, lo.ascii);
		rung_vrows_free(rows, n);
		rung_vctx_close(&c);
		return rc;
	}
	/* "vs base" is against the task's baseline whatever rows are shown (-n,
	 * --rev): it is looked for in the whole list */
	rung_vrow *all = rows;
	int nall = n;
	if ((range || max) && rung_vctx_rows(&all, &nall, &c, NULL, 0) < 0) {
		fprintf(stderr, "rung log: %s\n", rung_error_last());
		rung_vrows_free(rows, n);
		rung_vctx_close(&c);
		return RUNG_EXIT_INTERNAL;
	}
	int ball = rung_vrows_baseline(all, nall);
	const rung_result *base = ball >= 0 ? all[ball].result : NULL;
	int b = ball >= 0 ? shown_index(rows, n, &all[ball]) : -1;
	/* recorded results of versions with no live one (table and JSON), and their own baseline */
	rung_result **rec = calloc((size_t)n + 1, sizeof(*rec));
	rung_result **recall = all == rows ? rec : calloc((size_t)nall + 1, sizeof(*recall));
	int brec = -1;
	if (rec && recall) {
		for (int i = 0; i < nall; i++)
			if (!all[i].result)
				recall[i] = rung_recorded_lookup(&c, &all[i].v, all[i].content);
		for (int i = 0; i < nall && brec < 0; i++)
			if (all[i].has_note && all[i].note.verdict == RUNG_NOTE_BASELINE)
				brec = i;
		for (int i = nall - 1; i >= 0 && brec < 0; i--)
			if (recall[i] && rung_result_passed(recall[i]) && recall[i]->bench.valid)
				brec = i;
		for (int i = 0; recall != rec && i < n; i++) { /* the shown rows' own, moved from the whole list's */
			int k = shown_index(all, nall, &rows[i]);
			if (k >= 0)
				rec[i] = recall[k], recall[k] = NULL;
		}
	}
	int brec_shown = brec >= 0 ? shown_index(rows, n, &all[brec]) : -1;
	const rung_result *base_rec = NULL;
	if (recall && brec >= 0)
		base_rec = recall[brec] ? recall[brec] : brec_shown >= 0 ? rec[brec_shown] : NULL;
	const rung_vrow *base_row = ball >= 0 ? &all[ball] : brec >= 0 ? &all[brec] : NULL;
	bool base_hidden = fmt == FMT_TABLE && base_row && shown_index(rows, n, base_row) < 0;
	if (rung_store_read_error(c.store) < 0) { /* a recorded lookup met a damaged store: nothing shown */
		fprintf(stderr, "rung log: %s\n", rung_error_last());
		rc = RUNG_EXIT_INTERNAL;
		goto done;
	}
	/* --csv's last column, `recorded`, is there when a row shows a recorded result */
	bool any_rec = false;
	for (int i = 0; rec && i < n; i++)
		any_rec |= !rows[i].result && rec[i];
	if (fmt == FMT_CSV) {
		printf("rev,subject,compile,run,check,bench,profile,");
		for (int k = 0; k < RUNG_NMETRICS; k++)
			if (rung_metrics[k].log && rung_metrics[k].csv)
				printf("%s,", rung_metrics[k].key);
		printf("median_ms,delta_vs_baseline,perf,regs_spills,verdict,note,reason,suspects%s\n", any_rec ? ",recorded" : "");
	} else if (fmt == FMT_TABLE) {
		row_text h = {0};
		for (int k = 0; k < RUNG_NMETRICS; k++)
			if (rung_metrics[k].log)
				snprintf(h.metric[k], sizeof(h.metric[k]), "%s", rung_metrics[k].log);
		printf("%-8s %-24s %-28s ", "VERSION", "SUBJECT", "COMPILE RUN CHECK BENCH PROF");
		put_metrics(&h);
		printf("%-9s %-12s %-7s %-14s %-8s %-8s %s\n", "MEDIAN_MS", "VS_BASE", "TIME", "PERF", "REGS/SP", "VERDICT", "NOTE");
	}
	if (base_hidden) /* the rows shown do not hold it: never another version called base */
		printf("VS_BASE: speedup over the task's baseline %s \"%.60s\" (not among the rows shown)\n",
		       base_row->v.short_id, base_row->v.subject);
	/* the recommended version under the sanitize gate, over every version */
	unsigned gtools = rung_gate_tools(c.task.spec);
	char gwhy[128] = "";
	bool gunavail = rung_gate_unavailable(gwhy, sizeof(gwhy));
	rung_gate_pick gp;
	rung_gate_pick_rows(&gp, all, nall, gtools);
	int gbest = gp.best >= 0 ? shown_index(rows, n, &all[gp.best]) : -1;
	int ndiffer = 0; /* versions whose own rung.ini differs from the one in use */
	int nnot = 0;    /* versions with no result, live or recorded */
	for (int i = 0; i < n; i++) {
		row_text t;
		texts(&t, &rows[i], base);
		if (fmt == FMT_TABLE)
			table_verdict(&t, rows[i].result);
		if (fmt == FMT_JSON) {
			print_json(&rows[i], base, i == b, rec ? rec[i] : NULL, gate_state_json(rows[i].result, gtools, gunavail),
				   i == gbest && gbest >= 0);
			continue;
		}
		if (fmt == FMT_CSV) {
			/* a version with no live result gives its recorded one, as the table
			 * does, with the recorded column saying so (#28 D-15) */
			const rung_result *cr = rows[i].result;
			if (!cr && rec && rec[i]) {
				rung_vrow tmp = rows[i];
				tmp.result = rec[i];
				cr = rec[i];
				texts(&t, &tmp, base_rec);
			}
			csv_field(rows[i].v.id, false);
			csv_text(rows[i].v.subject, false);
			/* the columns predate the sanitize rung and stay as they are; a failed
			 * sanitize rung shows in the reason column */
			for (int s = 0; s <= RUNG_STEP_PROFILE; s++)
				csv_field(rung_status_name(cr ? cr->steps[s].status : RUNG_S_NONE), false);
			for (int k = 0; k < RUNG_NMETRICS; k++)
				if (rung_metrics[k].log && rung_metrics[k].csv)
					csv_field(t.metric[k], false);
			const char *f[] = {t.median, t.delta, t.perf, t.regs, t.verdict, t.note};
			for (int k = 0; k < 6; k++) /* the note (last) is the person's or agent's text */
				(k == 5 ? csv_text : csv_field)(f[k], false);
			csv_text(t.reason, false);
			for (char *c = t.suspects; *c; c++) /* "mutable-global;impossible" */
				if (*c == ',' && c[1] == ' ')
					memmove(c, c + 1, strlen(c)), *c = ';';
			csv_text(t.suspects, !any_rec);
			if (any_rec)
				csv_text(cr && cr != rows[i].result ? (cr->recorded_note[0] ? cr->recorded_note : "recorded on another machine")
								   : "",
					 true);
			continue;
		}
		char subj[25];
		snprintf(subj, sizeof(subj), "%.24s", rows[i].v.subject);
		if (!rows[i].result && rec && rec[i]) {
			rung_vrow tmp = rows[i];
			tmp.result = rec[i];
			texts(&t, &tmp, base_rec);
			table_verdict(&t, rec[i]);
			if (t.reason[0])
				put_failed(&t, rows[i].v.short_id, subj);
			else
				put_row(&t, rows[i].v.short_id, subj, i == brec_shown, "");
			if (rung_result_compile_verdict(rec[i])) /* kept from a compile rung with no GPU (#28 D-16) */
				printf("         %s\n", rec[i]->recorded_note);
			else
				printf("         %s (not measured here)\n",
				       rec[i]->recorded_note[0] ? rec[i]->recorded_note : "recorded on another machine");
		} else if (!rows[i].result) {
			printf("%-8s %-24s %-28s %s\n", rows[i].v.short_id, subj, t.steps, "not evaluated");
			nnot++;
		} else if (t.reason[0]) {
			put_failed(&t, rows[i].v.short_id, subj);
		} else {
			put_row(&t, rows[i].v.short_id, subj, i == b,
				rows[i].via_content ? " (same content as another version)" : "");
		}
		/* never compared silently across environments */
		const rung_result *shown = rows[i].result ? rows[i].result : rec ? rec[i] : NULL;
		rung_suspects_print(stdout, shown, "         suspect "); /* one line each, inert */
		if (shown && shown->noop_of[0])
			printf("         no-op: same machine code, launch, spec and reference as %.7s (its verdict and timing; "
			       "rung check --force REV measures it)\n", shown->noop_of);
		const rung_result *against = rows[i].result ? base : base_rec;
		char envwhy[256];
		if (shown && against && shown != against && !isnan(delta_vs(shown, against)) &&
		    rung_env_diff(envwhy, sizeof(envwhy), &shown->env, &against->env) > 0)
			printf("         delta vs a baseline measured elsewhere: %s\n", envwhy);
		if (rows[i].v.merge || rows[i].v.renamed_from[0] || rows[i].v.kernel_from[0])
			printf("         %s%s%s%s%s\n", rows[i].v.merge ? "merge (compared with its first parent) " : "",
			       rows[i].v.renamed_from[0] ? "kernel renamed from " : "", rows[i].v.renamed_from,
			       rows[i].v.kernel_from[0] ? "kernel = changed here from " : "", rows[i].v.kernel_from);
		ndiffer += rows[i].v.spec_differs;
	}
	/* said once for all the versions it concerns (#28 item 14), not a line under each */
	for (int i = 0, k = 0; fmt == FMT_TABLE && ndiffer && i < n; i++) {
		if (!rows[i].v.spec_differs)
			continue;
		if (!k++)
			printf("%d version%s with a rung.ini of %s own that differs from the one in use (the one in use "
			       "judges every version):", ndiffer, ndiffer == 1 ? "" : "s", ndiffer == 1 ? "its" : "their");
		printf("%s %s", k > 1 ? "," : "", rows[i].v.short_id);
		if (k == ndiffer)
			printf("\n");
	}
	if (nnot) /* what would evaluate them, with or without a GPU (#28 D-16) */
		printf("%d version%s not evaluated: rung eval measures %s on a GPU; without one, rung eval --compile-only "
		       "runs the compile rung (registers, spills; kept and shown here), and run, check and bench wait for a GPU\n",
		       nnot, nnot == 1 ? "" : "s", nnot == 1 ? "it" : "them");
	if (fmt == FMT_TABLE && n == 0)
		printf("no versions: commit %s first\n", c.task.kernel_path);
	if (fmt == FMT_TABLE && gp.best >= 0) { /* the recommended version and its sanitize state */
		char d[700], dc[700];
		rung_gate_describe(d, sizeof(d), all[gp.best].result, gtools, gunavail ? gwhy : NULL);
		printf("best: %s %s%s", all[gp.best].v.short_id, gp.provisional ? "provisional: " : "", d);
		if (gp.pending) {
			rung_gate_describe(dc, sizeof(dc), all[gp.candidate].result, gtools, gunavail ? gwhy : NULL);
			printf("; faster, not recommended until it passes the sanitizer: %s (%s)", all[gp.candidate].v.short_id, dc);
		}
		printf("\n");
	}
	if (fmt == FMT_TABLE && n > 0) { /* the stop rule's line, over every version of the task */
		rung_goal_status gs;
		int e = range || max ? rung_goal_load(&gs, &c) : rung_goal_of_rows(&gs, &c, rows, n);
		if (e == 0)
			printf("%s\n", gs.line);
		rung_goal_status_clear(&gs);
		rung_error_clear();
	}
done:
	for (int i = 0; rec && i < n; i++)
		if (rec[i]) {
			rung_result_clear(rec[i]);
			free(rec[i]);
		}
	free(rec);
	if (recall != rec) {
		for (int i = 0; recall && i < nall; i++)
			if (recall[i]) {
				rung_result_clear(recall[i]);
				free(recall[i]);
			}
		free(recall);
	}
	if (all != rows)
		rung_vrows_free(all, nall);
	rung_vrows_free(rows, n);
	rung_vctx_close(&c);
	return rc;
}

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
 * under its row; --json has "suspect" and "suspects", --csv a suspects column.
 * The rows are app/log.c's (rung_log_load, and rung_log_row_to_json for
 * --json and the MCP log tool); this file prints them. */
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
#include "app/log.h"
#include "cli/views.h"
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
	num(t->delta, sizeof(t->delta), "%+.1f%%", 100 * rung_log_delta(r, base));
	/* "202x +-0.6", the form every screen uses (rung_fmt_speedup_pm) */
	double sp = rung_log_speedup(r, base);
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
	rung_log_note_line(row, t->note, sizeof(t->note), true);
	if (r)
		snprintf(t->reason, sizeof(t->reason), "%s", rung_result_reason(r));
}

/* The metric columns of the table, each at its width (core/metric_table.h). */
static void put_metrics(FILE *f, const row_text *t)
{
	for (int k = 0; k < RUNG_NMETRICS; k++)
		if (rung_metrics[k].log)
			fprintf(f, "%-*s ", rung_metrics[k].log_width, t->metric[k]);
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
static void put_row(FILE *f, const row_text *t, const char *id, const char *subj, bool is_base, const char *tail)
{
	char note[NOTE_CELL + 8];
	fprintf(f, "%-8s %-24s %-28s ", id, subj, t->steps);
	put_metrics(f, t);
	fprintf(f, "%-9s %-12s %-7s %-14s %-8s %-8s %s%s\n", t->median, is_base ? "base" : t->speedup, is_base ? "" : t->delta,
		t->perf, t->regs, t->verdict, cut_cell(note, sizeof(note), t->note, NOTE_CELL), tail);
}

/* A failed row: the reason over the metric columns, VERDICT and NOTE in their
 * own (#28 D-20: a long reason pushed them out); a reason longer than those
 * columns is cut there and given whole on the next line. */
static void put_failed(FILE *f, const row_text *t, const char *id, const char *subj)
{
	int span = 9 + 1 + 12 + 1 + 7 + 1 + 14 + 1 + 8 + 1; /* MEDIAN_MS .. REGS/SP, as put_row */
	for (int k = 0; k < RUNG_NMETRICS; k++)
		if (rung_metrics[k].log)
			span += rung_metrics[k].log_width + 1;
	char cell[640], note[NOTE_CELL + 8];
	bool whole = strlen(t->reason) < (size_t)span;
	cut_cell(cell, sizeof(cell), t->reason, (size_t)span - 2);
	if (!t->verdict[0] && !t->note[0])
		fprintf(f, "%-8s %-24s %-28s %s\n", id, subj, t->steps, cell);
	else if (!t->note[0])
		fprintf(f, "%-8s %-24s %-28s %-*s%s\n", id, subj, t->steps, span, cell, t->verdict);
	else
		fprintf(f, "%-8s %-24s %-28s %-*s%-8s %s\n", id, subj, t->steps, span, cell, t->verdict,
			cut_cell(note, sizeof(note), t->note, NOTE_CELL));
	if (!whole)
		fprintf(f, "         %s\n", t->reason);
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
static void csv_put(FILE *f, const char *s, bool last, bool text)
{
	bool formula = text && strchr("=+-@\t\r", s[0]) && s[0];
	bool quote = formula || strpbrk(s, ",\"\n\r") != NULL;
	if (quote) {
		fputc('"', f);
		if (formula)
			fputc('\'', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

static void csv_field(FILE *f, const char *s, bool last)
{
	csv_put(f, s, last, false);
}

static void csv_text(FILE *f, const char *s, bool last)
{
	csv_put(f, s, last, true);
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

/* The table or CSV of l (fmt FMT_TABLE or FMT_CSV) on f; kernel_path names
 * what to commit when there are no versions. */
static void print_log(FILE *f, const rung_log *l, int fmt, const char *kernel_path)
{
	const rung_vrow *rows = l->rows;
	int n = l->n, b = l->base_shown, brec_shown = l->base_rec_shown;
	rung_result *const *rec = l->rec;
	const rung_result *base = l->base, *base_rec = l->base_rec;
	const rung_vrow *base_row = l->base_row;
	bool base_hidden = fmt == FMT_TABLE && base_row; /* unless among the rows shown (by id) */
	for (int i = 0; base_hidden && i < n; i++)
		if (!strcmp(rows[i].v.id, base_row->v.id))
			base_hidden = false;
	bool any_rec = l->any_recorded;
	if (fmt == FMT_CSV) {
		fprintf(f, "rev,subject,compile,run,check,bench,profile,");
		for (int k = 0; k < RUNG_NMETRICS; k++)
			if (rung_metrics[k].log && rung_metrics[k].csv)
				fprintf(f, "%s,", rung_metrics[k].key);
		fprintf(f, "median_ms,delta_vs_baseline,perf,regs_spills,verdict,note,reason,suspects%s\n", any_rec ? ",recorded" : "");
	} else {
		row_text h = {0};
		for (int k = 0; k < RUNG_NMETRICS; k++)
			if (rung_metrics[k].log)
				snprintf(h.metric[k], sizeof(h.metric[k]), "%s", rung_metrics[k].log);
		fprintf(f, "%-8s %-24s %-28s ", "VERSION", "SUBJECT", "COMPILE RUN CHECK BENCH PROF");
		put_metrics(f, &h);
		fprintf(f, "%-9s %-12s %-7s %-14s %-8s %-8s %s\n", "MEDIAN_MS", "VS_BASE", "TIME", "PERF", "REGS/SP", "VERDICT", "NOTE");
	}
	if (base_hidden) /* the rows shown do not hold it: never another version called base */
		fprintf(f, "VS_BASE: speedup over the task's baseline %s \"%.60s\" (not among the rows shown)\n",
			base_row->v.short_id, base_row->v.subject);
	int ndiffer = 0; /* versions whose own rung.ini differs from the one in use */
	int nnot = 0;    /* versions with no result, live or recorded */
	for (int i = 0; i < n; i++) {
		row_text t;
		texts(&t, &rows[i], base);
		if (fmt == FMT_TABLE)
			table_verdict(&t, rows[i].result);
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
			csv_field(f, rows[i].v.id, false);
			csv_text(f, rows[i].v.subject, false);
			/* the columns predate the sanitize rung and stay as they are; a failed
			 * sanitize rung shows in the reason column */
			for (int s = 0; s <= RUNG_STEP_PROFILE; s++)
				csv_field(f, rung_status_name(cr ? cr->steps[s].status : RUNG_S_NONE), false);
			for (int k = 0; k < RUNG_NMETRICS; k++)
				if (rung_metrics[k].log && rung_metrics[k].csv)
					csv_field(f, t.metric[k], false);
			const char *fl[] = {t.median, t.delta, t.perf, t.regs, t.verdict, t.note};
			for (int k = 0; k < 6; k++) /* the note (last) is the person's or agent's text */
				(k == 5 ? csv_text : csv_field)(f, fl[k], false);
			csv_text(f, t.reason, false);
			for (char *c = t.suspects; *c; c++) /* "mutable-global;impossible" */
				if (*c == ',' && c[1] == ' ')
					memmove(c, c + 1, strlen(c)), *c = ';';
			csv_text(f, t.suspects, !any_rec);
			if (any_rec)
				csv_text(f, cr && cr != rows[i].result ? (cr->recorded_note[0] ? cr->recorded_note : "recorded on another machine")
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
				put_failed(f, &t, rows[i].v.short_id, subj);
			else
				put_row(f, &t, rows[i].v.short_id, subj, i == brec_shown, "");
			if (rung_result_compile_verdict(rec[i])) /* kept from a compile rung with no GPU (#28 D-16) */
				fprintf(f, "         %s\n", rec[i]->recorded_note);
			else
				fprintf(f, "         %s (not measured here)\n",
					rec[i]->recorded_note[0] ? rec[i]->recorded_note : "recorded on another machine");
		} else if (!rows[i].result) {
			fprintf(f, "%-8s %-24s %-28s %s\n", rows[i].v.short_id, subj, t.steps, "not evaluated");
			nnot++;
		} else if (t.reason[0]) {
			put_failed(f, &t, rows[i].v.short_id, subj);
		} else {
			put_row(f, &t, rows[i].v.short_id, subj, i == b,
				rows[i].via_content ? " (same content as another version)" : "");
		}
		/* never compared silently across environments */
		const rung_result *shown = rows[i].result ? rows[i].result : rec ? rec[i] : NULL;
		rung_suspects_print(f, shown, "         suspect "); /* one line each, inert */
		if (shown && shown->noop_of[0])
			fprintf(f, "         no-op: same machine code, launch, spec and reference as %.7s (its verdict and timing; "
				   "rung check --force REV measures it)\n", shown->noop_of);
		const rung_result *against = rows[i].result ? base : base_rec;
		char envwhy[256];
		if (shown && against && shown != against && !isnan(rung_log_delta(shown, against)) &&
		    rung_env_diff(envwhy, sizeof(envwhy), &shown->env, &against->env) > 0)
			fprintf(f, "         delta vs a baseline measured elsewhere: %s\n", envwhy);
		if (rows[i].v.merge || rows[i].v.renamed_from[0] || rows[i].v.kernel_from[0])
			fprintf(f, "         %s%s%s%s%s\n", rows[i].v.merge ? "merge (compared with its first parent) " : "",
				rows[i].v.renamed_from[0] ? "kernel renamed from " : "", rows[i].v.renamed_from,
				rows[i].v.kernel_from[0] ? "kernel = changed here from " : "", rows[i].v.kernel_from);
		ndiffer += rows[i].v.spec_differs;
	}
	/* said once for all the versions it concerns (#28 item 14), not a line under each */
	for (int i = 0, k = 0; fmt == FMT_TABLE && ndiffer && i < n; i++) {
		if (!rows[i].v.spec_differs)
			continue;
		if (!k++)
			fprintf(f, "%d version%s with a rung.ini of %s own that differs from the one in use (the one in use "
				   "judges every version):", ndiffer, ndiffer == 1 ? "" : "s", ndiffer == 1 ? "its" : "their");
		fprintf(f, "%s %s", k > 1 ? "," : "", rows[i].v.short_id);
		if (k == ndiffer)
			fprintf(f, "\n");
	}
	if (nnot) /* what would evaluate them, with or without a GPU (#28 D-16) */
		fprintf(f, "%d version%s not evaluated: rung eval measures %s on a GPU; without one, rung eval --compile-only "
			   "runs the compile rung (registers, spills; kept and shown here), and run, check and bench wait for a GPU\n",
			nnot, nnot == 1 ? "" : "s", nnot == 1 ? "it" : "them");
	if (fmt == FMT_TABLE && n == 0)
		fprintf(f, "no versions: commit %s first\n", kernel_path);
	if (fmt == FMT_TABLE && l->gate.best >= 0) { /* the recommended version and its sanitize state */
		char d[700], dc[700];
		const char *why = l->gate_unavailable ? l->gate_why : NULL;
		rung_gate_describe(d, sizeof(d), l->all[l->gate.best].result, l->gate_tools, why);
		fprintf(f, "best: %s %s%s", l->all[l->gate.best].v.short_id, l->gate.provisional ? "provisional: " : "", d);
		if (l->gate.pending) {
			rung_gate_describe(dc, sizeof(dc), l->all[l->gate.candidate].result, l->gate_tools, why);
			fprintf(f, "; faster, not recommended until it passes the sanitizer: %s (%s)",
				l->all[l->gate.candidate].v.short_id, dc);
		}
		fprintf(f, "\n");
	}
	if (fmt == FMT_TABLE && l->has_goal) /* the stop rule's line, over every version of the task */
		fprintf(f, "%s\n", l->goal_line);
}

void rung_cli_log_table(FILE *f, const rung_log *l, const char *kernel_path)
{
	print_log(f, l, FMT_TABLE, kernel_path);
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
	int fmt = lo.json ? FMT_JSON : lo.csv ? FMT_CSV : FMT_TABLE;
	rung_vctx_opts o = lo.where;
	int each = rung_vctx_each_task(&o, argc, argv, rung_cmd_log, fmt == FMT_TABLE); /* every task at the root */
	if (each >= 0)
		return each;
	rung_vctx c;
	rc = rung_cli_vctx_open(&c, "log", &o, RUNG_VCTX_TASK | RUNG_VCTX_STORE_READ);
	if (rc)
		return rc;
	if (lo.plot) {
		rung_vrow *rows;
		int n;
		int e = rung_vctx_rows(&rows, &n, &c, lo.range, lo.max);
		if (e < 0) { /* a bad --rev range is the command line's (2); git or the store rung's own (5) */
			rc = rung_cli_error("log", rung_cli_exit_of(e), "%s", rung_error_last());
			rung_vctx_close(&c);
			return rc;
		}
		rc = print_plot(&c, rows, n, lo.range || lo.max ? NULL : rows, lo.ascii);
		rung_vrows_free(rows, n);
		rung_vctx_close(&c);
		return rc;
	}
	rung_log l;
	rung_log_req req = {.range = lo.range, .max = lo.max, .goal = fmt == FMT_TABLE};
	int e = rung_log_load(&l, &c, &req);
	if (e < 0) { /* a bad --rev range is the command line's (2); git or the store rung's own (5) */
		rc = rung_cli_error("log", rung_cli_exit_of(e), "%s", rung_error_last());
	} else if (fmt == FMT_JSON) {
		for (int i = 0; i < l.n; i++) {
			json_t *o = rung_log_row_to_json(&l, i);
			char *s = o ? json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
			puts(s ? s : "{}");
			free(s);
			json_decref(o);
		}
	} else {
		print_log(stdout, &l, fmt, c.task.kernel_path);
	}
	rung_log_clear(&l);
	rung_vctx_close(&c);
	return rc;
}

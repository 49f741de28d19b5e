/* rung brief [-n N]: a markdown summary of the task for the agent's context:
 * the task and its roofline floor, the best passing version and its distance
 * to the floor, the baseline, the last N versions with verdict and one-line
 * reason, the person's directives, remarks and verdicts on this task's versions
 * since the last marked brief (`--mark`, the agent's call: without it brief has
 * no side effect), its open directives (directives only: a remark is never
 * open), and its remarks. A suspect version (docs/CHECKS.md, "Evidence: suspects")
 * gets a line per suspect; a suspect best is said plainly ("best is suspect:
 * ...; verify before building on it"). It reports what is stored; it never
 * invents advice. What it says is gathered by app/brief.c (rung_brief_load);
 * this file writes it as markdown, for the command and the MCP brief tool. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/envcmp.h"
#include "core/metric_table.h"
#include "core/err.h"
#include "core/stall.h"
#include "core/expr.h"
#include "core/roofline.h"
#include "core/stats.h"
#include "cli/cli.h"
#include "app/suspects.h"
#include "app/goal.h"
#include "app/sanitize_gate.h"
#include "app/session.h"
#include "app/brief.h"
#include "cli/views.h"

static void fmt_time(char *buf, size_t len, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	localtime_r(&tt, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M", &tm);
}

/* Markdown table cells: no pipes or newlines. */
static void cell(char *dst, size_t n, const char *src)
{
	size_t o = 0;
	for (; *src && o + 1 < n; src++)
		dst[o++] = *src == '|' ? '/' : (*src == '\n' || *src == '\r') ? ' ' : *src;
	dst[o] = 0;
}

static void metrics_str(char *buf, size_t len, const rung_result *r)
{
	size_t o = 0;
	buf[0] = 0;
	if (r->bench.valid && !isnan(r->bench.median))
		o += (size_t)snprintf(buf + o, len - o, "median %.4g ms", r->bench.median);
	if (r->bench.valid && !isnan(r->bench.rse_median) && o < len)
		o += (size_t)snprintf(buf + o, len - o, " (±%.1f%%)", 100 * r->bench.rse_median);
	if (r->bench.valid && !isnan(r->bench.tflops) && o < len)
		o += (size_t)snprintf(buf + o, len - o, ", %.3g TFLOP/s", r->bench.tflops);
	else if (r->bench.valid && !isnan(r->bench.tbps) && o < len)
		o += (size_t)snprintf(buf + o, len - o, ", %.3g TB/s", r->bench.tbps);
	for (int k = 0; k < RUNG_NMETRICS; k++) { /* the worst of each (core/metric_table.h) */
		const rung_metric_info *mi = &rung_metrics[k];
		double v = mi->brief ? rung_metric_worst(r, (rung_metric_id)k) : NAN;
		char t[48];
		if (!isnan(v) && o < len)
			o += (size_t)snprintf(buf + o, len - o, ", %s %s", mi->brief,
					      rung_metric_str(t, sizeof(t), mi->brief_fmt, v, "-"));
	}
	if (r->compile.kernel.valid && o < len)
		o += (size_t)snprintf(buf + o, len - o, ", %d regs, %" PRId64 " spill bytes", r->compile.kernel.regs,
				      r->compile.kernel.spill_stores + r->compile.kernel.spill_loads);
	if (r->cached && o < len)
		snprintf(buf + o, len - o, " (stored)");
}

static void task_section(FILE *f, rung_vctx *c)
{
	const rung_spec *s = c->task.spec;
	fprintf(f, "# rung brief: %s\n\n", s->name ? s->name : (c->task.dir[0] ? c->task.dir : "task"));
	/* at HEAD: said so (the commit may be another task's, in a repository of several) */
	char head[41] = "";
	if (rung_repo_resolve(head, c->repo, "HEAD") < 0)
		rung_error_clear(), head[0] = 0;
	if (!strcmp(c->task.spec_rev, "WORKTREE"))
		fprintf(f, "- task: `%s` (spec in the work tree)\n", c->task.spec_path);
	else
		fprintf(f, "- task: `%s` (spec read at %s%.7s%s)\n", c->task.spec_path, strcmp(head, c->task.spec_rev) ? "commit " : "HEAD, ",
		       c->task.spec_rev, strcmp(head, c->task.spec_rev) ? ", --spec-rev" : "");
	fprintf(f, "- kernel: `%s`, entry `%s`\n", c->task.kernel_path, s->entry ? s->entry : "?");
	if (s->reference)
		fprintf(f, "- reference: `%s`%s%s%s\n", s->reference, s->reference_entry ? ", entry `" : "",
		       s->reference_entry ? s->reference_entry : "", s->reference_entry ? "`" : "");
	char dims[512];
	rung_dimset_format(dims, sizeof(dims), &s->dims);
	fprintf(f, "- benchmark shape: %s; %d check shape set(s), %d seed(s)\n", dims, s->ncheck, s->seeds);
	if (s->ninputs > 1) {
		fprintf(f, "- check inputs: normal, and each check shape set once with");
		for (int i = 1; i < s->ninputs; i++)
			fprintf(f, "%s `%s` (%s)", i > 1 ? ";" : "", rung_dist_name(s->inputs[i]), rung_dist_help(s->inputs[i]));
		fprintf(f, "\n");
	}
	int64_t flops = -1, bytes = -1;
	if (s->flops.text && rung_expr_eval(&flops, s->flops.text, &s->dims) < 0)
		flops = -1;
	if (s->bytes.text && rung_expr_eval(&bytes, s->bytes.text, &s->dims) < 0)
		bytes = -1;
	rung_error_clear();
	if (flops >= 0 || bytes >= 0) {
		fprintf(f, "- work at that shape:");
		if (flops >= 0)
			fprintf(f, " %" PRId64 " FLOP (`%s`)", flops, s->flops.text);
		if (bytes >= 0)
			fprintf(f, "%s %" PRId64 " bytes (`%s`)", flops >= 0 ? "," : "", bytes, s->bytes.text);
		if (flops > 0 && bytes > 0)
			fprintf(f, ", arithmetic intensity %.3g FLOP/byte", rung_arith_intensity((double)flops, (double)bytes));
		fprintf(f, "\n");
	} else {
		fprintf(f, "- work: no [roofline] flops/bytes in the spec, so no roofline floor\n");
	}
}

/* "- goal: roof 80%, plateau 3 (sgemm/rung.ini:70)" */
static void goal_item(FILE *f, const rung_goal_spec *g, const char *spec)
{
	if (!g->line) {
		fprintf(f, "- goal: none (a [goal] in rung.ini says when to stop: roof = 80%%, speedup = 20x, plateau = 3, versions = 40)\n");
		return;
	}
	fprintf(f, "- goal:");
	const char *sep = " ";
	if (g->roof > 0)
		fprintf(f, "%sroof %g%% of the roof that fits the kernel", sep, g->roof), sep = ", ";
	if (g->speedup > 0)
		fprintf(f, "%sspeedup %gx over the baseline", sep, g->speedup), sep = ", ";
	if (g->plateau > 0)
		fprintf(f, "%splateau after %d versions without a gain", sep, g->plateau), sep = ", ";
	if (g->versions > 0)
		fprintf(f, "%sa budget of %d versions", sep, g->versions);
	fprintf(f, " (%s:%d)\n", spec, g->line);
}

static const char *verdict_of(const rung_vrow *r)
{
	return r->has_note && r->note.verdict != RUNG_NOTE_NONE ? rung_note_verdict_name(r->note.verdict) : "";
}

/* "  - declined by 3c452f7 (claude, 2026-11-30 09:12): reason" under an
 * answered directive: the standing answer, then each other one of its
 * history ("  - also done by ...": an answer after the person's close). */
static void answer_line(FILE *f, const rung_directive *d)
{
	if (d->answer == RUNG_ANSWER_NONE)
		return;
	char t[32];
	fmt_time(t, sizeof(t), d->answer_time);
	fprintf(f, "  - %s%s%.7s (%s, %s)%s%s\n", rung_answer_name(d->answer), d->answer_version[0] ? " by " : "",
		d->answer_version, d->answer_author, t, d->answer_text ? ": " : "", d->answer_text ? d->answer_text : "");
	int standing = rung_directive_standing(d);
	for (int k = 0; k < d->nanswers; k++) {
		const rung_answer_rec *a = &d->answers[k];
		if (k == standing)
			continue;
		fmt_time(t, sizeof(t), a->time);
		fprintf(f, "  - also %s%s%.7s (%s, %s)%s%s\n", rung_answer_name(a->kind), a->version[0] ? " by " : "", a->version,
			a->author, t, a->text ? ": " : "", a->text ? a->text : "");
	}
}

/* The person's notes on the task's versions: what is new since the last
 * marked brief, the directives with their status and ids, the remarks. A
 * mark that could not be kept is said on err (the next brief would show the
 * same items as new): a warning where the store is read-only (-2, exit 0),
 * else an error (-3); -1: the notes or marks could not be read (said on err
 * too, after what could be shown). */
static int notes_sections(FILE *f, FILE *err, const rung_brief *b, bool mark)
{
	if (!b->since_read) {
		fprintf(err, "rung brief: %s\n", b->err);
		return -1;
	}
	const rung_note *notes = b->notes;
	int n = b->nnotes;
	char when[32] = "", t[32];
	if (b->have_last)
		fmt_time(when, sizeof(when), b->last_brief);
	fprintf(f, "\n## From the person since %s\n\n", b->have_last ? when : "the start (first brief)");
	for (int i = 0; i < b->nfresh; i++) {
		const rung_note *nt = &notes[b->fresh[i].note];
		const char *subj = b->subjects[b->fresh[i].note];
		if (b->fresh[i].k < 0) {
			fprintf(f, "- verdict **%s** on %s\n", rung_note_verdict_name(nt->verdict), subj);
			continue;
		}
		if (b->fresh[i].answer >= 0) { /* the person's reopen of directive k */
			const rung_directive *d = &nt->directives[b->fresh[i].k];
			const rung_answer_rec *an = &d->answers[b->fresh[i].answer];
			char did[RUNG_DIRECTIVE_ID_LEN + 1];
			rung_directive_id(did, nt, b->fresh[i].k);
			fmt_time(t, sizeof(t), an->time);
			fprintf(f, "- %s %s reopened [%s] on %s: %s%s%s\n", t, an->author, did, subj, d->text, an->text ? ": " : "",
				an->text ? an->text : "");
			continue;
		}
		const rung_directive *d = &nt->directives[b->fresh[i].k];
		fmt_time(t, sizeof(t), d->time);
		rung_dstatus st = rung_directive_status(d);
		fprintf(f, "- %s %s %s %s: %s%s%s%s", t, d->author, d->remark ? "remarked on" : "on", subj,
			d->task_wide ? "(task-wide) " : "", d->text, st != RUNG_DSTATUS_OPEN ? " (" : "",
			st != RUNG_DSTATUS_OPEN ? rung_dstatus_name(st) : "");
		if (st != RUNG_DSTATUS_OPEN)
			fprintf(f, ")\n");
		else
			fprintf(f, "\n");
	}
	if (b->seen_failed) {
		fprintf(err, "rung brief: %s\n", b->err);
		return -1;
	}
	if (!b->nfresh)
		fprintf(f, "nothing new\n");
	/* the directives with their status and ids: the agent answers one with
	 * `rung note --ack|--decline ID REASON` (or rung mcp's ack_directive) */
	char did[RUNG_DIRECTIVE_ID_LEN + 1];
	fprintf(f, "\n## Task-wide directives\n\n");
	int ntw = 0;
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < notes[i].ndirectives; k++) {
			const rung_directive *d = &notes[i].directives[k];
			if (d->remark || !d->task_wide)
				continue;
			rung_directive_id(did, &notes[i], k);
			fmt_time(t, sizeof(t), d->time);
			fprintf(f, "- [%s] %s (%s, %s, on %.7s): %s\n", did, rung_dstatus_name(rung_directive_status(d)), d->author,
				t, notes[i].commit, d->text);
			answer_line(f, d);
			ntw++;
		}
	}
	if (!ntw)
		fprintf(f, "none\n");
	fprintf(f, "\n## Open directives\n\n");
	int open = 0;
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < notes[i].ndirectives; k++) {
			const rung_directive *d = &notes[i].directives[k];
			if (!rung_directive_open(d) || d->task_wide)
				continue;
			rung_directive_id(did, &notes[i], k);
			fmt_time(t, sizeof(t), d->time);
			fprintf(f, "- [%s] %s (%s, %s): %s\n", did, b->subjects[i], d->author, t, d->text);
			answer_line(f, d); /* open again: the person's reopen, and what came before it */
			open++;
		}
	}
	if (!open)
		fprintf(f, "none\n");
	fprintf(f, "\n## Answered directives\n\n");
	int nans = 0;
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < notes[i].ndirectives; k++) {
			const rung_directive *d = &notes[i].directives[k];
			if (d->remark || d->task_wide || rung_directive_open(d))
				continue;
			rung_directive_id(did, &notes[i], k);
			fmt_time(t, sizeof(t), d->time);
			fprintf(f, "- [%s] %s: %s (%s, %s): %s\n", did, rung_dstatus_name(rung_directive_status(d)), b->subjects[i],
				d->author, t, d->text);
			answer_line(f, d);
			nans++;
		}
	}
	if (!nans)
		fprintf(f, "none\n");
	/* what the person said that is not a directive: remarks, and note lines
	 * not in rung's form (written with git notes by hand) */
	fprintf(f, "\n## Remarks\n\n");
	int nrem = 0;
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < notes[i].ndirectives; k++) {
			const rung_directive *d = &notes[i].directives[k];
			if (!d->remark)
				continue;
			fmt_time(t, sizeof(t), d->time);
			fprintf(f, "- %s (%s, %s): %s\n", b->subjects[i], d->author, t, d->text);
			nrem++;
		}
		for (const char *p = notes[i].other, *eol; p && *p; p = *eol ? eol + 1 : eol) {
			eol = strchr(p, '\n');
			if (!eol)
				eol = p + strlen(p);
			if (eol > p) {
				fprintf(f, "- %s: %.*s\n", b->subjects[i], (int)(eol - p), p);
				nrem++;
			}
		}
	}
	if (!nrem)
		fprintf(f, "none\n");
	if (!mark) {
		fprintf(f, "\n(a preview: nothing was marked as seen; the agent runs `rung brief --mark`)\n");
		return 0;
	}
	if (b->mark_kept_not) { /* the mark could not be kept: the same items would come back as new */
		fprintf(err,
			"rung brief: %s: this brief could not be marked as seen (%s); the next `rung brief --mark` "
			"shows the same items as new\n",
			b->mark_readonly ? "warning" : "error", b->mark_failed);
		return b->mark_readonly ? -2 : -3;
	}
	return 0;
}

typedef struct {
	int nlast;
	bool mark;
	rung_vctx_opts where;
} brief_opts;

static const rung_opt_spec brief_specs[] = {
	{RUNG_OPT_NUM(brief_opts, nlast, 0, 100000), .shortname = 'n', .value = "N",
	 .help = "list the last N versions (default 10)"},
	{RUNG_OPT_BOOL(brief_opts, mark), .name = "mark",
	 .help = "remember what this brief showed as new (the agent's call; without it a brief changes nothing)"},
	{RUNG_OPT_SUBTABLE(brief_opts, where, rung_vctx_opt_specs)},
	{0}};
const rung_opt_table rung_opts_brief = {.cmd = "brief", .args = "", .opts = brief_specs};

/* Results recorded on another machine (imported: the demo's H200 runs), kept
 * apart from live ones and labelled so: how many versions have one, and the
 * fastest passing one with its metrics and floor, so that an agent without a
 * GPU still learns where the speed is. Nothing when none is recorded. */
static void recorded_section(FILE *f, const rung_brief *b)
{
	if (b->ncomp)
		fprintf(f, "\n## Compiled only\n\n%d version%s compiled here with no GPU (their compile verdict, registers and "
			   "spills are in the last versions below and `rung log`); run, check and bench need a GPU: "
			   "`rung eval` on a machine with one\n",
			b->ncomp, b->ncomp == 1 ? " was" : "s were");
	if (!b->nrec)
		return;
	fprintf(f, "\n## Recorded results (not measured here)\n\n");
	fprintf(f, "%d of the %d versions without a live result here (%d evaluated here) have one recorded on another "
		   "machine (`rung log` shows them)\n", b->nrec, b->n - b->evaluated, b->evaluated);
	const rung_result *bestr = b->rec_best_r;
	if (bestr) {
		char m[512];
		metrics_str(m, sizeof(m), bestr);
		fprintf(f, "fastest recorded passing version: %s \"%s\": %s (%s)\n", b->rows[b->rec_best].v.short_id,
			b->rows[b->rec_best].v.subject, m, bestr->recorded_note[0] ? bestr->recorded_note : "recorded");
		if (!isnan(bestr->floor_ms) && bestr->floor_ms > 0)
			fprintf(f, "its roofline floor there: %.4g ms (%.2fx the floor)\n", bestr->floor_ms,
				bestr->bench.median / bestr->floor_ms);
	}
}

/* Where the best version's warps wait, from its stored stall samples
 * (`rung profile --stalls`): the top reasons and the most sampled PCs, so
 * that the agent reads what to attack next. */
static void stall_lines(FILE *f, const rung_brief *b)
{
	const rung_vrow *row = &b->rows[b->best];
	const rung_stall *s = &b->best_stall;
	if (!b->best_sampled) {
		fprintf(f, "where its warps wait: not sampled (`rung profile --stalls %s` on a GPU box)\n", row->v.short_id);
		return;
	}
	int idx[5];
	uint64_t sum[5];
	int n = rung_stall_top(idx, sum, 5, s);
	fprintf(f, "where its warps wait (%llu warp stall samples): ", (unsigned long long)s->total);
	for (int k = 0; k < n; k++) {
		char label[64];
		rung_stall_label(label, sizeof(label), s->reasons[idx[k]]);
		fprintf(f, "%s%s %.1f%%", k ? ", " : "", label, 100.0 * (double)sum[k] / (double)s->total);
	}
	fprintf(f, "\n");
	/* the three most sampled PCs (their SASS: `rung dump`, kernel.sass) */
	int top[3];
	int nt = rung_stall_top_rows(top, 3, s);
	fprintf(f, "most sampled instructions:");
	for (int k = 0; k < nt; k++) {
		char label[64] = "";
		int r = rung_stall_row_top(s, top[k]);
		if (r >= 0)
			rung_stall_label(label, sizeof(label), s->reasons[r]);
		fprintf(f, "%s pc 0x%04llx %.1f%% (%s)", k ? "," : "", (unsigned long long)s->pc[top[k]],
			100.0 * (double)rung_stall_row_total(s, top[k]) / (double)s->total, label);
	}
	fprintf(f, " (the SASS at these pcs: `rung dump %s`, kernel.sass)\n", row->v.short_id);
}

int rung_cli_brief_markdown(FILE *f, FILE *err, rung_vctx *c, const rung_brief *b, int nlast, bool mark)
{
	const rung_vrow *rows = b->rows;
	int n = b->n, best = b->best, base = b->base;
	/* the stop rule's verdict first: the one line an agent branches on */
	if (b->has_goal)
		fprintf(f, "%s\n\n", b->goal_line);
	task_section(f, c);
	goal_item(f, &c->task.spec->goal, c->task.spec_path);
	fprintf(f, "- versions: %d (%d evaluated)\n", n, b->evaluated);

	char m[512], cellbuf[512];
	fprintf(f, "\n## Roofline floor\n\n");
	if (!isnan(b->floor_ms))
		fprintf(f, "%.4g ms at the benchmark shape on %s (the faster of compute and memory limits)\n", b->floor_ms,
			b->floor_from);
	else
		fprintf(f, "unknown: no stored result carries a floor (needs [roofline] in the spec and an evaluation on a GPU)\n");

	fprintf(f, "\n## Best passing version\n\n");
	if (best >= 0) {
		const rung_result *r = rows[best].result;
		metrics_str(m, sizeof(m), r);
		fprintf(f, "%s \"%s\": %s\n", rows[best].v.short_id, rows[best].v.subject, m);
		if (!isnan(r->floor_ms) && r->floor_ms > 0 && r->bench.valid)
			fprintf(f, "distance to the roofline floor: %.2fx the floor (%.0f%% of the attainable speed)\n",
				r->bench.median / r->floor_ms, 100 * r->floor_ms / r->bench.median);
		char gd[700];
		rung_gate_describe(gd, sizeof(gd), r, b->gate_tools, NULL);
		if (b->gate.provisional)
			fprintf(f, "sanitize: %s: this best is provisional%s\n", gd,
				!strcmp(gd, "not sanitized") ? " (`rung eval` sanitizes it before it is recommended)" : "");
		else
			fprintf(f, "sanitize: %s\n", gd);
		if (b->gate.pending) {
			const rung_result *cr = rows[b->gate.candidate].result;
			rung_gate_describe(gd, sizeof(gd), cr, b->gate_tools, NULL);
			fprintf(f, "faster, not recommended until it passes the sanitizer: %s \"%s\" %.4g ms: %s%s\n",
				rows[b->gate.candidate].v.short_id, rows[b->gate.candidate].v.subject, cr->bench.median, gd,
				!strcmp(gd, "not sanitized") ? " (`rung eval` sanitizes it)" : "");
		}
		stall_lines(f, b);
		if (r->nsuspects) { /* evidence that its time may be fooled: said plainly */
			char kinds[200];
			fprintf(f, "\nbest is suspect: %s; verify before building on it\n\n",
				rung_suspect_kinds(kinds, sizeof(kinds), r));
			rung_suspects_print(f, r, "- suspect ");
		}
	} else {
		fprintf(f, "none yet (no version has passed check and bench)\n");
	}
	recorded_section(f, b);
	fprintf(f, "\n## Baseline\n\n");
	if (base >= 0) {
		const char *why = rows[base].has_note && rows[base].note.verdict == RUNG_NOTE_BASELINE ? "verdict baseline"
													  : "oldest passing version";
		fprintf(f, "%s \"%s\" (%s)", rows[base].v.short_id, rows[base].v.subject, why);
		if (rows[base].result) {
			metrics_str(m, sizeof(m), rows[base].result);
			fprintf(f, ": %s", m);
		}
		fprintf(f, "\n");
		if (rows[base].result && rows[base].result->nsuspects) {
			fprintf(f, "\n");
			rung_suspects_print(f, rows[base].result, "- suspect ");
		}
		if (best >= 0 && rows[base].result && rows[base].result->bench.valid) {
			const rung_bench *bb = &rows[base].result->bench, *bt = &rows[best].result->bench;
			char sp[64];
			rung_fmt_speedup_pm(sp, sizeof(sp), rung_speedup(bt->median, bb->median),
					    rung_ratio_noise(bt->rse_median, bb->rse_median), false);
			fprintf(f, "best vs baseline: %s faster\n", sp);
			char envwhy[256];
			if (rung_env_diff(envwhy, sizeof(envwhy), &rows[best].result->env, &rows[base].result->env) > 0)
				fprintf(f, "(not comparable as is: measured in different environments: %s)\n", envwhy);
		}
	} else {
		fprintf(f, "none (no `baseline` verdict and no passing version)\n");
	}

	fprintf(f, "\n## Last %d version%s\n\n", nlast < n ? nlast : n, (nlast < n ? nlast : n) == 1 ? "" : "s");
	if (n) {
		fprintf(f, "| version | subject | verdict | result | reason or metrics |\n|---|---|---|---|---|\n");
		double bmed = base >= 0 && rows[base].result && rows[base].result->bench.valid ? rows[base].result->bench.median
											       : NAN;
		for (int i = 0; i < n && i < nlast; i++) {
			const rung_result *r = rows[i].result;
			const char *res = !r ? "not evaluated" : rung_result_passed(r) ? "pass" : rung_status_name(rung_result_status(r));
			char detail[640] = "";
			const rung_result *cv = !r && b->compiled ? b->compiled[i] : NULL;
			if (cv) { /* the compile rung's verdict kept with no GPU (#28 D-16) */
				const rung_kinfo *k = &cv->compile.kernel;
				bool ok = cv->steps[RUNG_STEP_COMPILE].status == RUNG_S_OK;
				res = ok ? "compiled only" : "compile FAILED";
				if (ok && k->valid)
					snprintf(detail, sizeof(detail), "regs %d, spills %lld, smem %lld B; %s", k->regs,
						 (long long)(k->spill_stores + k->spill_loads), (long long)k->smem, cv->recorded_note);
				else
					snprintf(detail, sizeof(detail), "%s; %s", ok ? "" : rung_result_reason(cv), cv->recorded_note);
			} else if (r && rung_result_reason(r)[0]) {
				snprintf(detail, sizeof(detail), "%s", rung_result_reason(r));
			} else if (r) {
				metrics_str(m, sizeof(m), r);
				if (!isnan(bmed) && r->bench.valid && i != base) {
					char sp[64];
					rung_fmt_speedup_pm(sp, sizeof(sp), rung_speedup(r->bench.median, bmed),
							    rung_ratio_noise(r->bench.rse_median, rows[base].result->bench.rse_median),
							    false);
					snprintf(detail, sizeof(detail), "%s, %s vs baseline", m, sp);
				}
				else
					snprintf(detail, sizeof(detail), "%s", m);
			}
			if (r && r->impossible)
				strncat(detail, "; IMPOSSIBLE: faster than the roofline floor", sizeof(detail) - strlen(detail) - 1);
			if (r && r->nsuspects) {
				char kinds[200];
				strncat(detail, "; suspect: ", sizeof(detail) - strlen(detail) - 1);
				strncat(detail, rung_suspect_kinds(kinds, sizeof(kinds), r), sizeof(detail) - strlen(detail) - 1);
			}
			if (r && r->noop_of[0]) { /* the agent learns that its edit changed nothing */
				char no[96];
				snprintf(no, sizeof(no), "; no-op: same machine code as %.7s", r->noop_of);
				strncat(detail, no, sizeof(detail) - strlen(detail) - 1);
			}
			if (rows[i].v.spec_differs)
				strncat(detail, "; its own rung.ini differs", sizeof(detail) - strlen(detail) - 1);
			cell(cellbuf, sizeof(cellbuf), rows[i].v.subject);
			fprintf(f, "| %s | %s | %s | %s |", rows[i].v.short_id, cellbuf, verdict_of(&rows[i]), res);
			cell(cellbuf, sizeof(cellbuf), detail);
			fprintf(f, " %s |\n", cellbuf);
		}
		/* under the table, a line per suspect of the versions it lists */
		bool any = false;
		for (int i = 0; i < n && i < nlast; i++) {
			const rung_result *r = rows[i].result;
			if (!r || !r->nsuspects)
				continue;
			if (!any)
				fprintf(f, "\n");
			any = true;
			char prefix[64];
			snprintf(prefix, sizeof(prefix), "- %s suspect ", rows[i].v.short_id);
			rung_suspects_print(f, r, prefix);
		}
	}
	int ns = notes_sections(f, err, b, mark);
	return ns == -1 || ns == -3 ? RUNG_EXIT_INTERNAL : RUNG_EXIT_OK;
}

int rung_cli_brief_to(FILE *f, FILE *err, const rung_vctx_opts *o, int nlast, bool mark)
{
	rung_vctx c;
	int rc = rung_cli_vctx_open_to(err, &c, "brief", o, RUNG_VCTX_TASK | RUNG_VCTX_STORE_READ);
	if (rc)
		return rc;
	rung_brief b;
	if (rung_brief_load(&b, &c, &(rung_brief_req){.mark = mark, .now = (int64_t)time(NULL)}) < 0) {
		fprintf(err, "rung brief: %s\n", rung_error_last());
		rc = RUNG_EXIT_INTERNAL;
	} else {
		rc = rung_cli_brief_markdown(f, err, &c, &b, nlast, mark);
	}
	rung_brief_clear(&b);
	rung_vctx_close(&c);
	return rc;
}

int rung_cmd_brief(int argc, char **argv)
{
	brief_opts bo = {.nlast = 10};
	int rc, nargs;
	if (rung_opts_parse(&rc, &rung_opts_brief, &bo, argc, argv, &nargs))
		return rc;
	rung_vctx_opts o = bo.where;
	int each = rung_vctx_each_task(&o, argc, argv, rung_cmd_brief, false); /* one brief per task: its own title */
	if (each >= 0)
		return each;
	return rung_cli_brief_to(stdout, stderr, &o, bo.nlast, bo.mark);
}

/* rung brief [-n N]: a markdown summary of the task for the agent's context:
 * the task and its roofline floor, the best passing version and its distance
 * to the floor, the baseline, the last N versions with verdict and one-line
 * reason, the person's directives, remarks and verdicts on this task's versions
 * since the last marked brief (`--mark`, the agent's call: without it brief has
 * no side effect), its open directives (directives only: a remark is never
 * open), and its remarks. A suspect version (docs/CHECKS.md, "Evidence: suspects")
 * gets a line per suspect; a suspect best is said plainly ("best is suspect:
 * ...; verify before building on it"). It reports what is stored; it never
 * invents advice. */
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
#include "vcs/prof_store.h"
#include "core/expr.h"
#include "core/roofline.h"
#include "core/sha256.h"
#include "core/stats.h"
#include "cli/cli.h"
#include "app/suspects.h"
#include "app/goal.h"
#include "app/sanitize_gate.h"
#include "app/session.h"

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

static void task_section(rung_vctx *c)
{
	const rung_spec *s = c->task.spec;
	printf("# rung brief: %s\n\n", s->name ? s->name : (c->task.dir[0] ? c->task.dir : "task"));
	/* at HEAD: said so (the commit may be another task's, in a repository of several) */
	char head[41] = "";
	if (rung_repo_resolve(head, c->repo, "HEAD") < 0)
		rung_error_clear(), head[0] = 0;
	if (!strcmp(c->task.spec_rev, "WORKTREE"))
		printf("- task: `%s` (spec in the work tree)\n", c->task.spec_path);
	else
		printf("- task: `%s` (spec read at %s%.7s%s)\n", c->task.spec_path, strcmp(head, c->task.spec_rev) ? "commit " : "HEAD, ",
		       c->task.spec_rev, strcmp(head, c->task.spec_rev) ? ", --spec-rev" : "");
	printf("- kernel: `%s`, entry `%s`\n", c->task.kernel_path, s->entry ? s->entry : "?");
	if (s->reference)
		printf("- reference: `%s`%s%s%s\n", s->reference, s->reference_entry ? ", entry `" : "",
		       s->reference_entry ? s->reference_entry : "", s->reference_entry ? "`" : "");
	char dims[512];
	rung_dimset_format(dims, sizeof(dims), &s->dims);
	printf("- benchmark shape: %s; %d check shape set(s), %d seed(s)\n", dims, s->ncheck, s->seeds);
	if (s->ninputs > 1) {
		printf("- check inputs: normal, and each check shape set once with");
		for (int i = 1; i < s->ninputs; i++)
			printf("%s `%s` (%s)", i > 1 ? ";" : "", rung_dist_name(s->inputs[i]), rung_dist_help(s->inputs[i]));
		printf("\n");
	}
	int64_t flops = -1, bytes = -1;
	if (s->flops.text && rung_expr_eval(&flops, s->flops.text, &s->dims) < 0)
		flops = -1;
	if (s->bytes.text && rung_expr_eval(&bytes, s->bytes.text, &s->dims) < 0)
		bytes = -1;
	rung_error_clear();
	if (flops >= 0 || bytes >= 0) {
		printf("- work at that shape:");
		if (flops >= 0)
			printf(" %" PRId64 " FLOP (`%s`)", flops, s->flops.text);
		if (bytes >= 0)
			printf("%s %" PRId64 " bytes (`%s`)", flops >= 0 ? "," : "", bytes, s->bytes.text);
		if (flops > 0 && bytes > 0)
			printf(", arithmetic intensity %.3g FLOP/byte", rung_arith_intensity((double)flops, (double)bytes));
		printf("\n");
	} else {
		printf("- work: no [roofline] flops/bytes in the spec, so no roofline floor\n");
	}
}

/* "- goal: roof 80%, plateau 3 (sgemm/rung.ini:70)" */
static void goal_item(const rung_goal_spec *g, const char *spec)
{
	if (!g->line) {
		printf("- goal: none (a [goal] in rung.ini says when to stop: roof = 80%%, speedup = 20x, plateau = 3, versions = 40)\n");
		return;
	}
	printf("- goal:");
	const char *sep = " ";
	if (g->roof > 0)
		printf("%sroof %g%% of the roof that fits the kernel", sep, g->roof), sep = ", ";
	if (g->speedup > 0)
		printf("%sspeedup %gx over the baseline", sep, g->speedup), sep = ", ";
	if (g->plateau > 0)
		printf("%splateau after %d versions without a gain", sep, g->plateau), sep = ", ";
	if (g->versions > 0)
		printf("%sa budget of %d versions", sep, g->versions);
	printf(" (%s:%d)\n", spec, g->line);
}

static const char *verdict_of(const rung_vrow *r)
{
	return r->has_note && r->note.verdict != RUNG_NOTE_NONE ? rung_note_verdict_name(r->note.verdict) : "";
}

static void line_id(char out[65], const char *commit, const char *line)
{
	rung_sha256_ctx c;
	rung_sha256_init(&c);
	rung_sha256_update(&c, commit, strlen(commit));
	rung_sha256_update(&c, "\n", 1);
	rung_sha256_update(&c, line, strlen(line));
	rung_sha256_final_hex(&c, out);
}

typedef struct {
	rung_note *notes;
	int n;
} notes_t;

static const char *subject_of(rung_vctx *c, const char *commit, char *buf, size_t len)
{
	rung_version v;
	if (rung_version_at(&v, c->repo, commit, "") < 0 && !v.id[0])
		snprintf(v.subject, sizeof(v.subject), "(unknown commit)");
	rung_error_clear();
	snprintf(buf, len, "%.7s \"%s\"", commit, v.subject);
	return buf;
}

/* Whether commit is one of the task's versions (notes on other tasks'
 * commits belong to their briefs). */
static bool of_task(const rung_vrow *rows, int nrows, const char *commit)
{
	for (int i = 0; i < nrows; i++)
		if (!strcmp(rows[i].v.id, commit))
			return true;
	return false;
}

/* "  - declined by 3c452f7 (claude, 2026-11-30 09:12): reason" under an
 * answered directive: the standing answer, then each other one of its
 * history ("  - also done by ...": an answer after the person's close). */
static void answer_line(const rung_directive *d)
{
	if (d->answer == RUNG_ANSWER_NONE)
		return;
	char t[32];
	fmt_time(t, sizeof(t), d->answer_time);
	printf("  - %s%s%.7s (%s, %s)%s%s\n", rung_answer_name(d->answer), d->answer_version[0] ? " by " : "",
	       d->answer_version, d->answer_author, t, d->answer_text ? ": " : "", d->answer_text ? d->answer_text : "");
	int standing = rung_directive_standing(d);
	for (int k = 0; k < d->nanswers; k++) {
		const rung_answer_rec *a = &d->answers[k];
		if (k == standing)
			continue;
		fmt_time(t, sizeof(t), a->time);
		printf("  - also %s%s%.7s (%s, %s)%s%s\n", rung_answer_name(a->kind), a->version[0] ? " by " : "", a->version,
		       a->author, t, a->text ? ": " : "", a->text ? a->text : "");
	}
}

/* Remembers id as seen; the first failure goes to *failed (its message to why). */
static void mark_seen(rung_vctx *c, const char *id, int64_t now, int *failed, char *why, size_t len)
{
	if (!*failed && (*failed = rung_store_mark_seen(c->store, id, now)) < 0)
		snprintf(why, len, "%s", rung_error_last());
}

/* The person's notes on the task's versions. With mark (the agent's --mark),
 * what is shown as new is remembered as seen and the time of this brief is
 * kept; without it, brief has no side effect (a person previewing it leaves
 * the agent's "since" section as it was). A mark that cannot be written is
 * said on stderr (the next brief would show the same items as new): a
 * warning where the store is read-only (-2, exit 0), else an error (-3). */
static int notes_sections(rung_vctx *c, int64_t now, const rung_vrow *rows, int nrows, bool mark)
{
	rung_note *all;
	int nall;
	if (rung_notes_list(&all, &nall, c->repo) < 0)
		return -1;
	rung_note *notes = all;
	int n = 0;
	for (int i = 0; i < nall; i++) { /* keep this task's, in place */
		if (of_task(rows, nrows, all[i].commit)) {
			if (n != i) {
				rung_note tmp = notes[n];
				notes[n] = all[i];
				all[i] = tmp;
			}
			n++;
		}
	}
	char *last = NULL;
	int have_last = rung_store_meta_get(&last, c->store, "last_brief") == 0;
	char when[32] = "";
	if (have_last)
		fmt_time(when, sizeof(when), strtoll(last, NULL, 10));
	free(last);
	rung_error_clear();
	if (rung_store_read_error(c->store) < 0) /* not "the start": the mark was there and could not be read */
		goto fail;
	printf("\n## From the person since %s\n\n", have_last ? when : "the start (first brief)");
	int fresh = 0, failed = 0, seen;
	char id[65], subj[320], t[32], why[600] = "";
	const char *ro = rung_store_readonly(c->store);
	if (mark && ro) { /* no write can work: none is tried */
		failed = RUNG_ESTORE;
		snprintf(why, sizeof(why), "%s is open read-only: %s", rung_store_path(c->store), ro);
	}
	for (int i = 0; i < n; i++) {
		const rung_note *nt = &notes[i];
		if (nt->verdict != RUNG_NOTE_NONE) {
			char line[64];
			snprintf(line, sizeof(line), "verdict: %s", rung_note_verdict_name(nt->verdict));
			line_id(id, nt->commit, line);
			if ((seen = rung_store_seen(c->store, id)) < 0)
				goto fail;
			if (!seen) {
				printf("- verdict **%s** on %s\n", rung_note_verdict_name(nt->verdict),
				       subject_of(c, nt->commit, subj, sizeof(subj)));
				fresh++;
			}
			if (mark)
				mark_seen(c, id, now, &failed, why, sizeof(why));
		}
		for (int k = 0; k < nt->ndirectives; k++) {
			const rung_directive *d = &nt->directives[k];
			char line[1024];
			/* a directive's id is what it was before remarks existed (marks stay valid) */
			snprintf(line, sizeof(line), "%s%" PRId64 " %s: %s", d->remark ? "remark " : "", d->time, d->author,
				 d->text);
			line_id(id, nt->commit, line);
			if ((seen = rung_store_seen(c->store, id)) < 0)
				goto fail;
			if (!seen) {
				fmt_time(t, sizeof(t), d->time);
				rung_dstatus st = rung_directive_status(d);
				printf("- %s %s %s %s: %s%s%s%s", t, d->author, d->remark ? "remarked on" : "on",
				       subject_of(c, nt->commit, subj, sizeof(subj)), d->task_wide ? "(task-wide) " : "", d->text,
				       st != RUNG_DSTATUS_OPEN ? " (" : "", st != RUNG_DSTATUS_OPEN ? rung_dstatus_name(st) : "");
				if (st != RUNG_DSTATUS_OPEN)
					printf(")\n");
				else
					printf("\n");
				fresh++;
			}
			if (mark)
				mark_seen(c, id, now, &failed, why, sizeof(why));
			/* the person's reopen of it: news for the agent, who may have
			 * answered it (rung note --reopen ID) */
			for (int a = 0; !d->remark && a < d->nanswers; a++) {
				const rung_answer_rec *an = &d->answers[a];
				if (an->kind != RUNG_ANSWER_REOPENED)
					continue;
				char did[RUNG_DIRECTIVE_ID_LEN + 1];
				rung_directive_id(did, nt, k);
				snprintf(line, sizeof(line), "reopened %s %" PRId64 " %s", did, an->time, an->author);
				line_id(id, nt->commit, line);
				if ((seen = rung_store_seen(c->store, id)) < 0)
					goto fail;
				if (!seen) {
					fmt_time(t, sizeof(t), an->time);
					printf("- %s %s reopened [%s] on %s: %s%s%s\n", t, an->author, did,
					       subject_of(c, nt->commit, subj, sizeof(subj)), d->text, an->text ? ": " : "",
					       an->text ? an->text : "");
					fresh++;
				}
				if (mark)
					mark_seen(c, id, now, &failed, why, sizeof(why));
			}
		}
	}
	if (!fresh)
		printf("nothing new\n");
	/* the directives with their status and ids: the agent answers one with
	 * `rung note --ack|--decline ID REASON` (or rung mcp's ack_directive) */
	char did[RUNG_DIRECTIVE_ID_LEN + 1];
	printf("\n## Task-wide directives\n\n");
	int ntw = 0;
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < notes[i].ndirectives; k++) {
			const rung_directive *d = &notes[i].directives[k];
			if (d->remark || !d->task_wide)
				continue;
			rung_directive_id(did, &notes[i], k);
			fmt_time(t, sizeof(t), d->time);
			printf("- [%s] %s (%s, %s, on %.7s): %s\n", did, rung_dstatus_name(rung_directive_status(d)), d->author, t,
			       notes[i].commit, d->text);
			answer_line(d);
			ntw++;
		}
	}
	if (!ntw)
		printf("none\n");
	printf("\n## Open directives\n\n");
	int open = 0;
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < notes[i].ndirectives; k++) {
			const rung_directive *d = &notes[i].directives[k];
			if (!rung_directive_open(d) || d->task_wide)
				continue;
			rung_directive_id(did, &notes[i], k);
			fmt_time(t, sizeof(t), d->time);
			printf("- [%s] %s (%s, %s): %s\n", did, subject_of(c, notes[i].commit, subj, sizeof(subj)), d->author, t,
			       d->text);
			answer_line(d); /* open again: the person's reopen, and what came before it */
			open++;
		}
	}
	if (!open)
		printf("none\n");
	printf("\n## Answered directives\n\n");
	int nans = 0;
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < notes[i].ndirectives; k++) {
			const rung_directive *d = &notes[i].directives[k];
			if (d->remark || d->task_wide || rung_directive_open(d))
				continue;
			rung_directive_id(did, &notes[i], k);
			fmt_time(t, sizeof(t), d->time);
			printf("- [%s] %s: %s (%s, %s): %s\n", did, rung_dstatus_name(rung_directive_status(d)),
			       subject_of(c, notes[i].commit, subj, sizeof(subj)), d->author, t, d->text);
			answer_line(d);
			nans++;
		}
	}
	if (!nans)
		printf("none\n");
	/* what the person said that is not a directive: remarks, and note lines
	 * not in rung's form (written with git notes by hand) */
	printf("\n## Remarks\n\n");
	int nrem = 0;
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < notes[i].ndirectives; k++) {
			const rung_directive *d = &notes[i].directives[k];
			if (!d->remark)
				continue;
			fmt_time(t, sizeof(t), d->time);
			printf("- %s (%s, %s): %s\n", subject_of(c, notes[i].commit, subj, sizeof(subj)), d->author, t, d->text);
			nrem++;
		}
		for (const char *p = notes[i].other, *eol; p && *p; p = *eol ? eol + 1 : eol) {
			eol = strchr(p, '\n');
			if (!eol)
				eol = p + strlen(p);
			if (eol > p) {
				printf("- %s: %.*s\n", subject_of(c, notes[i].commit, subj, sizeof(subj)), (int)(eol - p), p);
				nrem++;
			}
		}
	}
	if (!nrem)
		printf("none\n");
	rung_notes_free(all, nall);
	if (mark) {
		char nowbuf[32];
		snprintf(nowbuf, sizeof(nowbuf), "%" PRId64, now);
		if (!failed && (failed = rung_store_meta_set(c->store, "last_brief", nowbuf)) < 0)
			snprintf(why, sizeof(why), "%s", rung_error_last());
		if (failed) { /* the mark could not be kept: the same items would come back as new */
			fprintf(stderr,
				"rung brief: %s: this brief could not be marked as seen (%s); the next `rung brief --mark` "
				"shows the same items as new\n",
				ro ? "warning" : "error", why);
			return ro ? -2 : -3;
		}
	} else {
		printf("\n(a preview: nothing was marked as seen; the agent runs `rung brief --mark`)\n");
	}
	return 0;
fail:
	rung_notes_free(all, nall);
	return -1;
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
static void recorded_section(rung_vctx *c, const rung_vrow *rows, int n, int evaluated)
{
	int nrec = 0, ncomp = 0, best = -1;
	rung_result *bestr = NULL;
	for (int i = 0; i < n; i++) {
		if (rows[i].result)
			continue;
		rung_result *r = rung_recorded_lookup(c, &rows[i].v, rows[i].content);
		if (!r)
			continue;
		if (rung_result_compile_verdict(r)) { /* compiled here with no GPU: not a measurement (#28 D-16) */
			ncomp++;
			rung_result_clear(r);
			free(r);
			continue;
		}
		nrec++;
		if (rung_result_passed(r) && r->bench.valid && (!bestr || r->bench.median < bestr->bench.median)) {
			if (bestr) {
				rung_result_clear(bestr);
				free(bestr);
			}
			bestr = r;
			best = i;
		} else {
			rung_result_clear(r);
			free(r);
		}
	}
	rung_error_clear();
	if (ncomp)
		printf("\n## Compiled only\n\n%d version%s compiled here with no GPU (their compile verdict, registers and "
		       "spills are in the last versions below and `rung log`); run, check and bench need a GPU: "
		       "`rung eval` on a machine with one\n",
		       ncomp, ncomp == 1 ? " was" : "s were");
	if (!nrec)
		return;
	printf("\n## Recorded results (not measured here)\n\n");
	printf("%d of the %d versions without a live result here (%d evaluated here) have one recorded on another "
	       "machine (`rung log` shows them)\n", nrec, n - evaluated, evaluated);
	if (bestr) {
		char m[512];
		metrics_str(m, sizeof(m), bestr);
		printf("fastest recorded passing version: %s \"%s\": %s (%s)\n", rows[best].v.short_id, rows[best].v.subject,
		       m, bestr->recorded_note[0] ? bestr->recorded_note : "recorded");
		if (!isnan(bestr->floor_ms) && bestr->floor_ms > 0)
			printf("its roofline floor there: %.4g ms (%.2fx the floor)\n", bestr->floor_ms,
			       bestr->bench.median / bestr->floor_ms);
		rung_result_clear(bestr);
		free(bestr);
	}
}

/* Where the best version's warps wait, from its stored stall samples
 * (`rung profile --stalls`): the top reasons and the most sampled PCs, so
 * that the agent reads what to attack next. */
static void stall_lines(rung_store *st, const rung_vrow *row)
{
	char *js = NULL;
	rung_stall s;
	memset(&s, 0, sizeof(s));
	json_t *j = NULL;
	if (!st || !row->result || !row->result->key[0] || rung_store_get_extra(&js, st, row->result->key, "stall") < 0 ||
	    !(j = json_loads(js, 0, NULL)) || rung_stall_from_json(&s, j) < 0 || s.total == 0) {
		printf("where its warps wait: not sampled (`rung profile --stalls %s` on a GPU box)\n", row->v.short_id);
		rung_error_clear();
		json_decref(j);
		free(js);
		return;
	}
	json_decref(j);
	free(js);
	int idx[5];
	uint64_t sum[5];
	int n = rung_stall_top(idx, sum, 5, &s);
	printf("where its warps wait (%llu warp stall samples): ", (unsigned long long)s.total);
	for (int k = 0; k < n; k++) {
		char label[64];
		rung_stall_label(label, sizeof(label), s.reasons[idx[k]]);
		printf("%s%s %.1f%%", k ? ", " : "", label, 100.0 * (double)sum[k] / (double)s.total);
	}
	printf("\n");
	/* the three most sampled PCs (their SASS: `rung dump`, kernel.sass) */
	int top[3];
	int nt = rung_stall_top_rows(top, 3, &s);
	printf("most sampled instructions:");
	for (int k = 0; k < nt; k++) {
		char label[64] = "";
		int r = rung_stall_row_top(&s, top[k]);
		if (r >= 0)
			rung_stall_label(label, sizeof(label), s.reasons[r]);
		printf("%s pc 0x%04llx %.1f%% (%s)", k ? "," : "", (unsigned long long)s.pc[top[k]],
		       100.0 * (double)rung_stall_row_total(&s, top[k]) / (double)s.total, label);
	}
	printf(" (the SASS at these pcs: `rung dump %s`, kernel.sass)\n", row->v.short_id);
	rung_stall_clear(&s);
}

int rung_cmd_brief(int argc, char **argv)
{
	brief_opts bo = {.nlast = 10};
	int rc, nargs;
	if (rung_opts_parse(&rc, &rung_opts_brief, &bo, argc, argv, &nargs))
		return rc;
	int nlast = bo.nlast;
	rung_vctx_opts o = bo.where;
	int each = rung_vctx_each_task(&o, argc, argv, rung_cmd_brief, false); /* one brief per task: its own title */
	if (each >= 0)
		return each;
	rung_vctx c;
	rc = rung_cli_vctx_open(&c, "brief", &o, RUNG_VCTX_TASK | RUNG_VCTX_STORE_READ);
	if (rc)
		return rc;
	rung_vrow *rows;
	int n;
	if (rung_vctx_rows(&rows, &n, &c, NULL, 0) < 0) {
		fprintf(stderr, "rung brief: %s\n", rung_error_last());
		rung_vctx_close(&c);
		return RUNG_EXIT_INTERNAL;
	}
	/* the stop rule's verdict first: the one line an agent branches on */
	rung_goal_status gs;
	if (rung_goal_of_rows(&gs, &c, rows, n) == 0)
		printf("%s\n\n", gs.line);
	else
		rung_error_clear();
	task_section(&c);
	goal_item(&c.task.spec->goal, c.task.spec_path);
	rung_goal_status_clear(&gs);
	int evaluated = 0;
	for (int i = 0; i < n; i++)
		evaluated += rows[i].result != NULL;
	printf("- versions: %d (%d evaluated)\n", n, evaluated);

	/* the best under the sanitize gate (app/sanitize_gate.h): the one to build on */
	unsigned gtools = rung_gate_tools(c.task.spec);
	rung_gate_pick gp;
	rung_gate_pick_rows(&gp, rows, n, gtools);
	int best = gp.best, base = rung_vrows_baseline(rows, n);
	char m[512], cellbuf[512];
	printf("\n## Roofline floor\n\n");
	double floor_ms = NAN;
	const char *floor_from = NULL;
	for (int i = 0; i < n && isnan(floor_ms); i++) {
		if (rows[i].result && !isnan(rows[i].result->floor_ms)) {
			floor_ms = rows[i].result->floor_ms;
			floor_from = rows[i].result->env.valid ? rows[i].result->env.gpu : "?";
		}
	}
	if (!isnan(floor_ms))
		printf("%.4g ms at the benchmark shape on %s (the faster of compute and memory limits)\n", floor_ms, floor_from);
	else
		printf("unknown: no stored result carries a floor (needs [roofline] in the spec and an evaluation on a GPU)\n");

	printf("\n## Best passing version\n\n");
	if (best >= 0) {
		const rung_result *r = rows[best].result;
		metrics_str(m, sizeof(m), r);
		printf("%s \"%s\": %s\n", rows[best].v.short_id, rows[best].v.subject, m);
		if (!isnan(r->floor_ms) && r->floor_ms > 0 && r->bench.valid)
			printf("distance to the roofline floor: %.2fx the floor (%.0f%% of the attainable speed)\n",
			       r->bench.median / r->floor_ms, 100 * r->floor_ms / r->bench.median);
		char gd[700];
		rung_gate_describe(gd, sizeof(gd), r, gtools, NULL);
		if (gp.provisional)
			printf("sanitize: %s: this best is provisional%s\n", gd,
			       !strcmp(gd, "not sanitized") ? " (`rung eval` sanitizes it before it is recommended)" : "");
		else
			printf("sanitize: %s\n", gd);
		if (gp.pending) {
			const rung_result *cr = rows[gp.candidate].result;
			rung_gate_describe(gd, sizeof(gd), cr, gtools, NULL);
			printf("faster, not recommended until it passes the sanitizer: %s \"%s\" %.4g ms: %s%s\n",
			       rows[gp.candidate].v.short_id, rows[gp.candidate].v.subject, cr->bench.median, gd,
			       !strcmp(gd, "not sanitized") ? " (`rung eval` sanitizes it)" : "");
		}
		stall_lines(c.store, &rows[best]);
		if (r->nsuspects) { /* evidence that its time may be fooled: said plainly */
			char kinds[200];
			printf("\nbest is suspect: %s; verify before building on it\n\n",
			       rung_suspect_kinds(kinds, sizeof(kinds), r));
			rung_suspects_print(stdout, r, "- suspect ");
		}
	} else {
		printf("none yet (no version has passed check and bench)\n");
	}
	recorded_section(&c, rows, n, evaluated);
	printf("\n## Baseline\n\n");
	if (base >= 0) {
		const char *why = rows[base].has_note && rows[base].note.verdict == RUNG_NOTE_BASELINE ? "verdict baseline"
													  : "oldest passing version";
		printf("%s \"%s\" (%s)", rows[base].v.short_id, rows[base].v.subject, why);
		if (rows[base].result) {
			metrics_str(m, sizeof(m), rows[base].result);
			printf(": %s", m);
		}
		printf("\n");
		if (rows[base].result && rows[base].result->nsuspects) {
			printf("\n");
			rung_suspects_print(stdout, rows[base].result, "- suspect ");
		}
		if (best >= 0 && rows[base].result && rows[base].result->bench.valid) {
			const rung_bench *bb = &rows[base].result->bench, *bt = &rows[best].result->bench;
			char sp[64];
			rung_fmt_speedup_pm(sp, sizeof(sp), rung_speedup(bt->median, bb->median),
					    rung_ratio_noise(bt->rse_median, bb->rse_median), false);
			printf("best vs baseline: %s faster\n", sp);
			char envwhy[256];
			if (rung_env_diff(envwhy, sizeof(envwhy), &rows[best].result->env, &rows[base].result->env) > 0)
				printf("(not comparable as is: measured in different environments: %s)\n", envwhy);
		}
	} else {
		printf("none (no `baseline` verdict and no passing version)\n");
	}

	printf("\n## Last %d version%s\n\n", nlast < n ? nlast : n, (nlast < n ? nlast : n) == 1 ? "" : "s");
	if (n) {
		printf("| version | subject | verdict | result | reason or metrics |\n|---|---|---|---|---|\n");
		double bmed = base >= 0 && rows[base].result && rows[base].result->bench.valid ? rows[base].result->bench.median
											       : NAN;
		for (int i = 0; i < n && i < nlast; i++) {
			const rung_result *r = rows[i].result;
			const char *res = !r ? "not evaluated" : rung_result_passed(r) ? "pass" : rung_status_name(rung_result_status(r));
			char detail[640] = "";
			rung_result *cv = r ? NULL : rung_recorded_lookup(&c, &rows[i].v, rows[i].content);
			rung_error_clear();
			if (cv && !rung_result_compile_verdict(cv)) {
				rung_result_clear(cv);
				free(cv);
				cv = NULL;
			}
			if (cv) { /* the compile rung's verdict kept with no GPU (#28 D-16) */
				const rung_kinfo *k = &cv->compile.kernel;
				bool ok = cv->steps[RUNG_STEP_COMPILE].status == RUNG_S_OK;
				res = ok ? "compiled only" : "compile FAILED";
				if (ok && k->valid)
					snprintf(detail, sizeof(detail), "regs %d, spills %lld, smem %lld B; %s", k->regs,
						 (long long)(k->spill_stores + k->spill_loads), (long long)k->smem, cv->recorded_note);
				else
					snprintf(detail, sizeof(detail), "%s; %s", ok ? "" : rung_result_reason(cv), cv->recorded_note);
				rung_result_clear(cv);
				free(cv);
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
			printf("| %s | %s | %s | %s |", rows[i].v.short_id, cellbuf, verdict_of(&rows[i]), res);
			cell(cellbuf, sizeof(cellbuf), detail);
			printf(" %s |\n", cellbuf);
		}
		/* under the table, a line per suspect of the versions it lists */
		bool any = false;
		for (int i = 0; i < n && i < nlast; i++) {
			const rung_result *r = rows[i].result;
			if (!r || !r->nsuspects)
				continue;
			if (!any)
				printf("\n");
			any = true;
			char prefix[64];
			snprintf(prefix, sizeof(prefix), "- %s suspect ", rows[i].v.short_id);
			rung_suspects_print(stdout, r, prefix);
		}
	}
	int ns = notes_sections(&c, (int64_t)time(NULL), rows, n, bo.mark);
	if (ns == -1)
		fprintf(stderr, "rung brief: %s\n", rung_error_last());
	if (ns == -1 || ns == -3)
		rc = RUNG_EXIT_INTERNAL;
	rung_vrows_free(rows, n);
	rung_vctx_close(&c);
	return rc;
}

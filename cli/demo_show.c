/* `rung demo --no-tui`: one table per task, built from the same pieces as
 * `rung log` (app/session.h). A version shows its live result when there is
 * one, else its recorded result (labelled "recorded on <GPU>, <date>"), else
 * the compile rung run now with NVRTC (no GPU needed; nothing is stored, so
 * a later `rung eval` on a GPU evaluates every version). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/err.h"
#include "core/sidecar.h"
#include "core/stats.h"
#include "core/roofline_guard.h"
#include "gpu/compile.h"
#include "cli/cli.h"
#include "app/demo.h"
#include "app/session.h"
#include "app/task.h"

typedef enum { SRC_NONE, SRC_LIVE, SRC_RECORDED, SRC_COMPILED } row_src;

/* The compile rung alone, as rung_eval_compile fills it (app/evaluate.c). */
static rung_result *compile_only(rung_vctx *c, const rung_vrow *row)
{
	rung_source src;
	if (rung_vtask_source(&src, &c->task, row->v.worktree ? "WORKTREE" : row->v.id, row->v.kernel_path) < 0)
		return NULL;
	rung_result *r = malloc(sizeof(*r));
	if (!r) {
		rung_source_clear(&src);
		return NULL;
	}
	rung_result_init(r);
	/* the version's compile as the evaluation makes it (app/task.h), its
	 * #includes confined to the repository; a broken launch line: judged on
	 * the spec's [arg]s alone */
	rung_compiled kc;
	int e = rung_version_compile(&kc, c->repo, &c->task, &src, &row->v);
	rung_step *st = &r->steps[RUNG_STEP_COMPILE];
	st->wall_ms = kc.ms;
	r->compile.compile_ms = kc.ms;
	snprintf(r->compile.arch, sizeof(r->compile.arch), "%s",
		 c->task.spec->arch && *c->task.spec->arch ? c->task.spec->arch : "sm_90");
	if (e == 0) {
		st->status = RUNG_S_OK;
		r->compile.kernel = kc.kinfo;
		r->compile.ptx_bytes = (int64_t)kc.ptx_len;
		r->compile.cubin_bytes = (int64_t)kc.cubin_len;
	} else {
		st->status = RUNG_S_FAILED;
		snprintf(st->reason, sizeof(st->reason), "%s", kc.error[0] ? kc.error : rung_error_last());
		rung_error_clear();
	}
	rung_compiled_clear(&kc);
	rung_source_clear(&src);
	return r;
}

static void num(char *buf, size_t len, const char *fmt, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt, v);
}

static void print_row(FILE *out, const rung_vrow *row, const rung_result *r, row_src src, const rung_result *base,
		      bool is_base)
{
	char steps[64], regs[32] = "-", med[32] = "-", delta[32] = "-", perf[32] = "-", date[32] = "";
	rung_result_steps_str(steps, sizeof(steps), r);
	if (r && r->compile.kernel.valid)
		snprintf(regs, sizeof(regs), "%d/%" PRId64, r->compile.kernel.regs,
			 r->compile.kernel.spill_stores + r->compile.kernel.spill_loads);
	if (r && r->bench.valid) {
		num(med, sizeof(med), "%.4g", r->bench.median);
		if (is_base)
			snprintf(delta, sizeof(delta), "base");
		else if (base && base->bench.valid) /* "202x +-0.7", as rung log and the workbench (core/stats.h) */
			rung_fmt_speedup_pm(delta, sizeof(delta), rung_speedup(r->bench.median, base->bench.median),
					    rung_ratio_noise(r->bench.rse_median, base->bench.rse_median), false);
		rung_result_perf(perf, sizeof(perf), r);
	}
	time_t t = (time_t)row->v.time;
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(date, sizeof(date), "%m-%d %H:%M", &tm);
	const char *verdict = row->has_note && row->note.verdict ? rung_note_verdict_name(row->note.verdict) : "";
	char subj[41];
	snprintf(subj, sizeof(subj), "%.40s", row->v.subject);
	fprintf(out, "%-8s %-11s %-28s %-8s %-9s %-12s %-14s %-8s %s\n", row->v.short_id, date,
		r ? steps : "not evaluated", regs, med, delta, perf, verdict, subj);
	const char *reason = r ? rung_result_reason(r) : "";
	if (reason[0])
		fprintf(out, "         FAILED %s\n", reason);
	if (src == SRC_RECORDED)
		fprintf(out, "         %s\n", r->recorded_note[0] ? r->recorded_note : "recorded on another machine");
}

static int show_task(FILE *out, const char *dir, const char *task, bool compile)
{
	rung_vctx_opts o = {.dir = dir, .task = task};
	rung_vctx c;
	int rc = rung_cli_vctx_open(&c, "demo", &o, RUNG_VCTX_TASK | RUNG_VCTX_STORE);
	if (rc)
		return rc;
	rung_vrow *rows;
	int n;
	if (rung_vctx_rows(&rows, &n, &c, NULL, 0) < 0) {
		fprintf(stderr, "rung demo: %s\n", rung_error_last());
		rung_vctx_close(&c);
		return RUNG_EXIT_INTERNAL;
	}
	/* each row's result and where it came from; recorded ones stay apart from live */
	rung_result **res = calloc((size_t)n + 1, sizeof(*res));
	row_src *src = calloc((size_t)n + 1, sizeof(*src));
	if (!res || !src) {
		free(res);
		free(src);
		rung_vrows_free(rows, n);
		rung_vctx_close(&c);
		return RUNG_EXIT_INTERNAL;
	}
	int nlive = 0, nrec = 0, ncomp = 0, nfail = 0;
	for (int i = 0; i < n; i++) {
		if (rows[i].result) {
			res[i] = rows[i].result;
			src[i] = SRC_LIVE;
			nlive++;
		} else if ((res[i] = rung_recorded_lookup(&c, &rows[i].v, rows[i].content))) {
			src[i] = SRC_RECORDED;
			nrec++;
		} else if (compile && (res[i] = compile_only(&c, &rows[i]))) {
			src[i] = SRC_COMPILED;
			ncomp++;
			nfail += res[i]->steps[RUNG_STEP_COMPILE].status == RUNG_S_FAILED;
		}
	}
	/* the baseline: its verdict, among results of the same kind (live or recorded) */
	int b = rung_vrows_baseline(rows, n);
	fprintf(out, "\n%s: %d version%s of %s, newest first\n", task, n, n == 1 ? "" : "s", c.task.kernel_path);
	fprintf(out, "%-8s %-11s %-28s %-8s %-9s %-12s %-14s %-8s %s\n", "VERSION", "DATE", "COMPILE RUN CHECK BENCH PROF",
		"REGS/SP", "MEDIAN_MS", "VS_BASE", "PERF", "VERDICT", "SUBJECT");
	for (int i = 0; i < n; i++) {
		const rung_result *base = b >= 0 && src[b] == src[i] ? res[b] : NULL;
		print_row(out, &rows[i], res[i], src[i], base, i == b);
	}
	if (nlive)
		fprintf(out, "%d version%s with live results from this machine's store.\n", nlive, nlive == 1 ? "" : "s");
	if (nrec)
		fprintf(out, "%d version%s with results recorded on another machine (not measured here).\n", nrec,
			nrec == 1 ? "" : "s");
	if (ncomp)
		fprintf(out,
			"%d version%s compiled now with NVRTC (%d failed); run, check and bench need a GPU: "
			"rung eval -C %s --task %s\n",
			ncomp, ncomp == 1 ? "" : "s", nfail, dir, task);
	for (int i = 0; i < n; i++)
		if (src[i] != SRC_LIVE && res[i]) {
			rung_result_clear(res[i]);
			free(res[i]);
		}
	free(res);
	free(src);
	rung_vrows_free(rows, n);
	rung_vctx_close(&c);
	return RUNG_EXIT_OK;
}

int rung_demo_show(FILE *out, const char *dir, const rung_demo_plan *p, bool compile)
{
	int rc = RUNG_EXIT_OK;
	for (int t = 0; t < p->ntasks; t++) {
		int r = show_task(out, dir, p->tasks[t], compile);
		if (r && !rc)
			rc = r;
		fflush(out);
	}
	return rc;
}

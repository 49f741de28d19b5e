/* rung eval [REV...|--all|--missing] [--jobs N] [--compile-only]
 * [--sanitize[=TOOLS]|--no-sanitize] [--stats] [-C DIR] [--task DIR] [--spec-rev REV]:
 * evaluate versions of the task and store their results. With no REV,
 * --missing. Progress goes to stderr (a bar with count, version and ETA on a
 * terminal, plain lines otherwise); one result line per version on stdout, in
 * commit order.
 *
 * --sanitize (or the spec's [check] sanitize) adds the sanitize rung, also to
 * versions already in the store (it is stored with their result); --missing
 * then also takes the versions whose stored result lacks it. A sanitize rung
 * SKIPPED (no compute-sanitizer) makes the exit code 4.
 *
 * After the versions, the fastest passing version of the task is sanitized
 * before it is recommended (app/sanitize_gate.h, rung_gate_batch): not with
 * --compile-only or --no-sanitize; a failure is a second line for that
 * version and exit 1; the best, sanitized or provisional, is said on stderr.
 *
 * Versions reach the GPU one at a time (one GPU, and timings must not share it),
 * but their compiles overlap: --jobs N (default: the cores + 1, at most 17) runs N-1 NVRTC compile threads
 * ahead of the version on the GPU (rung_evaler_run_all, app/pipeline.c);
 * --jobs 1 is strictly serial. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/timing.h"
#include "app/evaluate.h"
#include "cli/cli.h"
#include "app/pipeline.h"
#include "app/sanitize_gate.h"
#include "tui/theme.h"

typedef struct {
	int failed, cached, internal, sanitize_skipped;
	/* --stats */
	int noop, measured;
	int pooled_gpu; /* --workers: results from a worker with a GPU */
	double busy_ms;
	int64_t kernels;
} eval_tally;

/* One result line per version, in commit order (rung_evaler_run_all's callback). */
static void print_one(void *ud, int i, const rung_version *v, rung_result *r, int err)
{
	eval_tally *t = ud;
	(void)i;
	rung_cli_progress_clear();
	if (err < 0) {
		fprintf(stderr, "rung eval: %s: %s\n", v->short_id, rung_error_last());
		t->internal++;
		return;
	}
	rung_cli_print_result_line(v, r);
	t->pooled_gpu += r->worker[0] && r->env.valid;
	t->failed += rung_result_status(r) == RUNG_S_FAILED;
	t->cached += r->cached;
	t->sanitize_skipped += r->steps[RUNG_STEP_SANITIZE].status == RUNG_S_SKIPPED;
	t->noop += r->noop_of[0] != 0;
	/* a no-op version carries the earlier commit's result, its GPU figures
	 * included: counted once, where it ran */
	if (r->gpu_kernels > 0 && !r->cached && !r->noop_of[0]) {
		t->measured++;
		t->busy_ms += r->gpu_busy_ms;
		t->kernels += r->gpu_kernels;
	}
}

/* --stats: where the wall time of the batch went, on stdout after the result
 * lines. GPU busy is the sum of every kernel's duration in the worker's jobs
 * (CUPTI kernel records, rung's own kernels included), against the wall time
 * from the first compile to the last result. */
static void print_stats(const eval_tally *t, int nv, double wall_s, int jobs, bool gpu)
{
	printf("stats: %d version(s) in %.2f s wall (%d compile thread%s ahead); %d ran on the GPU, %d no-op, %d from "
	       "the store\n",
	       nv, wall_s, jobs > 1 ? jobs - 1 : 0, jobs == 2 ? "" : "s", t->measured, t->noop, t->cached);
	if (t->measured > 0)
		printf("stats: GPU busy %.3f s, %.1f %% of the wall time (%" PRId64 " kernels, CUPTI kernel records)\n",
		       t->busy_ms * 1e-3, wall_s > 0 ? 100 * t->busy_ms * 1e-3 / wall_s : 0.0, t->kernels);
	else
		printf("stats: GPU busy not measured (%s)\n",
		       !gpu ? "no GPU" : nv == t->noop + t->cached ? "nothing ran on the GPU" : "CUPTI absent");
}

typedef struct {
	bool all, missing, compile_only, stats;
	const char *workers;
	int jobs;
	rung_sanitize_sel sanitize;
	rung_vctx_opts where;
} eval_opts;

static const rung_opt_spec eval_specs[] = {
	{RUNG_OPT_BOOL(eval_opts, all), .name = "all", .help = "every version of the task"},
	{RUNG_OPT_BOOL(eval_opts, missing), .name = "missing",
	 .help = "every version without a stored result (the default with no REV)"},
	{RUNG_OPT_NUM(eval_opts, jobs, 1, 64), .name = "jobs", .value = "N",
	 .help = "versions in flight: N-1 compile threads ahead of the GPU (default: the cores + 1, at most 17)"},
	{RUNG_OPT_BOOL(eval_opts, compile_only), .name = "compile-only", .help = "the compile rung only (no GPU)"},
	{RUNG_OPT_STR(eval_opts, workers), .name = "workers", .value = "SPEC",
	 .help = "a pool of workers: local:N, local:0,1,3, ssh:HOST[,HOST], slurm:N[,partition=P][,gres=G]"},
	{RUNG_OPT_BOOL(eval_opts, stats), .name = "stats",
	 .help = "after the results: wall time, GPU busy time and share (CUPTI kernel records), no-op and stored counts"},
	{RUNG_OPT_SUBTABLE(eval_opts, sanitize, rung_sanitize_opt_specs)},
	{RUNG_OPT_SUBTABLE(eval_opts, where, rung_vctx_opt_specs)},
	{0}};
const rung_opt_table rung_opts_eval = {.cmd = "eval", .args = "[REV...]", .max_args = -1, .opts = eval_specs};

int rung_cmd_eval(int argc, char **argv)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	eval_opts eo = {.jobs = cores < 2 ? 3 : cores > 16 ? 17 : (int)cores + 1}; /* compiles ahead on every core */
	int prc, nrevs;
	if (rung_opts_parse(&prc, &rung_opts_eval, &eo, argc, argv, &nrevs))
		return prc;
	rung_vctx_opts o = eo.where;
	int each = nrevs ? -1 : rung_vctx_each_task(&o, argc, argv, rung_cmd_eval, true); /* every task at the root */
	if (each >= 0)
		return each;
	bool all = eo.all, missing = eo.missing, sanitize_set = eo.sanitize.set;
	unsigned flags = eo.compile_only ? RUNG_EVAL_COMPILE_ONLY : 0, sanitize = eo.sanitize.tools;
	int jobs = eo.jobs;
	const char **revs = calloc((size_t)argc, sizeof(char *));
	if (!revs)
		return RUNG_EXIT_INTERNAL;
	for (int i = 0; i < nrevs; i++)
		revs[i] = argv[1 + i];
	if ((all || missing) && nrevs) {
		fprintf(stderr, "rung eval: give REVs or --all/--missing, not both\n");
		free(revs);
		return RUNG_EXIT_USAGE;
	}
	if (!all && !nrevs)
		missing = true;
	if ((flags & RUNG_EVAL_COMPILE_ONLY) && sanitize_set && sanitize) {
		fprintf(stderr, "rung eval: --sanitize runs on the GPU; it cannot go with --compile-only\n");
		free(revs);
		return RUNG_EXIT_USAGE;
	}
	bool gate_pending = false;
	rung_vctx c;
	int rc = rung_cli_vctx_open(&c, "eval", &o, RUNG_VCTX_TASK | RUNG_VCTX_STORE);
	if (rc) {
		free(revs);
		return rc;
	}
	/* the versions to run */
	rung_version *vs = NULL;
	int nv = 0;
	if (nrevs) {
		vs = calloc((size_t)nrevs, sizeof(*vs));
		for (int i = 0; vs && i < nrevs; i++) {
			if (rung_version_at(&vs[nv], c.repo, revs[i], c.task.kernel_path) < 0) {
				fprintf(stderr, "rung eval: %s\n", rung_error_last());
				rc = RUNG_EXIT_USAGE;
				break;
			}
			nv++;
		}
	} else {
		rung_vrow *rows;
		int n;
		if (rung_vctx_rows(&rows, &n, &c, NULL, 0) < 0) {
			fprintf(stderr, "rung eval: %s\n", rung_error_last());
			rc = RUNG_EXIT_INTERNAL;
		} else {
			vs = calloc((size_t)n + 1, sizeof(*vs));
			/* a would-be best not sanitized yet: the gate has work even when nothing else does */
			rung_gate_pick gp0;
			rung_gate_pick_rows(&gp0, rows, n, rung_gate_tools(c.task.spec));
			gate_pending = gp0.candidate >= 0 && gp0.candidate_state == RUNG_GATE_NOT_SANITIZED;
			unsigned tools = flags & RUNG_EVAL_COMPILE_ONLY ? 0 : sanitize_set ? sanitize : c.task.spec->sanitize;
			for (int i = n - 1; vs && i >= 0; i--) /* oldest first */
				if (all || !rows[i].result || !rows[i].result->key[0] || /* not stored (a broken launch line) */
				    (tools && rows[i].result->steps[RUNG_STEP_COMPILE].status == RUNG_S_OK &&
				     !rung_sanitize_covers(rows[i].result, tools)))
					vs[nv++] = rows[i].v;
			rung_vrows_free(rows, n);
		}
	}
	free(revs);
	if (rc || !vs) {
		free(vs);
		rung_vctx_close(&c);
		return rc ? rc : RUNG_EXIT_INTERNAL;
	}
	if (nv == 0)
		printf("nothing to evaluate: every version has a stored result (use --all to run them again)\n");
	/* no version recommended before it passed the sanitizer (after the versions, below) */
	bool gate = !(flags & RUNG_EVAL_COMPILE_ONLY) && !(sanitize_set && !sanitize);
	char gwhy[128];
	bool gate_only = nv == 0 && gate && gate_pending && !rung_gate_unavailable(gwhy, sizeof(gwhy));
	rung_pool pool;
	bool pooled = false;
	rung_config cfg; /* workers = SPEC when --workers is not given */
	if (nv && !eo.workers && !(flags & RUNG_EVAL_COMPILE_ONLY)) {
		if (rung_config_read(&cfg) < 0) {
			fprintf(stderr, "rung eval: %s\n", rung_error_last());
			free(vs);
			rung_vctx_close(&c);
			return RUNG_EXIT_USAGE;
		}
		if (cfg.workers[0])
			eo.workers = cfg.workers;
	}
	if (nv && eo.workers && !(flags & RUNG_EVAL_COMPILE_ONLY)) {
		if (rung_pool_parse(&pool, eo.workers) < 0 || rung_pool_open(&pool) < 0) {
			fprintf(stderr, "rung eval: %s\n", rung_error_last());
			free(vs);
			rung_vctx_close(&c);
			return rung_error_last_code() == RUNG_EUSAGE ? RUNG_EXIT_USAGE : RUNG_EXIT_INTERNAL;
		}
		pooled = true;
	}
	rung_evaler ev;
	if ((nv || gate_only) && rung_evaler_open_pool(&ev, &c, flags, pooled ? &pool : NULL) < 0) {
		if (pooled)
			rung_pool_close(&pool);
		fprintf(stderr, "rung eval: %s\n", rung_error_last());
		free(vs);
		rung_vctx_close(&c);
		return RUNG_EXIT_INTERNAL;
	}
	rung_cli_bar bar = {.cmd = "eval", .index = -1, .last_step = -1};
	if (nv && !pooled && !ev.env.valid && !(flags & RUNG_EVAL_COMPILE_ONLY))
		fprintf(stderr, "rung eval: %s: GPU rungs will be SKIPPED and results not stored\n", ev.no_gpu);
	if (nv || gate_only) {
		ev.opts.sanitize_set = sanitize_set;
		ev.opts.sanitize = sanitize;
		ev.progress = rung_cli_eval_progress;
		ev.progress_ud = &bar;
		if (eo.stats)
			ev.opts.job_flags |= RUNG_JOB_STATS;
	}
	eval_tally tally = {0};
	double t0 = rung_now_s();
	if (nv && rung_evaler_run_all(&ev, vs, nv, jobs, print_one, &tally) < 0) {
		fprintf(stderr, "rung eval: %s\n", rung_error_last());
		rc = RUNG_EXIT_INTERNAL;
	}
	if (nv && eo.stats)
		print_stats(&tally, nv, rung_now_s() - t0, jobs, ev.env.valid || tally.pooled_gpu);
	/* no version recommended before it passed the sanitizer: the would-be best
	 * is sanitized now (once per machine code; --no-sanitize leaves it) */
	int gate_failed = 0;
	if (!rc && gate && (nv || gate_only) && rung_cli_gate_batch(&ev, "eval", eo.stats, &gate_failed) < 0)
		rc = RUNG_EXIT_INTERNAL;
	tally.failed += gate_failed;
	if (pooled && eo.stats) {
		rung_pool_status st[RUNG_POOL_MAX];
		int np = rung_pool_status_get(&pool, st, RUNG_POOL_MAX);
		for (int k = 0; k < np; k++) {
			char wait[96] = "";
			if (st[k].sharers > 0) /* one GPU, one job at a time (app/pool.h) */
				snprintf(wait, sizeof(wait), ", waited %.2f s for its GPU (shared with %d other worker%s)",
					 st[k].wait_s, st[k].sharers, st[k].sharers == 1 ? "" : "s");
			printf("stats: worker %s: %d job(s), %d failed, %d lost, busy %.2f s%s%s%s%s%s%s\n", st[k].label,
			       st[k].done, st[k].failed, st[k].lost, st[k].busy_s, wait, st[k].gpu[0] ? ", on " : "",
			       st[k].gpu, st[k].retired ? ", retired" : "", st[k].retired_why[0] ? ": " : "",
			       st[k].retired_why);
		}
	}
	bool gpu_ok = pooled ? tally.pooled_gpu > 0 : ev.env.valid;
	if (tally.internal)
		rc = RUNG_EXIT_INTERNAL;
	int failed = tally.failed, cached = tally.cached;
	if (nv) {
		fprintf(stderr, "rung eval: %d version(s), %d from the store, %d failed%s\n", nv, cached, failed,
			gpu_ok || (flags & RUNG_EVAL_COMPILE_ONLY) ? "" : "; no GPU: nothing stored");
		if (!rc && !gpu_ok && !(flags & RUNG_EVAL_COMPILE_ONLY))
			rc = RUNG_EXIT_NOGPU;
		rung_evaler_close(&ev);
		if (pooled)
			rung_pool_close(&pool);
	} else if (gate_only) {
		rung_evaler_close(&ev);
	}
	if (!rc && failed)
		rc = RUNG_EXIT_FAIL;
	if (!rc && tally.sanitize_skipped) /* asked for and not run: never a silent pass */
		rc = RUNG_EXIT_NOGPU;
	free(vs);
	rung_vctx_close(&c);
	return rc;
}

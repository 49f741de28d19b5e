/* One job inside the worker: load modules, check launch geometry against the
 * device, then for each case (gpu/worker/case.c): generate inputs, run the
 * reference into its own buffers, run the candidate on guarded and poisoned
 * buffers, and check guards, inputs, unwritten outputs and metrics. The run rung
 * is the first case (benchmark shape, the run's first seed); the check rung adds
 * every [check] size set with every seed. The benchmark shape, the expensive one,
 * is checked with the first seed only (docs/CHECKS.md). RUNG_TIMING=1 prints the
 * time per phase to stderr after each job. */
#include <inttypes.h>
#include <string.h>

#include "core/guard.h"
#include "core/rng.h"
#include "core/timing.h"
#include "gpu/cupti.h"
#include "gpu/worker/bench.h"
#include "gpu/worker/bset.h"
#include "gpu/worker/case.h"
#include "gpu/worker/job.h"
#include "gpu/worker/launch.h"
#include "gpu/worker/profile.h"
#include "gpu/worker/report.h"
#include "gpu/worker/sass.h"
#include "gpu/worker/trace.h"
#include "gpu/worker/verify.h"

void rung__wjob_run(rung_wctx *c, const rung_plan *p, const void *kcubin, size_t kcubin_len, const void *rcubin,
		    size_t rcubin_len, rung_result *res, bool *fatal)
{
	rung_wjob j;
	memset(&j, 0, sizeof(j));
	j.c = c;
	j.p = p;
	j.res = res;
	j.kcubin = kcubin;
	j.kcubin_len = kcubin_len;
	/* poison and guard bands a kernel cannot know in advance (core/guard.h) */
	rung_poison_key_set(rung__nonce());
	j.band_key = rung__nonce() | 1;
	rung_special_mask_set(p->special); /* what [check] inputs = special draws */
	char reason[1024];
	res->run_dims = p->shapes[p->nshapes - 1].dims;
	res->nshapes = p->nshapes;
	res->nseeds = p->nseeds;
	if (p->ndists > 1) { /* normal only: left 0, as before [check] inputs */
		res->ninputs = p->ndists;
		memcpy(res->inputs, p->dists, sizeof(res->inputs));
	}
	rung_cu.cuCtxSetCurrent(c->ctx);
	/* --stats: every kernel of the job counted (profiling runs never ask) */
	bool stats = (p->flags & RUNG_JOB_STATS) && !(p->flags & RUNG_JOB_PROFILE) && rung_cupti_available() &&
		     rung_cupti_busy_on() == 0;

	double tm = rung_now_s();
	rung__wstep(res, RUNG_STEP_RUN, RUNG_S_RUNNING, NULL);
	rung__wprogress(c, RUNG_STEP_RUN, 0, "loading modules");
	if (rung__load_fn(&j, kcubin, kcubin_len, &p->kernel, &j.kmod, &j.kfn, &j.kstatic_smem, reason, sizeof(reason))) {
		rung__wstep(res, RUNG_STEP_RUN, RUNG_S_FAILED, "%s", reason);
		goto out;
	}
	if (p->has_ref && rung__load_fn(&j, rcubin, rcubin_len, &p->ref, &j.rmod, &j.rfn, &j.rstatic_smem, reason, sizeof(reason))) {
		j.ref_failed = true;
		rung__wstep(res, RUNG_STEP_RUN, RUNG_S_FAILED, "reference failed: %s", reason);
		goto out;
	}
	if (rung__check_geometry(&j, j.kfn, j.kstatic_smem, false, p->kernel.name, reason, sizeof(reason))) {
		rung__wstep(res, RUNG_STEP_RUN, RUNG_S_FAILED, "%s", reason);
		goto out;
	}
	if (p->has_ref && rung__check_geometry(&j, j.rfn, j.rstatic_smem, true, p->ref.name, reason, sizeof(reason))) {
		j.ref_failed = true;
		rung__wstep(res, RUNG_STEP_RUN, RUNG_S_FAILED, "reference failed: %s", reason);
		goto out;
	}

	if (rung__scratch_ready(&j, p, reason, sizeof(reason))) {
		rung__wstep(res, RUNG_STEP_RUN, RUNG_S_FAILED, "%s", reason);
		goto out;
	}

	rung_timing_lap("load modules + geometry", tm);

	/* run: benchmark shape, first seed */
	int bench = p->nshapes - 1;
	char dims[256];
	rung_dimset_format(dims, sizeof(dims), &p->shapes[bench].dims);
	rung__wprogress(c, RUNG_STEP_RUN, 0, "%s seed 1/%d", dims, p->nseeds);
	rung_case_outcome o = rung__run_case(&j, bench, 0, RUNG_DIST_NORMAL, true, reason, sizeof(reason));
	if (o == RUNG_CASE_FAULT) {
		rung__wstep(res, RUNG_STEP_RUN, RUNG_S_FAILED, "%s", reason);
		goto out;
	}
	rung__wstep(res, RUNG_STEP_RUN, RUNG_S_OK, NULL);
	rung_timing_rss("run case done");

	/* check: every [check] size set x every seed, plus the run case (the
	 * benchmark shape with the first seed only: it is the expensive one), then
	 * each further [check] inputs distribution on every size set with the
	 * first seed (rung_plan_cases, docs/CHECKS.md) */
	char first_fail[1024] = "";
	if (o == RUNG_CASE_WRONG)
		rung__sfmt(first_fail, sizeof(first_fail), "%s", reason);
	rung__wstep(res, RUNG_STEP_CHECK, RUNG_S_RUNNING, NULL);
	static rung_plan_case cases[RUNG_PLAN_MAX_CASES];
	int total = rung_plan_cases(p, cases, RUNG_PLAN_MAX_CASES);
	for (int n = 1; n < total && !j.fatal; n++) {
		const rung_plan_case *cs = &cases[n];
		rung_dimset_format(dims, sizeof(dims), &p->shapes[cs->shape].dims);
		if (cs->dist == RUNG_DIST_NORMAL)
			rung__wprogress(c, RUNG_STEP_CHECK, (double)n / total, "%s seed %d/%d", dims, cs->seed + 1, p->nseeds);
		else
			rung__wprogress(c, RUNG_STEP_CHECK, (double)n / total, "%s %s seed 1/1", dims, rung_dist_name(cs->dist));
		o = rung__run_case(&j, cs->shape, cs->seed, cs->dist, false, reason, sizeof(reason));
		if (o == RUNG_CASE_FAULT) {
			rung__wstep(res, RUNG_STEP_CHECK, RUNG_S_FAILED, "%s", reason);
			goto out;
		}
		if (o == RUNG_CASE_WRONG && !first_fail[0])
			rung__sfmt(first_fail, sizeof(first_fail), "%s", reason);
	}
	/* Each declared distribution once at the benchmark shape as well (seed 1, no
	 * metric row: the stored rows and run counts stay those of the plan's cases),
	 * so a path the kernel takes only at the bench shape sees those data too. Not
	 * the default wide (its cost on a large GEMM), not where the bench shape is
	 * the only shape (the plan's cases ran it). */
	for (int d = 1; d < p->ndists && bench > 0 && !p->inputs_default && !first_fail[0] && !j.fatal; d++) {
		rung_dimset_format(dims, sizeof(dims), &p->shapes[bench].dims);
		rung__wprogress(c, RUNG_STEP_CHECK, 1.0, "%s %s seed 1/1", dims, rung_dist_name(p->dists[d]));
		j.no_rows = true;
		o = rung__run_case(&j, bench, 0, p->dists[d], false, reason, sizeof(reason));
		j.no_rows = false;
		if (o == RUNG_CASE_FAULT) {
			rung__wstep(res, RUNG_STEP_CHECK, RUNG_S_FAILED, "%s", reason);
			goto out;
		}
		if (o == RUNG_CASE_WRONG)
			rung__sfmt(first_fail, sizeof(first_fail), "%s", reason);
	}
	if (first_fail[0]) {
		rung__wstep(res, RUNG_STEP_CHECK, RUNG_S_FAILED, "%s", first_fail);
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_SKIPPED, "check failed");
		goto out;
	}
	/* The run case once more on the same inputs, other poison and shared
	 * memory: two runs must agree bit for bit (uninitialized reads, races). */
	reason[0] = 0;
	/* not in the sanitize rung's run at the benchmark shape: one sanitized
	 * launch is what it is for (gpu/sanitize.c) */
	bool sanitize_bench = (p->flags & RUNG_JOB_SANITIZE) && (p->flags & RUNG_JOB_SANITIZE_BENCH);
	int det = sanitize_bench ? 0 : rung__determinism(&j, reason, sizeof(reason));
	if (det != 0) {
		rung__wstep(res, RUNG_STEP_CHECK, RUNG_S_FAILED, "%s", reason);
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_SKIPPED, "check failed");
		goto out;
	}
	if (res->nondet_elements > 0)
		rung_result_add_suspect(res, RUNG_SUSPECT_NONDETERMINISTIC,
					"two runs on the same inputs differ in %" PRId64 " elements (max |diff| %.3g); declared deterministic = false",
					res->nondet_elements, res->nondet_max_abs);
	rung__wstep(res, RUNG_STEP_CHECK, RUNG_S_OK, NULL);
	rung_timing_rss("check cases done");

	if (p->flags & RUNG_JOB_TRACE) { /* rung.h trace: one launch, never timed */
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_SKIPPED, "trace run (never timed)");
		rung__wtrace(&j);
		goto out;
	}
	if (p->flags & RUNG_JOB_PROFILE) { /* counters only: never timed in the same run */
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_SKIPPED, "profile run (never timed)");
		if (p->flags & RUNG_JOB_SASS)
			rung__wsass(&j);
		else if (p->flags & RUNG_JOB_STALLS)
			rung__wstall(&j);
		else
			rung__wprofile(&j);
		goto out;
	}
	if (p->flags & RUNG_JOB_NO_BENCH) {
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_SKIPPED, "not requested");
		goto out;
	}
	rung__wbench(&j);
out:
	if (j.ref_failed) /* the rung that failed on it: typed, beside its reason */
		for (int s = RUNG_STEP_RUN; s < RUNG_NSTEPS; s++)
			if (res->steps[s].status == RUNG_S_FAILED)
				res->steps[s].cause = RUNG_CAUSE_REFERENCE;
	if (stats) {
		if (!j.fatal)
			rung_cu.cuCtxSynchronize();
		double ns;
		int64_t nk;
		rung_cupti_busy_take(&ns, &nk);
		rung_cupti_busy_off();
		if (nk > 0) {
			res->gpu_busy_ms = ns * 1e-6;
			res->gpu_kernels = nk;
		}
	}
	rung__bset_clear(&j);
	rung__keep_clear(&j);
	rung__scratch_release(!j.fatal);
	if (!j.fatal) {
		if (j.kmod)
			rung_cu.cuModuleUnload(j.kmod);
		if (j.rmod)
			rung_cu.cuModuleUnload(j.rmod);
	}
	*fatal = j.fatal;
	rung_timing_flush("worker");
}

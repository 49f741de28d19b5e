/* One job inside the worker: load modules, check launch geometry against the
 * device, then for each case (gpu/worker_case.c): generate inputs, run the
 * reference into its own buffers, run the candidate on guarded and poisoned
 * buffers, and check guards, inputs, unwritten outputs and metrics. The run rung
 * is the first case (benchmark shape, the run's first seed); the check rung adds
 * every [check] size set with every seed. The benchmark shape, the expensive one,
 * is checked with the first seed only (docs/CHECKS.md). RUNG_TIMING=1 prints the
 * time per phase to stderr after each job. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/guard.h"
#include "core/half.h"
#include "core/metrics.h"
#include "core/npy.h"
#include "core/rng.h"
#include "core/timing.h"
#include "gpu/worker/case.h"

static void fmt_bytes(char *buf, size_t len, double b)
{
	if (b >= 1024.0 * 1024 * 1024)
		rung__sfmt(buf, len, "%.1f GiB", b / (1024.0 * 1024 * 1024));
	else if (b >= 1024.0 * 1024)
		rung__sfmt(buf, len, "%.1f MiB", b / (1024.0 * 1024));
	else
		rung__sfmt(buf, len, "%.0f bytes", b);
}

void rung__describe_fault(char *buf, size_t len, CUresult r, const char *what)
{
	char d[256];
	rung_cu_describe(d, sizeof(d), r);
	rung__sfmt(buf, len, "%s in %s", d, what);
}

CUresult rung__launch(rung_wctx *c, CUfunction f, const rung_geom *g, void **params)
{
	return rung_cu.cuLaunchKernel(f, (unsigned)g->grid[0], (unsigned)g->grid[1], (unsigned)g->grid[2],
				      (unsigned)g->block[0], (unsigned)g->block[1], (unsigned)g->block[2],
				      (unsigned)g->smem, c->stream, params, NULL);
}

void rung__scalar_param(rung_kparam *kp, const rung_plan *p, const rung_plan_shape *sh, int i)
{
	memset(kp, 0, sizeof(*kp));
	switch (p->args[i].dtype) {
	case RUNG_DT_F64: kp->f64 = sh->fval[i]; break;
	case RUNG_DT_F32: kp->f32 = (float)sh->fval[i]; break;
	case RUNG_DT_F16: kp->h16 = rung_f64_to_f16(sh->fval[i]); break;
	case RUNG_DT_BF16: kp->h16 = rung_f64_to_bf16(sh->fval[i]); break;
	case RUNG_DT_I64: kp->i64 = sh->ival[i]; break;
	case RUNG_DT_I32: kp->i32 = (int32_t)sh->ival[i]; break;
	case RUNG_DT_U8: kp->u8 = (uint8_t)sh->ival[i]; break;
	default: break;
	}
}

void *rung__make_input(const rung_plan *p, const rung_plan_shape *sh, int i, uint64_t seed, char *reason, size_t rlen)
{
	const rung_plan_arg *a = &p->args[i];
	size_t es = rung_dtype_size(a->dtype);
	int64_t n = sh->numel[i];
	if (a->init == RUNG_INIT_NPY) {
		rung_npy arr;
		if (rung_npy_load(&arr, a->npy) ||
		    rung_npy_expect(&arr, a->npy, a->name, a->dtype, sh->rank[i], sh->extent[i])) {
			rung__sfmt(reason, rlen, "%s", rung_error_last());
			rung_npy_free(&arr);
			return NULL;
		}
		void *d = arr.data;
		arr.data = NULL;
		rung_npy_free(&arr);
		return d;
	}
	void *buf = malloc((size_t)n * es + 1);
	if (!buf) {
		char b[32];
		fmt_bytes(b, sizeof(b), (double)n * (double)es);
		rung__sfmt(reason, rlen, "out of host memory for input %s (%s)", a->name, b);
		return NULL;
	}
	if (rung_fill_par(buf, a->dtype, 0, n, a->init, a->a, a->b, seed, a->name)) {
		rung__sfmt(reason, rlen, "input %s: %s", a->name, rung_error_last());
		free(buf);
		return NULL;
	}
	return buf;
}

/* --- geometry and modules ---------------------------------------------------- */

int rung__load_fn(rung_wjob *j, const void *img, size_t len, const rung_plan_kernel *kn, CUmodule *mod,
		   CUfunction *fn, int *static_smem, char *reason, size_t rlen)
{
	(void)len;
	char d[256];
	CUresult r = rung_cu.cuModuleLoadData(mod, img);
	if (r != CUDA_SUCCESS) {
		rung_cu_describe(d, sizeof(d), r);
		rung__sfmt(reason, rlen, "cannot load the CUBIN of %s: %s", kn->file, d);
		j->fatal = rung_cu_is_sticky(r);
		return 1;
	}
	r = rung_cu.cuModuleGetFunction(fn, *mod, kn->lowered);
	if (r != CUDA_SUCCESS) {
		rung_cu_describe(d, sizeof(d), r);
		rung__sfmt(reason, rlen, "entry '%s' (%s) not found in the CUBIN of %s: %s", kn->name, kn->lowered, kn->file, d);
		return 1;
	}
	*static_smem = 0;
	rung_cu.cuFuncGetAttribute(static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, *fn);
	return 0;
}

/* Checks every shape's geometry against the device and the function, and opts in
 * to more than 48 KiB of dynamic shared memory when needed. */
int rung__check_geometry(rung_wjob *j, CUfunction fn, int static_smem, bool ref, const char *name, char *reason,
			  size_t rlen)
{
	const rung_plan *p = j->p;
	rung_wctx *c = j->c;
	int fn_threads = 0, regs = 0;
	rung_cu.cuFuncGetAttribute(&fn_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn);
	rung_cu.cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
	int64_t max_dyn = 0;
	for (int s = 0; s < p->nshapes; s++) {
		const rung_geom *g = ref ? &p->shapes[s].ref_geom : &p->shapes[s].geom;
		char dims[256] = "";
		if (!p->shapes[s].bench) {
			char ds[240];
			rung_dimset_format(ds, sizeof(ds), &p->shapes[s].dims);
			rung__sfmt(dims, sizeof(dims), " at %s", ds);
		}
		int64_t threads = g->block[0] * g->block[1] * g->block[2];
		if (c->max_block_threads > 0 && threads > c->max_block_threads) {
			rung__sfmt(reason, rlen, "bad launch geometry for %s: block (%" PRId64 ",%" PRId64 ",%" PRId64 ") is %" PRId64
				 " threads, the device allows %d%s",
				 name, g->block[0], g->block[1], g->block[2], threads, c->max_block_threads, dims);
			return 1;
		}
		if (fn_threads > 0 && threads > fn_threads) {
			rung__sfmt(reason, rlen, "bad launch geometry for %s: block of %" PRId64 " threads, but the kernel can launch at most %d (__launch_bounds__, or %d registers per thread)%s",
				 name, threads, fn_threads, regs, dims);
			return 1;
		}
		if (c->smem_optin > 0 && g->smem + static_smem > c->smem_optin) {
			rung__sfmt(reason, rlen, "bad launch geometry for %s: smem %" PRId64 " bytes dynamic + %d static exceeds the device's %d bytes per block%s",
				 name, g->smem, static_smem, c->smem_optin, dims);
			return 1;
		}
		if (g->smem > max_dyn)
			max_dyn = g->smem;
	}
	if (max_dyn + static_smem > 48 * 1024) {
		CUresult r = rung_cu.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)max_dyn);
		if (r != CUDA_SUCCESS) {
			char d[200];
			rung_cu_describe(d, sizeof(d), r);
			rung__sfmt(reason, rlen, "bad launch geometry for %s: cannot allow %" PRId64 " bytes of dynamic shared memory: %s",
				 name, max_dyn, d);
			return 1;
		}
	}
	return 0;
}

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
	char reason[1024];
	res->run_dims = p->shapes[p->nshapes - 1].dims;
	res->nshapes = p->nshapes;
	res->nseeds = p->nseeds;
	if (p->ndists > 1) { /* normal only: left 0, as before [check] inputs */
		res->ninputs = p->ndists;
		memcpy(res->inputs, p->dists, sizeof(res->inputs));
	}
	rung_cu.cuCtxSetCurrent(c->ctx);

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
	if (first_fail[0]) {
		rung__wstep(res, RUNG_STEP_CHECK, RUNG_S_FAILED, "%s", first_fail);
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_SKIPPED, "check failed");
		goto out;
	}
	/* The run case once more on the same inputs, other poison and shared
	 * memory: two runs must agree bit for bit (uninitialized reads, races). */
	reason[0] = 0;
	int det = rung__determinism(&j, reason, sizeof(reason));
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
	rung__bset_free(&j);
	rung__keep_free(&j);
	if (!j.fatal) {
		if (j.kmod)
			rung_cu.cuModuleUnload(j.kmod);
		if (j.rmod)
			rung_cu.cuModuleUnload(j.rmod);
	}
	*fatal = j.fatal;
	rung_timing_flush("worker");
}

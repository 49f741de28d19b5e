/* The bench rung inside the worker, at the benchmark shape, and the check
 * rung's second run of the run case (rung__determinism, gpu/worker/bench.h):
 *  - timed is verified (docs/CHECKS.md, "What the bench guarantees"): the
 *    candidate's module is loaded again before the bench (no __device__ state
 *    carries over from the check), every launch, warm-up and timed, runs on
 *    outputs poisoned again before it, on one of two input sets chosen at
 *    random (gpu/worker/bset.c: set 1 differs from the run case's set 0 in
 *    about one element of 64, at positions the kernel cannot know), and after
 *    it rung's own kernels (gpu/kernels/verify.cu) compare its outputs with the reference's for that
 *    set with the check's tolerance, its inputs bit for bit with the set, and
 *    its guard bands, outside the timed window and before the next sample. One
 *    difference fails the bench rung;
 *  - warm-up launches: at least 3 and 50 ms, or 1 and 20 ms when the run case
 *    has just launched the kernel at this shape in this job (module loaded,
 *    clocks up), none when that launch took LONG_MS or more;
 *  - before every sample, an L2 flush that leaves L2 clean: a read sweep over a
 *    zeroed scratch buffer of twice the L2 size (gpu/worker/flush.c says why
 *    not a memset; persisting L2 is left at 0);
 *  - the primary figure is CUPTI's activity record of the kernel (end - start on
 *    the GPU), which is the kernel's own duration: launch overhead and the flush
 *    are outside it by construction. CUDA events around the launch are the
 *    cross-check (event_median), and the fallback when CUPTI is absent;
 *  - samples in batches; the SM clock (NVML) is read while each batch runs and a
 *    batch under 75% of the max clock is dropped and counted;
 *  - adaptive stop: at least 10 samples (5 for a kernel of LONG_MS or more,
 *    whose samples are each a 5 ms+ window: #31, the one-shot verdict), then
 *    stop when the relative standard error of the median is <= 0.5% or the
 *    budget is spent;
 *  - the other processes on the device (NVML) are listed before and after the
 *    timed loop into bench.shared: a timing taken beside them is marked. */
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "core/guard.h"
#include "core/guard_hd.h"
#include "core/stats.h"
#include "core/timing.h"
#include "gpu/cupti.h"
#include "gpu/cupti_prof.h"
#include "gpu/rung_h.h"
#include "gpu/worker/bench.h"
#include "gpu/worker/bset.h"
#include "gpu/worker/calib.h"
#include "gpu/worker/devcheck.h"
#include "gpu/worker/flush.h"
#include "gpu/worker/input.h"
#include "gpu/worker/launch.h"
#include "gpu/worker/report.h"
#include "gpu/worker/stage.h"
#include "gpu/worker/verify.h"

#define MIN_SAMPLES 10
#define MIN_SAMPLES_LONG 5
#define LONG_MS 5.0 /* a kernel this long: no warm-up after the run case (else 1 launch), MIN_SAMPLES_LONG */
#define MAX_SAMPLES 5000
#define MAX_BATCH 16
#define RSE_TARGET 0.005

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median_of(double *v, int n)
{
	if (n < 1)
		return NAN;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* --- one verified launch -------------------------------------------------------- */

/* Device memory for the checks of one launch: a stat per argument, then a
 * guard-band count per argument. */
typedef struct {
	rung_vstat vs[RUNG_MAX_ARGS];
	uint64_t bands[RUNG_MAX_ARGS];
} vslot;

static CUdeviceptr trace_ptr; /* rung.h's __rung_trace in the reloaded module, or 0 */
static size_t trace_bytes;

/* Before a launch on set x: the set's inputs into the candidate's buffers where
 * they hold another set's (inouts always: the kernel changed them), outputs
 * poisoned with `variant`. *cur is the set the input buffers hold. */
static CUresult before_launch(rung_wjob *j, rung_dbuf *cand, const rung_plan_shape *sh, int x, int *cur,
			      int variant)
{
	const rung_plan *p = j->p;
	const rung_bset *b = &j->bset;
	CUstream st = j->c->stream;
	CUresult r = trace_ptr ? rung_cu.cuMemsetD8Async(trace_ptr, 0, trace_bytes, st) : CUDA_SUCCESS;
	if (r == CUDA_SUCCESS) /* scratch zeroed for each launch, before the L2 flush and the start event */
		r = rung__scratch_zero(st);
	for (int i = 0; i < p->nargs && r == CUDA_SUCCESS; i++) {
		const rung_plan_arg *a = &p->args[i];
		size_t bytes = (size_t)sh->numel[i] * rung_dtype_size(a->dtype);
		if (rung__has_input(a) && (a->kind == RUNG_ARG_INOUT || x != *cur) && b->in[x][i])
			r = rung_cu.cuMemcpyDtoDAsync(cand[i].ptr, b->in[x][i], bytes, st);
		else if (a->kind == RUNG_ARG_OUTPUT)
			r = rung__poison_async(st, cand[i].ptr, a->dtype, sh->numel[i], variant);
	}
	*cur = x;
	return r;
}

/* After a launch on set x: outputs against the reference's for x, inputs bit
 * for bit against x's, guard bands; into slot (device). */
static CUresult after_launch(rung_wjob *j, const rung_dbuf *cand, const rung_plan_shape *sh, int x, int variant,
			     CUdeviceptr slot)
{
	const rung_plan *p = j->p;
	const rung_bset *b = &j->bset;
	CUstream st = j->c->stream;
	CUresult r = CUDA_SUCCESS;
	for (int i = 0; i < p->nargs && r == CUDA_SUCCESS; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (a->kind == RUNG_ARG_SCALAR)
			continue;
		CUdeviceptr vs = slot + offsetof(vslot, vs) + (size_t)i * sizeof(rung_vstat);
		if (rung__is_out(a) && b->out[x][i].ptr) {
			rung_check_opts o;
			rung__plan_check_opts(&o, p, a->dtype);
			double atol = o.atol_scaled ? o.atol * b->peak[x][i] : o.atol;
			r = rung__verify(j->c, st, cand[i].ptr, b->out[x][i].ptr, sh->numel[i], a->dtype, atol, o.rtol,
					 a->kind == RUNG_ARG_OUTPUT, variant, false, vs);
		} else if (a->kind == RUNG_ARG_INPUT && b->in[x][i]) {
			r = rung__verify(j->c, st, cand[i].ptr, b->in[x][i], sh->numel[i], a->dtype, 0, 0, false, 0, true,
					 vs);
		}
		if (r == CUDA_SUCCESS)
			r = rung__bands(j->c, st, &cand[i], slot + offsetof(vslot, bands) + (size_t)i * sizeof(uint64_t));
	}
	return r;
}

/* Judges one launch's slot. 0 when it matches; 1 with reason. `what` names the
 * launch ("timed launch 7"). */
static int judge(rung_wjob *j, const vslot *v, const rung_plan_shape *sh, int x, const char *what, char *reason,
		 size_t rlen)
{
	const rung_plan *p = j->p;
	for (int i = 0; i < p->nargs; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (a->kind == RUNG_ARG_SCALAR)
			continue;
		const rung_vstat *s = &v->vs[i];
		char at[160] = "";
		int64_t first = rung__vstat_first(s);
		if (first >= 0) {
			int64_t coord[RUNG_MAX_RANK];
			int rank = rung_unflatten(coord, first, sh->rank[i], sh->extent[i], sh->numel[i]);
			char cs[128];
			rung_fmt_coord(cs, sizeof(cs), coord, rank);
			rung__sfmt(at, sizeof(at), ", first at %s", cs);
		}
		if (v->bands[i]) {
			rung__sfmt(reason, rlen, "%s wrote outside %s (%" PRIu64 " bytes of its guard bands changed): the kernel behaves differently when timed",
				   what, a->name, v->bands[i]);
			return 1;
		}
		if (a->kind == RUNG_ARG_INPUT && s->mismatches) {
			rung__sfmt(reason, rlen, "%s changed input %s (%" PRIu64 " elements%s): the kernel behaves differently when timed",
				   what, a->name, s->mismatches, at);
			return 1;
		}
		if (!rung__is_out(a))
			continue;
		if (s->mismatches) {
			rung__sfmt(reason, rlen, "the output of %s differs from the checked output (%" PRIu64 " elements of %s%s%s, input set %d): the kernel behaves differently when timed",
				   what, s->mismatches, a->name, s->unwritten ? " unwritten or wrong" : "", at, x + 1);
			return 1;
		}
		rung_check_opts o;
		rung__plan_check_opts(&o, p, a->dtype);
		double peak = j->bset.peak[x][i];
		if (o.has_min_psnr && s->nfinite > 0) {
			double mse = s->sq / (double)s->nfinite;
			double psnr = mse == 0 ? INFINITY : 10.0 * log10(peak * peak / mse);
			if (!(psnr >= o.min_psnr)) {
				rung__sfmt(reason, rlen, "the output of %s differs from the checked output (psnr %.1fdB < %gdB in %s, input set %d): the kernel behaves differently when timed",
					   what, psnr, o.min_psnr, a->name, x + 1);
				return 1;
			}
		}
		if (o.has_min_cossim && s->nfinite > 0) {
			double cs = s->gg == 0 && s->rr == 0 ? 1.0 : s->gg == 0 || s->rr == 0 ? 0.0 : s->dot / (sqrt(s->gg) * sqrt(s->rr));
			if (!(cs >= o.min_cossim)) {
				rung__sfmt(reason, rlen, "the output of %s differs from the checked output (cossim %.6f < %g in %s, input set %d): the kernel behaves differently when timed",
					   what, cs, o.min_cossim, a->name, x + 1);
				return 1;
			}
		}
	}
	return 0;
}

/* --- the expected outputs, hashed before and after the bench ------------------- */

/* One hash of every expected output of every set (the chunk hashes of
 * rung__dev_hash, summed with their position mixed in) into h[set][arg]; 0 when
 * the device check is off (nothing compared). A kernel that writes far outside
 * its buffers could change them and then agree with them. */
static CUresult expected_hashes(rung_wjob *j, const rung_plan_shape *sh, uint64_t h[RUNG_BENCH_SETS][RUNG_MAX_ARGS])
{
	const rung_plan *p = j->p;
	memset(h, 0, sizeof(uint64_t) * RUNG_BENCH_SETS * RUNG_MAX_ARGS);
	if (!rung__devcheck_on(j->c))
		return CUDA_SUCCESS;
	CUresult r = CUDA_SUCCESS;
	for (int x = 0; x < j->bset.nsets && r == CUDA_SUCCESS; x++) {
		for (int i = 0; i < p->nargs && r == CUDA_SUCCESS; i++) {
			if (!rung__is_out(&p->args[i]) || !j->bset.out[x][i].ptr)
				continue;
			int64_t n = sh->numel[i], nc = rung__nchunks(n);
			uint64_t *ch = malloc((size_t)(nc > 0 ? nc : 1) * sizeof(uint64_t));
			if (!ch)
				return CUDA_ERROR_OUT_OF_MEMORY;
			r = rung__dev_hash(j->c->stream, j->bset.out[x][i].ptr, n, rung_dtype_size(p->args[i].dtype), ch);
			uint64_t acc = 1;
			for (int64_t k = 0; k < nc && r == CUDA_SUCCESS; k++)
				acc += ch[k] * (2 * (uint64_t)k + 1) + ((uint64_t)k << 32);
			h[x][i] = acc;
			free(ch);
		}
	}
	return r;
}

/* --- the check rung's second run -------------------------------------------- */

/* The run case once more on the kept buffers: inouts get their inputs again,
 * outputs the poison `variant`, every buffer guard bands of key `band`, every
 * SM's shared memory the word `smem`; after the launch each output bit for bit
 * against against[i] (into v->vs, the poison left counted as unwritten) and
 * every buffer's bands (v->bands). 0, or -1 with reason (a fault). */
static int rerun(rung_wjob *j, int variant, uint64_t band, uint32_t smem, const CUdeviceptr *against,
		 CUdeviceptr slot, vslot *v, char *reason, size_t rlen)
{
	const rung_plan *p = j->p;
	const rung_plan_shape *sh = &p->shapes[p->nshapes - 1];
	rung_wctx *c = j->c;
	char why[512];
	rung_kparam kp[RUNG_MAX_ARGS];
	void *params[RUNG_MAX_ARGS];
	CUresult r = CUDA_SUCCESS;
	for (int i = 0; i < p->nargs && r == CUDA_SUCCESS; i++) {
		const rung_plan_arg *a = &p->args[i];
		memset(&kp[i], 0, sizeof(kp[i]));
		params[i] = &kp[i];
		if (a->kind == RUNG_ARG_SCALAR) {
			rung__scalar_param(&kp[i], p, sh, i);
			continue;
		}
		kp[i].p = j->keep[i].ptr;
		size_t bytes = (size_t)sh->numel[i] * rung_dtype_size(a->dtype);
		if (a->kind == RUNG_ARG_INOUT) { /* its inputs again */
			if (j->bset.in[0][i])
				r = rung_cu.cuMemcpyDtoDAsync(j->keep[i].ptr, j->bset.in[0][i], bytes, c->stream);
			else if (rung__upload_input(j, sh, i, p->seeds[0], &j->keep[i].ptr, 1, why, sizeof(why)))
				r = CUDA_ERROR_UNKNOWN;
		}
		if (r == CUDA_SUCCESS && a->kind == RUNG_ARG_OUTPUT)
			r = rung__poison_async(c->stream, j->keep[i].ptr, a->dtype, sh->numel[i], variant);
		if (r == CUDA_SUCCESS && (r = rung_cu.cuStreamSynchronize(c->stream)) == CUDA_SUCCESS &&
		    rung__write_bands(j, &j->keep[i], band, a->name, why, sizeof(why)))
			r = CUDA_ERROR_UNKNOWN;
	}
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuMemsetD8Async(slot, 0, sizeof(vslot), c->stream);
	if (r == CUDA_SUCCESS)
		r = rung__smem_fill(c, c->stream, smem);
	if (r == CUDA_SUCCESS)
		r = rung__scratch_zero(c->stream);
	if (r == CUDA_SUCCESS)
		r = rung__launch(c, j->kfn, &sh->geom, params);
	if (r != CUDA_SUCCESS || (r = rung_cu.cuStreamSynchronize(c->stream)) != CUDA_SUCCESS) {
		char d[256];
		rung__describe_fault(d, sizeof(d), r, p->kernel.name);
		rung__sfmt(reason, rlen, "%s (second run of the run case)", d);
		j->fatal = j->fatal || rung_cu_is_sticky(r);
		return -1;
	}
	for (int i = 0; i < p->nargs && r == CUDA_SUCCESS; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (a->kind == RUNG_ARG_SCALAR)
			continue;
		if (rung__is_out(a)) /* bit-exact against the earlier run */
			r = rung__verify(c, c->stream, j->keep[i].ptr, against[i], sh->numel[i], a->dtype, 0, 0,
					 a->kind == RUNG_ARG_OUTPUT, variant, true,
					 slot + offsetof(vslot, vs) + (size_t)i * sizeof(rung_vstat));
		if (r == CUDA_SUCCESS)
			r = rung__bands(c, c->stream, &j->keep[i], slot + offsetof(vslot, bands) + (size_t)i * sizeof(uint64_t));
	}
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuMemcpyDtoH(v, slot, sizeof(*v));
	if (r != CUDA_SUCCESS) {
		char d[256];
		rung_cu_describe(d, sizeof(d), r);
		rung__sfmt(reason, rlen, "determinism check failed: %s", d);
		j->fatal = j->fatal || rung_cu_is_sticky(r);
		return -1;
	}
	return 0;
}

/* Elements of v's outputs that differ, in all. */
static uint64_t out_mismatches(const rung_plan *p, const vslot *v)
{
	uint64_t n = 0;
	for (int i = 0; i < p->nargs; i++)
		if (rung__is_out(&p->args[i]))
			n += v->vs[i].mismatches;
	return n;
}

/* Why two runs differ, from runs that change one thing at a time from the
 * second run (its outputs in second[]): the same run again (a race if that
 * differs), the first run's poison (the outputs' prior contents), the first
 * run's guard bands (reads past the buffers). NULL when none of them changes
 * the result (shared memory, or a race that did not strike again). */
static const char *diagnose(rung_wjob *j, uint64_t band1, uint64_t band2, const CUdeviceptr *second, CUdeviceptr slot,
			    char *reason, size_t rlen, int *fault)
{
	vslot v;
	*fault = 0;
	if (rerun(j, RUNG_POISON_FINITE, band2, 0, second, slot, &v, reason, rlen)) {
		*fault = 1;
		return NULL;
	}
	if (out_mismatches(j->p, &v))
		return "the same run again differs too: a race?";
	if (rerun(j, 0, band2, 0, second, slot, &v, reason, rlen)) {
		*fault = 1;
		return NULL;
	}
	if (out_mismatches(j->p, &v))
		return "the result depends on the prior contents of its outputs (another poison, all else the same, gives "
		       "another result): the kernel reads an output before writing it";
	if (rerun(j, RUNG_POISON_FINITE, band1, 0, second, slot, &v, reason, rlen)) {
		*fault = 1;
		return NULL;
	}
	if (out_mismatches(j->p, &v))
		return "the result depends on the values around its buffers (other guard-band values, all else the same, give "
		       "another result): the kernel reads past the end or before the start of a buffer";
	return NULL;
}

int rung__determinism(rung_wjob *j, char *reason, size_t rlen)
{
	const rung_plan *p = j->p;
	const rung_plan_shape *sh = &p->shapes[p->nshapes - 1];
	rung_wctx *c = j->c;
	char why[512];
	if (!j->have_keep || !rung__verify_ready(c, why, sizeof(why))) {
		rung__sfmt(reason, rlen, "cannot run the determinism check: %s", j->have_keep ? why : "no kept buffers");
		return -1;
	}
	CUdeviceptr first[RUNG_MAX_ARGS] = { 0 }, second[RUNG_MAX_ARGS] = { 0 }, slot = 0;
	CUresult r = rung__dalloc(&slot, sizeof(vslot));
	int ret = 0;
	for (int i = 0; i < p->nargs && r == CUDA_SUCCESS; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (!rung__is_out(a))
			continue;
		size_t bytes = (size_t)sh->numel[i] * rung_dtype_size(a->dtype);
		r = rung__dalloc(&first[i], bytes); /* the first run's outputs */
		if (r == CUDA_SUCCESS)
			r = rung_cu.cuMemcpyDtoDAsync(first[i], j->keep[i].ptr, bytes, c->stream);
	}
	if (r != CUDA_SUCCESS) {
		char d[256];
		rung_cu_describe(d, sizeof(d), r);
		rung__sfmt(reason, rlen, "determinism check failed: %s", d);
		j->fatal = j->fatal || rung_cu_is_sticky(r);
		ret = -1;
		goto out;
	}
	/* the second run: another poison (a finite value, where the first was a
	 * NaN), other guard-band values, shared memory zeros (the first had all
	 * ones) */
	uint64_t band1 = j->band_key, band2 = rung_hd_band_key_flip(rung__nonce(), band1);
	if (band2 == band1)
		band2 ^= 2;
	vslot v;
	if (rerun(j, RUNG_POISON_FINITE, band2, 0, first, slot, &v, reason, rlen)) {
		ret = -1;
		goto out;
	}
	for (int i = 0; i < p->nargs; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (a->kind != RUNG_ARG_SCALAR && v.bands[i]) {
			rung__sfmt(reason, rlen, "%s: out-of-bounds write in the second run of the run case (%" PRIu64 " bytes of its guard bands changed)",
				   a->name, v.bands[i]);
			ret = 1;
			goto out;
		}
	}
	int64_t differ = 0;
	double maxabs = 0, mo[RUNG_MAX_ARGS] = { 0 };
	int worst = -1; /* the first output that differs: the message names it */
	for (int i = 0; i < p->nargs && ret == 0; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (!rung__is_out(a) || !v.vs[i].mismatches)
			continue;
		/* the tolerance path gives the largest difference */
		CUdeviceptr vs = slot + offsetof(vslot, vs) + (size_t)i * sizeof(rung_vstat);
		rung_vstat t;
		r = rung_cu.cuMemsetD8Async(vs, 0, sizeof(rung_vstat), c->stream);
		if (r == CUDA_SUCCESS)
			r = rung__verify(c, c->stream, j->keep[i].ptr, first[i], sh->numel[i], a->dtype, 0, 0, false, 0, false, vs);
		if (r == CUDA_SUCCESS)
			r = rung_cu.cuMemcpyDtoH(&t, vs, sizeof(t));
		if (r != CUDA_SUCCESS) {
			char d[256];
			rung_cu_describe(d, sizeof(d), r);
			rung__sfmt(reason, rlen, "determinism check failed: %s", d);
			j->fatal = j->fatal || rung_cu_is_sticky(r);
			ret = -1;
			goto out;
		}
		memcpy(&mo[i], &t.maxabs, sizeof(mo[i]));
		if (mo[i] > maxabs)
			maxabs = mo[i];
		if (worst < 0)
			worst = i;
		differ += (int64_t)v.vs[i].mismatches;
	}
	if (differ && !p->nondeterministic) {
		const rung_plan_arg *a = &p->args[worst];
		const rung_vstat *s = &v.vs[worst];
		int64_t f = rung__vstat_first(s);
		int64_t coord[RUNG_MAX_RANK];
		int rank = rung_unflatten(coord, f, sh->rank[worst], sh->extent[worst], sh->numel[worst]);
		char cs[128];
		rung_fmt_coord(cs, sizeof(cs), coord, rank);
		char head[512];
		rung__sfmt(head, sizeof(head), "%s: two runs on the same inputs differ (%" PRIu64 " elements%s, first at %s, max |diff| %.3g)",
			   a->name, s->mismatches, s->unwritten ? ", some unwritten in the second" : "", cs, mo[worst]);
		/* the second run's outputs, then one thing changed at a time */
		for (int i = 0; i < p->nargs && r == CUDA_SUCCESS; i++) {
			if (!rung__is_out(&p->args[i]))
				continue;
			size_t bytes = (size_t)sh->numel[i] * rung_dtype_size(p->args[i].dtype);
			r = rung__dalloc(&second[i], bytes);
			if (r == CUDA_SUCCESS)
				r = rung_cu.cuMemcpyDtoDAsync(second[i], j->keep[i].ptr, bytes, c->stream);
		}
		int fault = 0;
		const char *cause = NULL;
		if (s->unwritten) /* poison left: another poison changes it, whatever the kernel reads */
			cause = "the second launch left elements unwritten: it did not do its full work again";
		else if (r == CUDA_SUCCESS)
			cause = diagnose(j, band1, band2, second, slot, why, sizeof(why), &fault);
		if (fault) {
			rung__sfmt(reason, rlen, "%s", why);
			ret = -1;
			goto out;
		}
		if (cause)
			rung__sfmt(reason, rlen, "%s: %s", head, cause);
		else
			rung__sfmt(reason, rlen, "%s: uninitialized reads or a race? (a kernel whose results may vary, e.g. with atomics, declares [check] deterministic = false)",
				   head);
		ret = 1;
	}
	if (ret >= 0) {
		j->res->nondet_elements = differ;
		j->res->nondet_max_abs = differ ? maxabs : 0;
	}
out:
	if (!j->fatal) {
		for (int i = 0; i < p->nargs; i++) {
			if (first[i])
				rung_cu.cuMemFree(first[i]);
			if (second[i])
				rung_cu.cuMemFree(second[i]);
		}
		if (slot)
			rung_cu.cuMemFree(slot);
	}
	return ret;
}

/* --- the bench rung ------------------------------------------------------------- */

/* The candidate's module again, so no __device__ data written during the
 * check carries over into the bench. 0, or 1 with reason. */
static int reload(rung_wjob *j, char *reason, size_t rlen)
{
	if (j->kmod)
		rung_cu.cuModuleUnload(j->kmod);
	j->kmod = NULL;
	trace_ptr = 0;
	if (rung__load_fn(j, j->kcubin, j->kcubin_len, &j->p->kernel, &j->kmod, &j->kfn, &j->kstatic_smem, reason, rlen))
		return 1;
	/* __rung_trace is writable by every kernel (its count grows with each
	 * record) and the PTX scan leaves it out: zeroed before every launch, it
	 * cannot carry a call count from one launch to the next. */
	if (rung_cu.cuModuleGetGlobal &&
	    rung_cu.cuModuleGetGlobal(&trace_ptr, &trace_bytes, j->kmod, RUNG_TRACE_SYMBOL) != CUDA_SUCCESS)
		trace_ptr = 0;
	return rung__check_geometry(j, j->kfn, j->kstatic_smem, false, j->p->kernel.name, reason, rlen);
}

/* --- short kernels: the range profiler's duration ----------------------------
 *
 * A serial kernel record carries 1.1-2 us over ncu's gpu__time_duration on the
 * H200 (docs/BENCHMARKS.md: +1.1 us at 3 us, +2.0 at 57 us, +1.5 at 232 us):
 * nothing for a 15 ms SGEMM, 40 % of a 3 us saxpy. Below SHORT_MS (record median), the primary
 * figure comes from a window of WINDOW_MIN verified launches (at most WINDOW
 * with RUNG_PROFILER_WINDOW) in one range-profiler session reading gpu__time_duration.sum, the counter ncu reports, in one pass
 * (no replay: checked), one range a launch around the kernel alone. Each
 * launch of the window is prepared, flushed and verified like the timed
 * loop's, between the ranges; the records' median stays as record_median.
 * RUNG_TIMER=records keeps records for every kernel, RUNG_TIMER=profiler takes
 * the window for every kernel (diagnostics). */
#define SHORT_MS 0.05
#define WINDOW 100
#define WINDOW_MIN 20

typedef struct {
	rung_wjob *j;
	rung_dbuf *cand;
	const rung_plan_shape *sh;
	void **params;
	CUdeviceptr slots;
	int k, calls, launches, *cur, xs[WINDOW + 1];
	bool all; /* every kernel of a launch in the ranges (RUNG_PROFILER_RANGES=all) */
} pwin;

/* Call i: the kernel first (its inputs and the flush were queued by call
 * i - 1, or before the session for call 0), then its checks, then the next
 * launch's inputs, poison and flush: every call launches the same kernels,
 * the measured one first (rung_cupti_durations). */
static CUresult pwin_prepare(pwin *w, int i)
{
	rung_wjob *j = w->j;
	w->xs[i] = rung__pick_set(j->bset.nsets);
	CUresult r = before_launch(j, w->cand, w->sh, w->xs[i], w->cur, (w->launches + i) & 1);
	return r == CUDA_SUCCESS ? rung__flush_l2(j->c) : r;
}

/* The measured kernel alone, inside its own range (pwin_after runs outside:
 * RUNG_PROFILER_RANGES=all puts the checks and the flush in the ranges too,
 * the window's first form). */
static CUresult pwin_kernel(void *ud)
{
	pwin *w = ud;
	rung_wjob *j = w->j;
	CUresult r = rung__launch(j->c, j->kfn, &w->sh->geom, w->params);
	if (r == CUDA_SUCCESS && !w->all)
		r = rung_cu.cuStreamSynchronize(j->c->stream);
	return r;
}

static CUresult pwin_after(void *ud)
{
	pwin *w = ud;
	rung_wjob *j = w->j;
	int i = w->k++;
	CUresult r = after_launch(j, w->cand, w->sh, w->xs[i], (w->launches + i) & 1, w->slots + (size_t)i * sizeof(vslot));
	if (r == CUDA_SUCCESS)
		r = pwin_prepare(w, i + 1); /* xs[calls] is the last call's spare */
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuStreamSynchronize(j->c->stream);
	return r;
}

static CUresult pwin_launch(void *ud)
{
	CUresult r = pwin_kernel(ud);
	return r == CUDA_SUCCESS ? pwin_after(ud) : r;
}

/* The window's threshold: SHORT_MS, or RUNG_SHORT_MS (ms; an experiment of
 * #31 item 2, bench/h200_session7.sh). */
static double short_ms(void)
{
	const char *e = getenv("RUNG_SHORT_MS");
	double v = e && *e ? strtod(e, NULL) : NAN;
	return isfinite(v) && v >= 0 ? v : SHORT_MS;
}

static bool timer_is(const char *what)
{
	const char *e = getenv("RUNG_TIMER");
	return e && !strcmp(e, what);
}

/* RUNG_TIMER (diagnostic): "records", the records as they are (no window, no
 * calibration); "profiler", the window whatever the length. */
static bool want_window(double record_median_ms)
{
	if (timer_is("records"))
		return false;
	if (timer_is("profiler"))
		return true;
	return record_median_ms < short_ms();
}

/* RUNG_PROFILER_HOST=thread: the window's host side (rung_cupti_durations_prepare)
 * made on a thread while the bench's records are taken, for a kernel whose run
 * case was short enough that a window may follow. */
static void *prepare_main(void *arg)
{
	CUdevice *dev = arg;
	if (rung_cupti_durations_prepare(*dev) < 0)
		rung_error_clear();
	return NULL;
}

/* The window: 0 with ns[0..*got) filled and every launch verified; 1 with the
 * bench failed (a launch differed: reason set, fault noted); -1 when the
 * profiler cannot time here (why), the records' figure then stands. */
static int profiler_window(rung_wjob *j, rung_dbuf *cand, const rung_plan_shape *sh, void **params, int *cur,
			   int launches, double *ns, int *got, char *why, size_t wlen)
{
	const rung_plan *p = j->p;
	/* each launch under the profiler costs host time (about 8 ms with one
	 * range a launch on the H200, 25 ms with every kernel a range; 100
	 * launches of the latter made a 5 us saxpy's check 2.2-3.6 s), so the
	 * window is WINDOW_MIN launches unless RUNG_PROFILER_WINDOW asks more */
	int calls = WINDOW_MIN;
	const char *ew = getenv("RUNG_PROFILER_WINDOW");
	if (ew && atoi(ew) > 0)
		calls = atoi(ew);
	calls = calls < 1 ? 1 : calls > WINDOW ? WINDOW : calls;
	pwin w = {.j = j, .cand = cand, .sh = sh, .params = params, .cur = cur, .launches = launches, .calls = calls};
	vslot *h = malloc(WINDOW * sizeof(vslot));
	CUresult r = h ? rung__dalloc(&w.slots, WINDOW * sizeof(vslot)) : CUDA_ERROR_OUT_OF_MEMORY;
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuMemsetD8Async(w.slots, 0, WINDOW * sizeof(vslot), j->c->stream);
	if (r != CUDA_SUCCESS) {
		free(h);
		rung__sfmt(why, wlen, "out of memory for the profiler window");
		return -1;
	}
	CUresult lerr = pwin_prepare(&w, 0);
	if (lerr == CUDA_SUCCESS)
		lerr = rung_cu.cuStreamSynchronize(j->c->stream);
	/* kernels per launch: the flush, the kernel, and per argument a
	 * verification and a guard-band check (and the poison of 8-byte outputs) */
	int per = 2 + 4 * p->nargs, rc = 0;
	const char *er = getenv("RUNG_PROFILER_RANGES");
	w.all = er && !strcmp(er, "all");
	if (lerr == CUDA_SUCCESS) {
		rung_cupti_busy_pause(true);
		if (w.all)
			rc = rung_cupti_durations(ns, got, calls, calls * per, j->c->ctx, j->c->dev, pwin_launch, NULL, &w,
						  &lerr, why, wlen);
		else /* one range a launch: the kernel alone (each range costs the host about a millisecond) */
			rc = rung_cupti_durations(ns, got, calls, calls, j->c->ctx, j->c->dev, pwin_kernel, pwin_after, &w,
						  &lerr, why, wlen);
		rung_cupti_busy_pause(false);
	}
	int ret = 0;
	if (lerr != CUDA_SUCCESS) {
		rung__step_fault(j, RUNG_STEP_BENCH, lerr, p->kernel.name);
		ret = 1;
	} else if (rc != 0 || *got != w.k) {
		if (rc == 0)
			rung__sfmt(why, wlen, "the profiler gave %d durations for %d launches", *got, w.k);
		ret = -1;
	} else if ((r = rung_cu.cuMemcpyDtoH(h, w.slots, (size_t)w.k * sizeof(vslot))) != CUDA_SUCCESS) {
		rung__step_fault(j, RUNG_STEP_BENCH, r, "reading the window's checks");
		ret = 1;
	} else {
		for (int i = 0; i < w.k; i++) {
			char what[64], reason[512];
			rung__sfmt(what, sizeof(what), "profiled launch %d", i + 1);
			if (judge(j, &h[i], sh, w.xs[i], what, reason, sizeof(reason))) {
				rung__wstep(j->res, RUNG_STEP_BENCH, RUNG_S_FAILED, "%s", reason);
				rung_result_add_suspect(j->res, RUNG_SUSPECT_TIMED_MISMATCH, "%s", reason);
				ret = 1;
				break;
			}
		}
	}
	if (!j->fatal)
		rung_cu.cuMemFree(w.slots);
	free(h);
	return ret;
}

/* A verified launch's events: before the inputs and poison, before the flush,
 * around the kernel, after the checks. */
enum { E_PREP, E_FLUSH, E_START, E_END, E_DONE, NE };

void rung__wbench(rung_wjob *j)
{
	rung_wctx *c = j->c;
	const rung_plan *p = j->p;
	rung_result *res = j->res;
	const rung_plan_shape *sh = &p->shapes[p->nshapes - 1];
	rung_bench *b = &res->bench;
	rung_bset *bs = &j->bset;
	char why[512];
	rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_RUNNING, NULL);
	rung__wprogress(c, RUNG_STEP_BENCH, 0, "warm-up");

	rung_dbuf *cand = j->keep;
	rung_kparam kp[RUNG_MAX_ARGS];
	void *params[RUNG_MAX_ARGS];
	CUevent ev[NE * MAX_BATCH];
	memset(ev, 0, sizeof(ev));
	CUdeviceptr slots = 0;
	vslot *hslots = NULL;
	double *cupti_ns = NULL, *samples = NULL, *evs = NULL, *clocks = NULL;
	int n = 0, nev = 0, nclk = 0, dropped = 0, launches = 0, per_set[RUNG_BENCH_SETS] = { 0 };
	int cur = 0, sets_used = 0;
	double verify_ms = 0;
	bool use_cupti = false;

	double tt = rung_now_s();
	pthread_t prep;
	bool prep_started = false;
	const char *eh = getenv("RUNG_PROFILER_HOST");
	/* a window may follow: the rule of want_window, with the run case's time
	 * at twice the threshold (NaN: none, unless RUNG_TIMER says so) */
	if (eh && !strcmp(eh, "thread") && want_window(res->run_ms / 2))
		prep_started = pthread_create(&prep, NULL, prepare_main, &c->dev) == 0;
	if (!j->have_keep || bs->nsets < 1) {
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "no verified buffers from the run case%s%s",
			    bs->note[0] ? ": " : "", bs->note);
		goto out;
	}
	if (!rung__verify_ready(c, why, sizeof(why))) { /* never time what cannot be verified */
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "cannot verify the timed launches: %s", why);
		goto out;
	}
	for (int i = 0; i < p->nargs; i++) {
		if (p->args[i].kind == RUNG_ARG_INOUT && !bs->in[0][i]) {
			rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "no copy of inout %s to restore before each launch%s%s",
				    p->args[i].name, bs->note[0] ? ": " : "", bs->note);
			goto out;
		}
	}
	if (rung__bset_wait(j, why, sizeof(why)) || reload(j, why, sizeof(why))) {
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "%s", why);
		goto out;
	}
	for (int i = 0; i < p->nargs; i++) {
		memset(&kp[i], 0, sizeof(kp[i]));
		if (p->args[i].kind == RUNG_ARG_SCALAR)
			rung__scalar_param(&kp[i], p, sh, i);
		else
			kp[i].p = cand[i].ptr;
		params[i] = &kp[i];
	}
	tt = rung_timing_lap("bench: second input set + module reload", tt);
	uint64_t hash_before[RUNG_BENCH_SETS][RUNG_MAX_ARGS], hash_after[RUNG_BENCH_SETS][RUNG_MAX_ARGS];
	if (expected_hashes(j, sh, hash_before) != CUDA_SUCCESS) {
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "cannot hash the expected outputs");
		goto out;
	}
	if (!rung__flush_ready(c)) {
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "out of device memory for the L2 flush buffer");
		goto out;
	}
	CUresult r = rung__dalloc(&slots, MAX_BATCH * sizeof(vslot));
	hslots = malloc(MAX_BATCH * sizeof(vslot));
	if (r != CUDA_SUCCESS || !hslots) {
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "out of memory for the launch checks");
		goto out;
	}
	for (int i = 0; i < NE * MAX_BATCH; i++) {
		r = rung_cu.cuEventCreate(&ev[i], CU_EVENT_DEFAULT);
		if (r != CUDA_SUCCESS) {
			ev[i] = NULL;
			rung__step_fault(j, RUNG_STEP_BENCH, r, "cuEventCreate");
			goto out;
		}
	}

	/* Warm-up: at least 3 launches and 50 ms, or 1 launch and 20 ms after the
	 * run case (at most a tenth of the budget); each one verified. None for a
	 * kernel of LONG_MS or more that the run case ran at this shape in this job
	 * (its time there is the estimate): the GPU is busy and its clocks up since,
	 * every sample is flushed first, and a launch that long is one window. */
	int min_warm = 1;
	double warm_s = 0.02;
	double t0 = rung_now_s(), est_ms = 0;
	bool warm_done = isfinite(res->run_ms) && res->run_ms >= LONG_MS;
	if (warm_done)
		est_ms = res->run_ms;
	for (int w = 0; w < 1000 && !warm_done; w++) {
		int x = rung__pick_set(bs->nsets);
		CUevent *e = ev;
		r = rung_cu.cuMemsetD8Async(slots, 0, sizeof(vslot), c->stream);
		if (r == CUDA_SUCCESS)
			r = before_launch(j, cand, sh, x, &cur, launches & 1);
		if (r == CUDA_SUCCESS)
			r = rung_cu.cuEventRecord(e[E_START], c->stream);
		if (r == CUDA_SUCCESS)
			r = rung__launch(c, j->kfn, &sh->geom, params);
		if (r == CUDA_SUCCESS)
			r = rung_cu.cuEventRecord(e[E_END], c->stream);
		if (r == CUDA_SUCCESS)
			r = after_launch(j, cand, sh, x, launches & 1, slots);
		if (r == CUDA_SUCCESS)
			r = rung_cu.cuMemcpyDtoHAsync(hslots, slots, sizeof(vslot), c->stream);
		if (r == CUDA_SUCCESS)
			r = rung_cu.cuStreamSynchronize(c->stream);
		if (r != CUDA_SUCCESS) {
			rung__step_fault(j, RUNG_STEP_BENCH, r, p->kernel.name);
			goto out;
		}
		launches++;
		char what[64];
		rung__sfmt(what, sizeof(what), "warm-up launch %d", w + 1);
		if (judge(j, hslots, sh, x, what, why, sizeof(why))) {
			rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "%s", why);
			rung_result_add_suspect(res, RUNG_SUSPECT_TIMED_MISMATCH, "%s", why);
			goto out;
		}
		float ms = 0;
		rung_cu.cuEventElapsedTime(&ms, e[E_START], e[E_END]);
		est_ms = ms;
		double el = rung_now_s() - t0;
		if (w + 1 >= min_warm && (el >= warm_s || el >= p->budget_s / 10 || est_ms >= LONG_MS))
			break;
		rung__wprogress(c, RUNG_STEP_BENCH, 0, "warm-up %d", w + 1);
	}

	tt = rung_timing_lap("bench: flush setup + warm-up", tt);
	use_cupti = rung_cupti_available() && rung_cupti_start(p->kernel.lowered) == 0;
	samples = malloc(MAX_SAMPLES * sizeof(double));
	evs = malloc(MAX_SAMPLES * sizeof(double));
	clocks = malloc((MAX_SAMPLES / 1 + 1) * sizeof(double));
	cupti_ns = malloc(MAX_BATCH * 4 * sizeof(double));
	if (!samples || !evs || !clocks || !cupti_ns) {
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "out of host memory");
		goto out;
	}
	/* Batches of about 50 ms so progress (and the parent's deadline) keep moving. */
	int batch = est_ms > 0 ? (int)(50.0 / est_ms) : MAX_BATCH;
	if (batch < 1)
		batch = 1;
	if (batch > MAX_BATCH)
		batch = MAX_BATCH;
	double start = rung_now_s(), last_progress = 0, hard = p->budget_s * 5 + 10;
	double rse = NAN;
	const int min_n = est_ms >= LONG_MS ? MIN_SAMPLES_LONG : MIN_SAMPLES;
	int next_check = min_n, timed = 0;
	if (use_cupti) {
		rung_cupti_mark(); /* drop the warm-up's records, and any earlier kernel's delivered late */
	}
	/* who else is on the GPU: listed before and after the timed loop */
	if (c->nvml)
		rung_nvml_others(&b->shared);
	while (n < MAX_SAMPLES) {
		int m = batch;
		if (n < min_n && n + m > min_n)
			m = min_n - n; /* land on the first check, not past it */
		if (n + m > MAX_SAMPLES)
			m = MAX_SAMPLES - n;
		int xs[MAX_BATCH];
		r = rung_cu.cuMemsetD8Async(slots, 0, (size_t)m * sizeof(vslot), c->stream);
		for (int i = 0; i < m && r == CUDA_SUCCESS; i++) {
			CUevent *e = ev + NE * i;
			int var = (launches + i) & 1;
			xs[i] = rung__pick_set(bs->nsets);
			r = rung_cu.cuEventRecord(e[E_PREP], c->stream);
			if (r == CUDA_SUCCESS)
				r = before_launch(j, cand, sh, xs[i], &cur, var);
			if (r == CUDA_SUCCESS)
				r = rung_cu.cuEventRecord(e[E_FLUSH], c->stream);
			if (r == CUDA_SUCCESS)
				r = rung__flush_l2(c);
			if (r == CUDA_SUCCESS)
				r = rung_cu.cuEventRecord(e[E_START], c->stream);
			if (r == CUDA_SUCCESS)
				r = rung__launch(c, j->kfn, &sh->geom, params);
			if (r == CUDA_SUCCESS)
				r = rung_cu.cuEventRecord(e[E_END], c->stream);
			if (r == CUDA_SUCCESS)
				r = after_launch(j, cand, sh, xs[i], var, slots + (size_t)i * sizeof(vslot));
			if (r == CUDA_SUCCESS)
				r = rung_cu.cuEventRecord(e[E_DONE], c->stream);
		}
		if (r == CUDA_SUCCESS)
			r = rung_cu.cuMemcpyDtoHAsync(hslots, slots, (size_t)m * sizeof(vslot), c->stream);
		int clk = c->nvml ? rung_nvml_sm_clock_mhz() : -1; /* read while the batch runs */
		if (r == CUDA_SUCCESS)
			r = rung_cu.cuStreamSynchronize(c->stream);
		if (r != CUDA_SUCCESS) {
			rung__step_fault(j, RUNG_STEP_BENCH, r, p->kernel.name);
			goto out;
		}
		double bev[MAX_BATCH];
		for (int i = 0; i < m; i++) {
			CUevent *e = ev + NE * i;
			char what[64];
			rung__sfmt(what, sizeof(what), "timed launch %d", timed + i + 1);
			if (judge(j, &hslots[i], sh, xs[i], what, why, sizeof(why))) {
				rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "%s", why);
				rung_result_add_suspect(res, RUNG_SUSPECT_TIMED_MISMATCH, "%s", why);
				goto out;
			}
			float ms = NAN, pre = 0, post = 0;
			if (rung_cu.cuEventElapsedTime(&ms, e[E_START], e[E_END]) != CUDA_SUCCESS)
				ms = NAN;
			if (rung_cu.cuEventElapsedTime(&pre, e[E_PREP], e[E_FLUSH]) == CUDA_SUCCESS &&
			    rung_cu.cuEventElapsedTime(&post, e[E_END], e[E_DONE]) == CUDA_SUCCESS)
				verify_ms += pre + post;
			bev[i] = ms;
			if (!per_set[xs[i]]++)
				sets_used++;
		}
		timed += m;
		launches += m;
		int got = m;
		if (use_cupti) {
			got = rung_cupti_collect(cupti_ns, MAX_BATCH * 4);
			char other[128] = "";
			int others = rung_cupti_others(other, sizeof(other));
			if (others > 0)
				rung_result_add_suspect(res, RUNG_SUSPECT_KERNEL_RECORDS,
							"%d records of other kernels (first '%s') during %d timed launches: device-side launches?",
							others, other, m);
			if (got != m) {
				/* Records missing or extra: evidence, and events for the whole run. */
				rung_result_add_suspect(res, RUNG_SUSPECT_KERNEL_RECORDS,
							"%d kernel records of %s for %d timed launches (one each expected); timed with CUDA events",
							got, p->kernel.name, m);
				fprintf(stderr, "rung worker: CUPTI returned %d records for %d launches; using CUDA events\n", got, m);
				use_cupti = false;
				rung_cupti_stop();
				memcpy(samples, evs, (size_t)nev * sizeof(double));
				n = nev;
				got = m;
			}
		}
		double el = rung_now_s() - start;
		/* Under 75% of the max SM clock: drop the batch, unless the budget is gone
		 * with too few samples (then keep them; `dropped` still tells). */
		bool slow = clk > 0 && c->max_clock_mhz > 0 && clk < 0.75 * c->max_clock_mhz &&
			    !(el >= p->budget_s && n < min_n);
		if (slow) {
			dropped += m;
		} else {
			for (int i = 0; i < m; i++) {
				samples[n++] = use_cupti ? cupti_ns[i] * 1e-6 : bev[i];
				evs[nev++] = bev[i];
			}
			if (clk > 0)
				clocks[nclk++] = clk;
		}
		if (n >= min_n && (n >= next_check || el >= p->budget_s)) {
			/* The bootstrap costs O(n log n): re-check as n grows by 10%. */
			rse = rung_rse_median(samples, n, 200, 0x5eed);
			next_check = n + n / 10 + 1;
			if ((rse <= RSE_TARGET && sets_used >= bs->nsets) || el >= p->budget_s)
				break;
		}
		if (el >= hard)
			break;
		if (el - last_progress >= 0.2) {
			rung__wprogress(c, RUNG_STEP_BENCH, el / p->budget_s > 1 ? 1 : el / p->budget_s, "n=%d", n);
			last_progress = el;
		}
	}
	if (use_cupti)
		rung_cupti_stop();
	if (c->nvml)
		rung_nvml_others(&b->shared);
	if (n < 1) {
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED,
			    "no valid samples: all %d were taken under 75%% of the max SM clock (%d MHz)", dropped,
			    c->max_clock_mhz);
		goto out;
	}
	if (rung_bench_fill(b, samples, n, RSE_TARGET)) {
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "statistics failed");
		goto out;
	}
	b->valid = true;
	b->dropped = dropped;
	b->event_median = median_of(evs, nev);
	b->clock_mhz = nclk ? median_of(clocks, nclk) : NAN;
	rung__sfmt(b->method, sizeof(b->method), "%s", use_cupti ? "cupti-activity" : "events");
	if (use_cupti && !want_window(b->median) && !timer_is("records") &&
	    rung__calibrate_records(c, b, samples, n, RSE_TARGET)) {
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "statistics failed");
		goto out;
	}
	if (use_cupti && want_window(b->median)) {
		double pns[WINDOW];
		int pgot = 0;
		double rec = b->median;
		rung__wprogress(c, RUNG_STEP_BENCH, 1, "short kernel: profiler window");
		if (prep_started) {
			double tj = rung_now_s();
			pthread_join(prep, NULL);
			prep_started = false;
			rung_timing_lap("bench: the window's host side (waited for)", tj);
		}
		int w = profiler_window(j, cand, sh, params, &cur, launches, pns, &pgot, why, sizeof(why));
		if (w > 0)
			goto out;
		if (w == 0 && pgot > 0) {
			for (int i = 0; i < pgot; i++)
				samples[i] = pns[i] * 1e-6;
			if (rung_bench_fill(b, samples, pgot, RSE_TARGET)) {
				rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "statistics failed");
				goto out;
			}
			b->record_median = rec;
			launches += pgot;
			rung__sfmt(b->method, sizeof(b->method), "cupti-profiler");
		} else {
			fprintf(stderr, "rung worker: short kernel, range profiler not used: %s\n", why);
		}
	}
	/* the expected outputs once more: nothing changed them while the bench ran */
	if (expected_hashes(j, sh, hash_after) != CUDA_SUCCESS) {
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "cannot hash the expected outputs after the bench");
		goto out;
	}
	for (int x = 0; x < bs->nsets; x++)
		for (int i = 0; i < p->nargs; i++)
			if (hash_before[x][i] != hash_after[x][i]) {
				rung__sfmt(why, sizeof(why), "the expected output %s of input set %d changed during the bench: the kernel wrote outside its buffers?",
					   p->args[i].name, x + 1);
				rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "%s", why);
				rung_result_add_suspect(res, RUNG_SUSPECT_TIMED_MISMATCH, "%s", why);
				goto out;
			}
	b->verified = launches;
	b->sets = sets_used;
	b->verify_ms = verify_ms;
	b->tflops = isfinite(p->flops) && b->median > 0 ? p->flops / (b->median * 1e-3) / 1e12 : NAN;
	b->tbps = isfinite(p->bytes) && b->median > 0 ? p->bytes / (b->median * 1e-3) / 1e12 : NAN;
	rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_OK, NULL);
out:
	if (prep_started)
		pthread_join(prep, NULL);
	rung_timing_lap("bench: samples (flush + launch + verification)", tt);
	if (!j->fatal) {
		for (int i = 0; i < NE * MAX_BATCH; i++)
			if (ev[i])
				rung_cu.cuEventDestroy(ev[i]);
		if (slots)
			rung_cu.cuMemFree(slots);
	}
	if (use_cupti)
		rung_cupti_stop();
	free(hslots);
	free(samples);
	free(evs);
	free(clocks);
	free(cupti_ns);
}

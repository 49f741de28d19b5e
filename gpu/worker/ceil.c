/* The "ceilings" message inside the worker (gpu/ceilings.h): loads the CUBIN of
 * the ceiling kernels, times each (best of several launches, CUPTI activity or
 * CUDA events) and answers {"type":"result","ceilings":{name: value},
 * "method":..., "notes":{name: why}, "fatal":b}. Values: bytes/s or FLOP/s. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/roofline_guard.h"
#include "gpu/cupti.h"
#include "gpu/worker/ceil.h"
#include "gpu/worker/report.h"

#define BEST_OF 10

typedef struct {
	rung_wctx *c;
	CUmodule mod;
	bool fatal, events;
	json_t *vals, *notes;
} ceil_run;

/* Best time (ms) of BEST_OF launches of f, or NAN with a note. */
static double best_ms(ceil_run *cr, const char *name, unsigned grid, unsigned block, void **params)
{
	rung_wctx *c = cr->c;
	CUfunction f;
	char why[256];
	CUresult r = rung_cu.cuModuleGetFunction(&f, cr->mod, name);
	if (r != CUDA_SUCCESS) {
		rung_cu_describe(why, sizeof(why), r);
		json_object_set_new(cr->notes, name, json_string(why));
		return NAN;
	}
	/* warm-up */
	r = rung_cu.cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, c->stream, params, NULL);
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuStreamSynchronize(c->stream);
	if (r != CUDA_SUCCESS)
		goto fault;
	double best = NAN;
	bool cupti = rung_cupti_available() && rung_cupti_start(name) == 0;
	CUevent ev[2 * BEST_OF];
	memset(ev, 0, sizeof(ev));
	for (int i = 0; i < 2 * BEST_OF; i++)
		if (rung_cu.cuEventCreate(&ev[i], CU_EVENT_DEFAULT) != CUDA_SUCCESS)
			ev[i] = NULL;
	for (int i = 0; i < BEST_OF && r == CUDA_SUCCESS; i++) {
		if (ev[2 * i])
			rung_cu.cuEventRecord(ev[2 * i], c->stream);
		r = rung_cu.cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, c->stream, params, NULL);
		if (ev[2 * i + 1])
			rung_cu.cuEventRecord(ev[2 * i + 1], c->stream);
	}
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuStreamSynchronize(c->stream);
	if (r == CUDA_SUCCESS) {
		double ns[4 * BEST_OF];
		int got = cupti ? rung_cupti_collect(ns, 4 * BEST_OF) : 0;
		if (cupti && got == BEST_OF) {
			for (int i = 0; i < got; i++)
				if (isnan(best) || ns[i] * 1e-6 < best)
					best = ns[i] * 1e-6;
		} else {
			cr->events = true;
			for (int i = 0; i < BEST_OF; i++) {
				float ms = 0;
				if (ev[2 * i] && ev[2 * i + 1] &&
				    rung_cu.cuEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]) == CUDA_SUCCESS &&
				    (isnan(best) || ms < best))
					best = ms;
			}
		}
	}
	if (cupti)
		rung_cupti_stop();
	if (!rung_cu_is_sticky(r))
		for (int i = 0; i < 2 * BEST_OF; i++)
			if (ev[i])
				rung_cu.cuEventDestroy(ev[i]);
	if (r != CUDA_SUCCESS)
		goto fault;
	return best;
fault:
	rung__describe_fault(why, sizeof(why), r, name);
	json_object_set_new(cr->notes, name, json_string(why));
	cr->fatal = cr->fatal || rung_cu_is_sticky(r);
	return NAN;
}

static void put(ceil_run *cr, const char *key, double work, double ms)
{
	if (ms > 0 && isfinite(ms))
		json_object_set_new(cr->vals, key, json_real(work / (ms * 1e-3)));
}

static void copy_ceiling(ceil_run *cr, const char *key, size_t bytes, int reps, unsigned grid)
{
	rung_wctx *c = cr->c;
	CUdeviceptr a = 0, b = 0;
	if (rung_cu.cuMemAlloc(&a, bytes) != CUDA_SUCCESS || rung_cu.cuMemAlloc(&b, bytes) != CUDA_SUCCESS) {
		char why[128];
		rung__sfmt(why, sizeof(why), "out of device memory for two %zu MiB buffers", bytes >> 20);
		json_object_set_new(cr->notes, key, json_string(why));
		if (a)
			rung_cu.cuMemFree(a);
		return;
	}
	rung_cu.cuMemsetD32Async(a, 0x3f800000u, bytes / 4, c->stream);
	unsigned long long n = bytes / 16;
	void *params[] = {&a, &b, &n, &reps};
	double ms = best_ms(cr, "ceil_copy", grid, 512, params);
	put(cr, key, 2.0 * (double)bytes * reps, ms);
	if (!cr->fatal) {
		rung_cu.cuMemFree(a);
		rung_cu.cuMemFree(b);
	}
}

static void l1_ceiling(ceil_run *cr, unsigned grid, CUdeviceptr out)
{
	rung_wctx *c = cr->c;
	const size_t ws = 16 << 10; /* ceil_l1's working set: 1024 float4 */
	CUdeviceptr a = 0;
	if (rung_cu.cuMemAlloc(&a, ws) != CUDA_SUCCESS) {
		json_object_set_new(cr->notes, "l1", json_string("out of device memory for 16 KiB"));
		return;
	}
	rung_cu.cuMemsetD32Async(a, 0x3f800000u, ws / 4, c->stream);
	int iters = 1024;
	void *params[] = {&a, &out, &iters};
	double ms = best_ms(cr, "ceil_l1", grid, 256, params);
	put(cr, "l1", 16.0 * 8 * iters * (double)grid * 256, ms);
	if (!cr->fatal)
		rung_cu.cuMemFree(a);
}

bool rung__wceilings(rung_wctx *c, const json_t *msg, const rung_blob *blobs, int nblobs)
{
	(void)msg;
	ceil_run cr = {.c = c, .vals = json_object(), .notes = json_object()};
	rung_cu.cuCtxSetCurrent(c->ctx);
	const char *err = NULL;
	char why[256];
	CUresult r = nblobs < 1 ? CUDA_ERROR_INVALID_IMAGE : rung_cu.cuModuleLoadData(&cr.mod, blobs[0].data);
	if (r != CUDA_SUCCESS) {
		rung_cu_describe(why, sizeof(why), r);
		err = why;
		cr.fatal = rung_cu_is_sticky(r);
		goto reply;
	}
	unsigned sms = (unsigned)(c->env.sms > 0 ? c->env.sms : 1);
	CUdeviceptr out = 0;
	rung_cu.cuMemAlloc(&out, (size_t)sms * 8 * 256 * sizeof(double));

	/* DRAM: 1 GiB into 1 GiB (less when memory is short). */
	size_t free_b = 0, total_b = 0, big = (size_t)1 << 30;
	if (rung_cu.cuMemGetInfo(&free_b, &total_b) == CUDA_SUCCESS && big > free_b / 4)
		big = (free_b / 4) & ~(size_t)0xfffff;
	rung__wprogress(c, RUNG_STEP_BENCH, 0.0, "dram");
	copy_ceiling(&cr, "dram", big, 1, sms * 16);
	/* L2: two buffers in a third of the L2, copied 50 times within the kernel. */
	size_t l2 = c->l2_bytes > 0 ? (size_t)c->l2_bytes : (size_t)40 << 20;
	if (!cr.fatal) {
		rung__wprogress(c, RUNG_STEP_BENCH, 0.2, "l2");
		copy_ceiling(&cr, "l2", (l2 / 6) & ~(size_t)0xffff, 50, sms * 8);
	}
	/* L1: one 16 KiB working set read by every block, 8 x 16 B loads per thread and iteration. */
	if (!cr.fatal) {
		rung__wprogress(c, RUNG_STEP_BENCH, 0.3, "l1");
		l1_ceiling(&cr, sms * 8, out);
	}
	/* FP32 / FP64: 8 chains x 16 unrolled FMAs per iteration, 2 FLOP each. */
	if (!cr.fatal) {
		rung__wprogress(c, RUNG_STEP_BENCH, 0.4, "fp32");
		float x = 0.999f, y = 0.001f;
		int iters = 1024;
		void *p[] = {&out, &x, &y, &iters};
		double ms = best_ms(&cr, "ceil_ffma", sms * 8, 256, p);
		put(&cr, "fp32", 2.0 * 8 * 16 * iters * (double)sms * 8 * 256, ms);
	}
	if (!cr.fatal) {
		rung__wprogress(c, RUNG_STEP_BENCH, 0.55, "fp64");
		double x = 0.999, y = 0.001;
		int iters = 256;
		void *p[] = {&out, &x, &y, &iters};
		double ms = best_ms(&cr, "ceil_dfma", sms * 8, 256, p);
		put(&cr, "fp64", 2.0 * 8 * 16 * iters * (double)sms * 8 * 256, ms);
	}
	/* Tensor: per warp and iteration 4 mma.sync of 2*16*8*16 (bf16) or 2*16*8*8 (tf32) FLOP. */
	rung_device_attrs da;
	int major = rung_env_device_attrs(&da, &c->env) == 0 ? da.major : 0; /* the guard's arch parse */
	rung_error_clear();
	if (major < 8) {
		json_object_set_new(cr.notes, "bf16", json_string("mma.sync bf16/tf32 needs sm_80 or newer"));
	} else {
		unsigned seed = 0x1234567u;
		int iters = 4096;
		void *p[] = {&out, &seed, &iters};
		double warps = (double)sms * 4 * 8;
		if (!cr.fatal) {
			rung__wprogress(c, RUNG_STEP_BENCH, 0.7, "bf16 mma");
			double ms = best_ms(&cr, "ceil_mma_bf16", sms * 4, 256, p);
			put(&cr, "bf16", 4.0 * 2 * 16 * 8 * 16 * iters * warps, ms);
		}
		if (!cr.fatal) {
			rung__wprogress(c, RUNG_STEP_BENCH, 0.85, "tf32 mma");
			double ms = best_ms(&cr, "ceil_mma_tf32", sms * 4, 256, p);
			put(&cr, "tf32", 4.0 * 2 * 16 * 8 * 8 * iters * warps, ms);
		}
	}
	if (!cr.fatal) {
		if (out)
			rung_cu.cuMemFree(out);
		rung_cu.cuModuleUnload(cr.mod);
	}
reply:;
	json_t *j = json_pack("{s:s,s:o,s:o,s:s,s:b}", "type", "result", "ceilings", cr.vals, "notes", cr.notes,
			      "method", cr.events ? "events" : "cupti-activity", "fatal", cr.fatal);
	if (err)
		json_object_set_new(j, "error", json_string(err));
	rung__wsend(c, j, NULL, 0);
	json_decref(j);
	return cr.fatal;
}

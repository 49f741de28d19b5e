/* `rung trace` inside the worker (a job with RUNG_JOB_TRACE): after run and
 * check passed, finds `__rung_trace` (rung.h) in the candidate's module with
 * cuModuleGetGlobal, attaches a record buffer, launches once at the benchmark
 * shape (not timed; events give the kernel time for the fractions), reads the
 * records back and detaches the buffer. Kernels without the symbol pay
 * nothing: no buffer is allocated. Result: result.aux {"trace": {...}}
 * (core/trace.h), the profile rung says how many records. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "core/trace.h"
#include "gpu/rung_h.h"
#include "gpu/worker/input.h"
#include "gpu/worker/launch.h"
#include "gpu/worker/report.h"
#include "gpu/worker/trace.h"

#define MAX_RECS (1u << 21) /* 64 MiB of records */

static void put_u64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put_u32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

void rung__wtrace(rung_wjob *j)
{
	rung_wctx *c = j->c;
	rung_result *res = j->res;
	const rung_plan *p = j->p;
	rung__wstep(res, RUNG_STEP_PROFILE, RUNG_S_RUNNING, NULL);
	rung__wprogress(c, RUNG_STEP_PROFILE, 0, "trace (one launch)");
	CUdeviceptr gp = 0, recs = 0;
	size_t gbytes = 0;
	rung_dbuf buf[RUNG_MAX_ARGS];
	rung_kparam kp[RUNG_MAX_ARGS];
	void *params[RUNG_MAX_ARGS];
	memset(buf, 0, sizeof(buf));
	unsigned char *raw = NULL;
	unsigned char hdr[RUNG_TRACE_GLOBAL_BYTES];
	CUevent e0 = NULL, e1 = NULL;
	rung_trace t;
	rung_trace_init(&t);
	char why[512];
	if (!rung_cu.cuModuleGetGlobal ||
	    rung_cu.cuModuleGetGlobal(&gp, &gbytes, j->kmod, RUNG_TRACE_SYMBOL) != CUDA_SUCCESS || !gp) {
		rung__wstep(res, RUNG_STEP_PROFILE, RUNG_S_SKIPPED,
			    "no trace regions in %s (#include \"rung.h\" and use RUNG_TRACE_BEGIN/END)", p->kernel.name);
		return;
	}
	if (gbytes != RUNG_TRACE_GLOBAL_BYTES) {
		rung__wstep(res, RUNG_STEP_PROFILE, RUNG_S_FAILED, "%s is %zu bytes, expected %d (a different rung.h?)",
			    RUNG_TRACE_SYMBOL, gbytes, RUNG_TRACE_GLOBAL_BYTES);
		return;
	}
	if (rung__bench_buffers(j, buf, kp, params)) {
		res->steps[RUNG_STEP_PROFILE] = res->steps[RUNG_STEP_BENCH];
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_SKIPPED, "trace run (never timed)");
		goto out;
	}
	const rung_geom *g = &p->shapes[p->nshapes - 1].geom;
	uint64_t blocks = (uint64_t)g->grid[0] * (uint64_t)g->grid[1] * (uint64_t)g->grid[2];
	uint64_t cap64 = blocks * 16 < 1024 ? 1024 : blocks * 16;
	unsigned cap = cap64 > MAX_RECS ? MAX_RECS : (unsigned)cap64;
	size_t rbytes = (size_t)cap * RUNG_TRACE_REC_BYTES;
	CUresult r = rung_cu.cuMemAlloc(&recs, rbytes);
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuMemsetD8(recs, 0, rbytes);
	put_u64(hdr, (uint64_t)recs);
	put_u32(hdr + 8, cap);
	put_u32(hdr + 12, 0);
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuMemcpyHtoD(gp, hdr, sizeof(hdr));
	if (r != CUDA_SUCCESS) {
		rung_cu_describe(why, sizeof(why), r);
		rung__wstep(res, RUNG_STEP_PROFILE, RUNG_S_FAILED, "attaching the trace buffer: %s", why);
		j->fatal = rung_cu_is_sticky(r);
		goto out;
	}
	if (rung_cu.cuEventCreate(&e0, CU_EVENT_DEFAULT) != CUDA_SUCCESS ||
	    rung_cu.cuEventCreate(&e1, CU_EVENT_DEFAULT) != CUDA_SUCCESS)
		e0 = e1 = NULL;
	r = rung__scratch_zero(c->stream); /* zeroed scratch, as for every launch */
	if (r == CUDA_SUCCESS && e0)
		rung_cu.cuEventRecord(e0, c->stream);
	if (r == CUDA_SUCCESS)
		r = rung__launch(c, j->kfn, g, params);
	if (r == CUDA_SUCCESS && e1)
		rung_cu.cuEventRecord(e1, c->stream);
	CUresult s = rung_cu.cuStreamSynchronize(c->stream);
	if (r == CUDA_SUCCESS)
		r = s;
	if (r != CUDA_SUCCESS) {
		rung__describe_fault(why, sizeof(why), r, p->kernel.name);
		rung__wstep(res, RUNG_STEP_PROFILE, RUNG_S_FAILED, "%s", why);
		j->fatal = rung_cu_is_sticky(r);
		goto out;
	}
	float ms = 0;
	if (e0 && e1 && rung_cu.cuEventElapsedTime(&ms, e0, e1) == CUDA_SUCCESS)
		t.kernel_us = ms * 1e3;
	r = rung_cu.cuMemcpyDtoH(hdr, gp, sizeof(hdr));
	uint32_t count = (uint32_t)hdr[12] | (uint32_t)hdr[13] << 8 | (uint32_t)hdr[14] << 16 | (uint32_t)hdr[15] << 24;
	uint32_t n = count < cap ? count : cap;
	raw = malloc((size_t)n * RUNG_TRACE_REC_BYTES + 1);
	if (r == CUDA_SUCCESS && raw && n)
		r = rung_cu.cuMemcpyDtoH(raw, recs, (size_t)n * RUNG_TRACE_REC_BYTES);
	if (r != CUDA_SUCCESS || !raw) {
		if (r != CUDA_SUCCESS)
			rung_cu_describe(why, sizeof(why), r);
		rung__wstep(res, RUNG_STEP_PROFILE, RUNG_S_FAILED, "reading the trace back: %s",
			    raw ? why : "out of host memory");
		goto out;
	}
	t.written = count;
	if (rung_trace_decode(&t, raw, n) || rung_trace_stats(&t)) {
		rung__wstep(res, RUNG_STEP_PROFILE, RUNG_S_FAILED, "trace: %s", rung_error_last());
		goto out;
	}
	json_t *aux = json_pack("{s:o}", "trace", rung_trace_to_json(&t));
	free(res->aux);
	res->aux = aux ? json_dumps(aux, JSON_COMPACT) : NULL;
	json_decref(aux);
	rung__wstep(res, RUNG_STEP_PROFILE, res->aux ? RUNG_S_OK : RUNG_S_FAILED, "trace: %d records, %d regions",
		    t.nrec, t.nregions);
out:
	if (!j->fatal) {
		/* Detach: later launches of this module record nothing. */
		memset(hdr, 0, sizeof(hdr));
		if (gp)
			rung_cu.cuMemcpyHtoD(gp, hdr, sizeof(hdr));
		if (recs)
			rung_cu.cuMemFree(recs);
		if (e0)
			rung_cu.cuEventDestroy(e0);
		if (e1)
			rung_cu.cuEventDestroy(e1);
		for (int i = 0; i < p->nargs; i++)
			if (buf[i].base)
				rung_cu.cuMemFree(buf[i].base);
	}
	free(raw);
	rung_trace_clear(&t);
}

/* Inputs inside the worker (gpu/worker/input.h). Generated inputs are written
 * on the device, straight into the buffers (gpu/worker/devcheck.c: the same
 * element function, core/rng_hd.h, so the same bytes); on the host path
 * (RUNG_HOST_CHECK=1, or no device module) chunk by chunk (rung_fill_at on a
 * thread pool) into one staging slab while the previous slab is uploaded
 * (pinned memory, async copies: generation and PCIe overlap); element i is a
 * pure function of (seed, name, i), so the bytes equal the serial fill's. npy
 * inputs are loaded whole. */
#include "gpu/worker/input.h"

#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/guard.h"
#include "core/metrics.h"
#include "core/npy.h"
#include "core/par.h"
#include "core/rng.h"
#include "core/timing.h"
#include "gpu/worker/devcheck.h"
#include "gpu/worker/launch.h"
#include "gpu/worker/report.h"
#include "gpu/worker/verify.h"
#include "gpu/worker/stage.h"

#define CH RUNG_METRICS_CHUNK

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
			rung_npy_clear(&arr);
			return NULL;
		}
		void *d = arr.data;
		arr.data = NULL;
		rung_npy_clear(&arr);
		return d;
	}
	void *buf = malloc((size_t)n * es + 1);
	if (!buf) {
		char b[32];
		rung__fmt_bytes(b, sizeof(b), (double)n * (double)es);
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

typedef struct {
	const rung_plan_arg *a;
	rung_init_kind init; /* a->init, or what the case's distribution makes of it */
	char *buf;        /* slab */
	int64_t s0, cnt;  /* slab start and length (elements) */
	uint64_t seed;
	uint64_t *hash;   /* per chunk of the whole argument, or NULL */
	size_t es;
} gen_job;

static void gen_chunk(void *ud, int64_t k)
{
	gen_job *g = ud;
	int64_t off = k * CH, cnt = g->cnt - off < CH ? g->cnt - off : CH;
	char *p = g->buf + (size_t)off * g->es;
	/* arguments validated before: cannot fail */
	rung_fill_at(p, g->a->dtype, g->s0 + off, cnt, g->init, g->a->a, g->a->b, g->seed, g->a->name);
	if (g->hash)
		g->hash[(g->s0 + off) / CH] = rung__hash_bytes(p, (size_t)cnt * g->es);
}

int rung__gen_upload(rung_wjob *j, const rung_plan_shape *sh, int i, uint64_t seed, rung_init_kind init,
		     const CUdeviceptr *dst, int ndst, uint64_t *hash, char *reason, size_t rlen)
{
	const rung_plan_arg *a = &j->p->args[i];
	CUstream st = j->c->stream;
	size_t es = rung_dtype_size(a->dtype);
	int64_t n = sh->numel[i];
	if (rung_fill_at(rung__stage(0), a->dtype, 0, 0, init, a->a, a->b, seed, a->name)) {
		rung__sfmt(reason, rlen, "input %s: %s", a->name, rung_error_last());
		return 1;
	}
	if (rung__devcheck_on(j->c)) {
		/* straight into the device buffer: the same bytes (core/rng_hd.h) */
		double t0 = rung_now_s();
		rung_hd_gen g;
		rung_gen_params(&g, a->dtype, init, a->a, a->b, seed, a->name);
		CUresult r = rung__dev_gen(st, dst[0], n, &g);
		for (int k = 1; k < ndst && r == CUDA_SUCCESS && n > 0; k++)
			r = rung_cu.cuMemcpyDtoDAsync(dst[k], dst[0], (size_t)n * es, st);
		if (r == CUDA_SUCCESS)
			r = hash ? rung__dev_hash(st, dst[0], n, es, hash) : rung_cu.cuStreamSynchronize(st);
		rung_timing_lap("inputs: generate + hash (device)", t0);
		if (r != CUDA_SUCCESS)
			return rung__cu_fail(j, r, reason, rlen, "generation of", a->name);
		rung__beat(j, "generating inputs");
		return 0;
	}
	int64_t slab = rung__slab_elems(es);
	CUresult r = CUDA_SUCCESS;
	int b = 0;
	for (int64_t s = 0; s < n && r == CUDA_SUCCESS; s += slab, b ^= 1) {
		int64_t cnt = n - s < slab ? n - s : slab;
		double t0 = rung_now_s();
		if ((r = rung__stage_wait(b)) != CUDA_SUCCESS)
			break;
		t0 = rung_timing_lap("inputs: upload (wait)", t0);
		gen_job g = { a, init, rung__stage(b), s, cnt, seed, hash, es };
		rung_par_for(rung__nchunks(cnt), gen_chunk, &g);
		rung_timing_lap("inputs: generate", t0);
		r = rung_cu.cuMemcpyHtoDAsync(dst[0] + (size_t)s * es, rung__stage(b), (size_t)cnt * es, st);
		if (r == CUDA_SUCCESS)
			r = rung__stage_mark(b, st);
		rung__beat(j, "generating inputs");
	}
	CUresult d = rung__stage_drain();
	if (r == CUDA_SUCCESS)
		r = d;
	for (int k = 1; k < ndst && r == CUDA_SUCCESS && n > 0; k++)
		r = rung_cu.cuMemcpyDtoDAsync(dst[k], dst[0], (size_t)n * es, st);
	if (r == CUDA_SUCCESS && ndst > 1)
		r = rung_cu.cuStreamSynchronize(st);
	if (r != CUDA_SUCCESS)
		return rung__cu_fail(j, r, reason, rlen, "upload of", a->name);
	return 0;
}

void *rung__npy_upload(rung_wjob *j, const rung_plan_shape *sh, int i, uint64_t seed, const CUdeviceptr *dst, int ndst,
		       char *reason, size_t rlen)
{
	const rung_plan_arg *a = &j->p->args[i];
	void *data = rung__make_input(j->p, sh, i, seed, reason, rlen);
	if (!data)
		return NULL;
	size_t bytes = (size_t)sh->numel[i] * rung_dtype_size(a->dtype);
	for (int d = 0; d < ndst; d++) {
		CUresult r = rung_cu.cuMemcpyHtoD(dst[d], data, bytes);
		if (r != CUDA_SUCCESS) {
			rung__cu_fail(j, r, reason, rlen, "upload of", a->name);
			free(data);
			return NULL;
		}
	}
	return data;
}

int rung__upload_input(rung_wjob *j, const rung_plan_shape *sh, int i, uint64_t seed, const CUdeviceptr *dst,
		       int ndst, char *reason, size_t rlen)
{
	if (!rung__stage_ready()) {
		rung__sfmt(reason, rlen, "out of host memory for the staging buffers");
		return 1;
	}
	if (j->p->args[i].init == RUNG_INIT_NPY) {
		void *d = rung__npy_upload(j, sh, i, seed, dst, ndst, reason, rlen);
		free(d);
		return d ? 0 : 1;
	}
	return rung__gen_upload(j, sh, i, seed, j->p->args[i].init, dst, ndst, NULL, reason, rlen);
}

int rung__bench_buffers(rung_wjob *j, rung_dbuf *buf, rung_kparam *kp, void **params)
{
	const rung_plan *p = j->p;
	rung_result *res = j->res;
	const rung_plan_shape *sh = &p->shapes[p->nshapes - 1];
	char why[512];
	/* Buffers at the benchmark shape with the first seed's inputs. */
	for (int i = 0; i < p->nargs; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (a->kind == RUNG_ARG_SCALAR) {
			rung__scalar_param(&kp[i], p, sh, i);
			params[i] = &kp[i];
			continue;
		}
		if (j->have_keep && j->keep[i].base) {
			/* the run case's buffers: its inputs were verified unchanged; an
			 * inout was changed by the kernel, so it gets its inputs again */
			buf[i] = j->keep[i];
			j->keep[i].base = 0;
			if (a->kind == RUNG_ARG_INOUT &&
			    rung__upload_input(j, sh, i, p->seeds[0], &buf[i].ptr, 1, why, sizeof(why))) {
				rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "%s", why);
				return 1;
			}
			memset(&kp[i], 0, sizeof(kp[i]));
			kp[i].p = buf[i].ptr;
			params[i] = &kp[i];
			continue;
		}
		size_t bytes = (size_t)sh->numel[i] * rung_dtype_size(a->dtype);
		buf[i].bytes = bytes;
		buf[i].total = rung_guard_total(bytes);
		CUresult r = rung_cu.cuMemAlloc(&buf[i].base, buf[i].total);
		if (r != CUDA_SUCCESS) {
			buf[i].base = 0;
			rung__step_fault(j, RUNG_STEP_BENCH, r, "bench buffers");
			return 1;
		}
		buf[i].ptr = buf[i].base + rung_guard_size();
		if (rung__write_bands(j, &buf[i], j->band_key, a->name, why, sizeof(why))) {
			rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "%s", why);
			return 1;
		}
		if (a->kind != RUNG_ARG_OUTPUT) {
			/* generated in chunks straight to the device (no whole host copy) */
			if (rung__upload_input(j, sh, i, p->seeds[0], &buf[i].ptr, 1, why, sizeof(why))) {
				rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "%s", why);
				return 1;
			}
		}
		memset(&kp[i], 0, sizeof(kp[i]));
		kp[i].p = buf[i].ptr;
		params[i] = &kp[i];
	}
	return 0;
}

/* The worker's host staging slabs and the readback walk (gpu/worker/stage.h).
 * The worker never holds whole host copies of the arguments: inputs are
 * generated into a slab while the previous one uploads (gpu/worker/input.c),
 * and every readback copies the next slab while the host hashes or compares
 * this one (gpu/worker/case.c), so peak RSS stays near the four slabs. */
#include "gpu/worker/stage.h"

#include <stdlib.h>
#include <string.h>

#include "core/metrics.h"
#include "core/metrics_hd.h"
#include "core/rng.h"

#define STAGE_BYTES ((size_t)4 << 20)
#define NSTAGE 4
#define CH RUNG_METRICS_CHUNK

/* Staging slabs, kept for the process's life: page-locked where the driver
 * gives it (async copies that overlap host work), else plain memory (the
 * copies then complete before returning). Each has an event marking the end of
 * the last async copy from or into it. */
static char *stage[NSTAGE];
static CUevent stage_ev[NSTAGE];
static bool stage_busy[NSTAGE];

bool rung__stage_ready(void)
{
	for (int i = 0; i < NSTAGE; i++) {
		if (stage[i])
			continue;
		void *p = NULL;
		if (!rung_cu.cuMemHostAlloc || rung_cu.cuMemHostAlloc(&p, STAGE_BYTES, 0) != CUDA_SUCCESS || !p)
			p = malloc(STAGE_BYTES);
		if (!p)
			return false;
		stage[i] = p;
		if (rung_cu.cuEventCreate(&stage_ev[i], CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS)
			stage_ev[i] = NULL;
	}
	return true;
}

char *rung__stage(int b)
{
	return stage[b];
}

CUresult rung__stage_wait(int b)
{
	if (!stage_busy[b])
		return CUDA_SUCCESS;
	stage_busy[b] = false;
	return rung_cu.cuEventSynchronize(stage_ev[b]);
}

CUresult rung__stage_drain(void)
{
	CUresult first = CUDA_SUCCESS;
	for (int b = 0; b < NSTAGE; b++) {
		CUresult r = rung__stage_wait(b);
		if (first == CUDA_SUCCESS)
			first = r;
	}
	return first;
}

CUresult rung__stage_mark(int b, CUstream st)
{
	if (!stage_ev[b])
		return rung_cu.cuStreamSynchronize(st);
	CUresult r = rung_cu.cuEventRecord(stage_ev[b], st);
	if (r == CUDA_SUCCESS)
		stage_busy[b] = true;
	return r;
}

int64_t rung__slab_elems(size_t es)
{
	int64_t e = (int64_t)(STAGE_BYTES / es);
	return e - e % CH;
}

int64_t rung__nchunks(int64_t n)
{
	return (n + CH - 1) / CH;
}

uint64_t rung__hash_bytes(const void *p, size_t len)
{
	/* core/metrics_hd.h: a sum of position-mixed words, which the device
	 * computes with many threads per chunk (gpu/kernels/check.cu) */
	const unsigned char *b = p;
	uint64_t sum = 0, k = 0;
	size_t off = 0;
	for (; off + 8 <= len; off += 8, k++) {
		uint64_t w;
		memcpy(&w, b + off, 8);
		sum += rung_hd_hash_term(k, w);
	}
	if (off < len) {
		uint64_t w = 0;
		memcpy(&w, b + off, len - off);
		sum += rung_hd_hash_term(k, w);
	}
	return rung_hd_hash_final(sum, len);
}

/* --- the readback walk ---------------------------------------------------------- */

/* Starts reading slab [s, s + cnt) of the nsrc (1 or 2) device arrays into
 * staging pair p: stage[p] for one array, stage[2p] and stage[2p + 1] for two. */
static CUresult read_issue(rung_wjob *j, const CUdeviceptr *src, int nsrc, size_t es, int64_t s, int64_t cnt, int p)
{
	CUstream st = j->c->stream;
	for (int k = 0; k < nsrc; k++) {
		int b = nsrc == 1 ? p : 2 * p + k;
		CUresult r = rung_cu.cuMemcpyDtoHAsync(stage[b], src[k] + (size_t)s * es, (size_t)cnt * es, st);
		if (r == CUDA_SUCCESS)
			r = rung__stage_mark(b, st);
		if (r != CUDA_SUCCESS)
			return r;
	}
	return CUDA_SUCCESS;
}

/* Waits for pair p (as read_issue numbers them). */
static CUresult read_wait(int nsrc, int p)
{
	CUresult first = CUDA_SUCCESS;
	for (int k = 0; k < nsrc; k++) {
		CUresult r = rung__stage_wait(nsrc == 1 ? p : 2 * p + k);
		if (first == CUDA_SUCCESS)
			first = r;
	}
	return first;
}

CUresult rung__walk_start(rung_slab_walk *w, rung_wjob *j, const CUdeviceptr *src, int nsrc, size_t es, int64_t n)
{
	*w = (rung_slab_walk){ .j = j, .src = src, .nsrc = nsrc, .p = 0, .es = es, .n = n, .slab = rung__slab_elems(es),
			       .s = 0 };
	if (n <= 0)
		return CUDA_SUCCESS;
	CUresult r = read_issue(j, src, nsrc, es, 0, n < w->slab ? n : w->slab, 0);
	if (r != CUDA_SUCCESS)
		rung__stage_drain();
	return r;
}

int rung__walk_next(rung_slab_walk *w, int64_t *s0, int64_t *cnt, char **bufs, CUresult *err)
{
	if (w->s >= w->n)
		return 0;
	int64_t c = w->n - w->s < w->slab ? w->n - w->s : w->slab;
	CUresult r = read_wait(w->nsrc, w->p);
	int64_t next = w->s + c;
	if (r == CUDA_SUCCESS && next < w->n)
		r = read_issue(w->j, w->src, w->nsrc, w->es, next, w->n - next < w->slab ? w->n - next : w->slab, w->p ^ 1);
	if (r != CUDA_SUCCESS) {
		rung__stage_drain();
		*err = r;
		return -1;
	}
	for (int k = 0; k < w->nsrc; k++)
		bufs[k] = stage[w->nsrc == 1 ? w->p : 2 * w->p + k];
	*s0 = w->s;
	*cnt = c;
	w->s = next;
	w->p ^= 1;
	return 1;
}

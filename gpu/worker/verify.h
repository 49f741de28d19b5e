/* rung's own kernels for verifying launches inside the worker (the source is
 * gpu/kernels/verify.cu, compiled to PTX at build time): element-wise compare
 * with the check's tolerance, the reference's peak, a perturbed second input
 * set, guard bands, and a shared-memory fill. Inside the worker only. */
#ifndef RUNG_GPU_WORKER_VERIFY_H
#define RUNG_GPU_WORKER_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/metrics.h"
#include "gpu/worker/child.h"

/* One compared array of one launch (layout shared with verify.cu). */
typedef struct {
	uint64_t mismatches, unwritten, first_inv, nfinite;
	double sq, dot, gg, rr;
	uint64_t maxabs; /* bits of a double */
} rung_vstat;

/* Loads the module once per process (the sm_90 CUBIN where it fits, else the
 * PTX through the driver's JIT). False with reason when it cannot be loaded. */
bool rung__verify_ready(rung_wctx *c, char *reason, size_t rlen);

/* got against ref (n elements of dt) into *stat (device memory, zeroed by the
 * caller): the tolerance test of core/metrics.c, or bit-exact when exact. */
CUresult rung__verify(rung_wctx *c, CUstream st, CUdeviceptr got, CUdeviceptr ref, int64_t n, rung_dtype dt,
		      double atol, double rtol, bool check_poison, int poison_variant, bool exact, CUdeviceptr stat);
/* max |finite ref| as the bits of a double into *out (device, zeroed first). */
CUresult rung__peak(rung_wctx *c, CUstream st, CUdeviceptr ref, int64_t n, rung_dtype dt, CUdeviceptr out);
/* dst = src with about 1 element in 64 replaced by another of its elements,
 * at positions drawn from nonce. */
CUresult rung__perturb(rung_wctx *c, CUstream st, CUdeviceptr dst, CUdeviceptr src, int64_t n, size_t es,
		       uint64_t nonce);
/* Adds the corrupted bytes of b's two guard bands to *bad (device u64). */
CUresult rung__bands(rung_wctx *c, CUstream st, const rung_dbuf *b, CUdeviceptr bad);
/* Both guard bands of b under band key `key` (core/guard_hd.h; recorded in
 * b->band), uploaded. 0, or 1 with reason (fatal set on a sticky error). */
int rung__write_bands(rung_wjob *j, rung_dbuf *b, uint64_t key, const char *name, char *reason, size_t rlen);
/* Fills every SM's shared memory with pattern (one launch, all opt-in smem). */
CUresult rung__smem_fill(rung_wctx *c, CUstream st, uint32_t pattern);
/* Writes the poison (variant 0 or 1) over n elements at ptr, asynchronously. */
CUresult rung__poison_async(CUstream st, CUdeviceptr ptr, rung_dtype dt, int64_t n, int variant);

/* 64 bits the kernel cannot know: /dev/urandom mixed with the clock and pid. */
uint64_t rung__nonce(void);
/* Which of nsets input sets the next launch runs on: a xorshift64 seeded from
 * rung__nonce (0 when there is one set). */
int rung__pick_set(int nsets);
/* cuMemAlloc of at least one byte; *p is 0 on failure. */
CUresult rung__dalloc(CUdeviceptr *p, size_t bytes);

/* First bad index of a stat, or -1. */
int64_t rung__vstat_first(const rung_vstat *s);

/* The check's tolerance for output dtype dt under plan p (the spec's [check]
 * atol/rtol/min_psnr/min_cossim over the dtype's defaults). */
void rung__plan_check_opts(rung_check_opts *o, const rung_plan *p, rung_dtype dt);

#endif

/* The device-side check (gpu/worker/devcheck.c; kernels gpu/kernels/check.cu):
 * inputs generated straight into the device buffers, chunk hashes, the
 * reference's peak and poison, and the streaming metrics, with only summaries
 * read back. Same bytes and bits as the host path (core/rng.c, core/metrics.c,
 * rung__hash_bytes), which stays as the fallback and the oracle
 * (RUNG_HOST_CHECK=1, or a module that does not load). Inside the worker, and
 * tests/gpu_devcheck.c. */
#ifndef RUNG_GPU_WORKER_DEVCHECK_H
#define RUNG_GPU_WORKER_DEVCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/metrics.h"
#include "core/rng.h"
#include "gpu/worker/child.h"

/* Loads the module once per process (the sm_90 CUBIN where arch is sm_90, else
 * the PTX) and checks its layout against the host's. False with reason when it
 * cannot be used. */
bool rung__devcheck_load(const char *arch, int sms, char *reason, size_t rlen);
/* The device path for this worker: off under RUNG_HOST_CHECK=1 (any value but
 * "0" or empty) or when the module does not load (said once on stderr, as a
 * "rung worker:" line). */
bool rung__devcheck_on(rung_wctx *c);

/* Elements [0, n) of stream g (rung_gen_params) into dst, on stream st. */
CUresult rung__dev_gen(CUstream st, CUdeviceptr dst, int64_t n, const rung_hd_gen *g);
/* The hash of every chunk of RUNG_METRICS_CHUNK elements of es bytes of the n
 * at buf, into hash[0 .. rung__nchunks(n)) (host memory; waits on st). Equal to
 * rung__hash_bytes over the same chunks. */
CUresult rung__dev_hash(CUstream st, CUdeviceptr buf, int64_t n, size_t es, uint64_t *hash);
/* max |finite ref| (rung_metrics_peak), and with count_poison the elements
 * holding the poison (variant 0) and the first of them (-1: none). Waits on st. */
CUresult rung__dev_scan(CUstream st, CUdeviceptr ref, int64_t n, rung_dtype dt, bool count_poison, double *peak,
			int64_t *pcount, int64_t *pfirst);
/* The merged accumulator of got against ref under feed f (rung_metrics_ctx.f):
 * every chunk fed on the device and merged in chunk order there, so *total
 * equals the host's acc[0] merged with acc[1], acc[2], ... (waits on st). */
CUresult rung__dev_metrics(CUstream st, CUdeviceptr got, CUdeviceptr ref, int64_t n, const rung_hd_feed *f,
			   rung_metrics_acc *total);

#endif

/* Inputs inside the worker (gpu/worker/input.c): generated from the seed or
 * loaded from .npy, and uploaded to device buffers; and the benchmark shape's
 * buffers with the first seed's inputs, which the bench, compare and the
 * profile rungs launch on. Inside the worker only. */
#ifndef RUNG_GPU_WORKER_INPUT_H
#define RUNG_GPU_WORKER_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/worker/child.h"

/* Host input data for arg i at (shape, seed): generated or loaded from .npy.
 * Returns malloc'd bytes or NULL with reason set. */
void *rung__make_input(const rung_plan *p, const rung_plan_shape *sh, int i, uint64_t seed, char *reason,
		       size_t rlen);

/* Generates arg i with init kind `init` (its own, or the case distribution's:
 * rung_dist_init) into dst[0..ndst), hashing chunks of RUNG_METRICS_CHUNK
 * elements into hash (may be NULL): slab k+1 is generated (in parallel) into
 * one staging slab while slab k uploads from the other to dst[0]; the other
 * destinations are then copied on the device. Returns 0, or 1 with reason
 * (j->fatal on a sticky error). */
int rung__gen_upload(rung_wjob *j, const rung_plan_shape *sh, int i, uint64_t seed, rung_init_kind init,
		     const CUdeviceptr *dst, int ndst, uint64_t *hash, char *reason, size_t rlen);
/* npy input: whole host array (user-provided), uploaded to dst[]. Returns the
 * data (caller frees) or NULL with reason. */
void *rung__npy_upload(rung_wjob *j, const rung_plan_shape *sh, int i, uint64_t seed, const CUdeviceptr *dst,
		       int ndst, char *reason, size_t rlen);
/* Input arg i of shape sh under seed into the device buffers dst[0..ndst)
 * (payload pointers): generated in chunks through the staging slabs, or an npy
 * input loaded whole. Returns 0, or 1 with reason (j->fatal on a sticky
 * error). */
int rung__upload_input(rung_wjob *j, const rung_plan_shape *sh, int i, uint64_t seed, const CUdeviceptr *dst,
		       int ndst, char *reason, size_t rlen);

/* Buffers at the benchmark shape with the first seed's inputs (the run case's
 * kept buffers where there are some), and the kernel parameters pointing at
 * them. 1 on failure (bench step FAILED with reason). */
int rung__bench_buffers(rung_wjob *j, rung_dbuf *buf, rung_kparam *kp, void **params);

#endif

/* Modules, launch geometry and launches inside the worker
 * (gpu/worker/launch.c). Inside the worker only. */
#ifndef RUNG_GPU_WORKER_LAUNCH_H
#define RUNG_GPU_WORKER_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu/worker/child.h"

/* Loads a CUBIN and finds the kernel; 1 with reason on failure. */
int rung__load_fn(rung_wjob *j, const void *img, size_t len, const rung_plan_kernel *kn, CUmodule *mod,
		  CUfunction *fn, int *static_smem, char *reason, size_t rlen);
/* Checks every shape's geometry (ref: the reference's) against the device and
 * the function; opts in to > 48 KiB dynamic shared memory. 1 with reason. */
int rung__check_geometry(rung_wjob *j, CUfunction fn, int static_smem, bool ref, const char *name, char *reason,
			 size_t rlen);
/* Fills a scalar parameter from the shape's value for arg i; for a scratch
 * argument, its buffer (rung__scratch_ready) where the shape gives it bytes,
 * else a null pointer. */
void rung__scalar_param(rung_kparam *kp, const rung_plan *p, const rung_plan_shape *sh, int i);
/* The scratch arguments' buffers (kind = scratch, docs/SPEC.md): one per
 * argument index, as large as any shape of p needs (also of an earlier p
 * until rung__scratch_release: compare readies A's and B's plans). 1 with
 * reason when device memory runs out. */
int rung__scratch_ready(rung_wjob *j, const rung_plan *p, char *reason, size_t rlen);
/* Zeroes every scratch buffer on st: queued before each launch of run,
 * check and bench, outside the timed window (a Triton kernel's scratch is a
 * per-program workspace; nothing carries over from one launch to the next). */
CUresult rung__scratch_zero(CUstream st);
/* Frees the scratch buffers (the end of a job); only forgets them after a
 * sticky error (free_them false: the context is gone). */
void rung__scratch_release(bool free_them);
/* Launches f with geometry g on the worker's stream (asynchronous). */
CUresult rung__launch(rung_wctx *c, CUfunction f, const rung_geom *g, void **params);
/* A stream at the device's greatest (first) or lowest priority, a plain one
 * where priorities are not offered: the worker's own stream goes first, so
 * rung's check kernels get SMs before the second input set's reference run
 * (gpu/worker/bset.c), which on the H200 held every SM for 57 ms while they
 * waited. */
CUresult rung__stream_create(CUstream *st, unsigned flags, bool first);

#endif

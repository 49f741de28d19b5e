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
/* Fills a scalar parameter from the shape's value for arg i. */
void rung__scalar_param(rung_kparam *kp, const rung_plan *p, const rung_plan_shape *sh, int i);
/* Launches f with geometry g on the worker's stream (asynchronous). */
CUresult rung__launch(rung_wctx *c, CUfunction f, const rung_geom *g, void **params);
/* A stream at the device's greatest (first) or lowest priority, a plain one
 * where priorities are not offered: the worker's own stream goes first, so
 * rung's check kernels get SMs before the second input set's reference run
 * (gpu/worker/bset.c), which on the H200 held every SM for 57 ms while they
 * waited. */
CUresult rung__stream_create(CUstream *st, unsigned flags, bool first);

#endif

/* One (shape, seed) case of the run and check rungs (gpu/worker_case.c), and
 * the streaming helpers the bench shares. Inside the worker only. */
#ifndef RUNG_GPU_WORKER_CASE_H
#define RUNG_GPU_WORKER_CASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/worker/child.h"

typedef enum { RUNG_CASE_OK, RUNG_CASE_FAULT, RUNG_CASE_WRONG } rung_case_outcome;

/* Runs shape s with seed index kseed and input distribution dist (generated
 * float inputs take rung_dist_init's data; ints compares exactly): inputs
 * generated in chunks straight to the device, the reference into its own
 * buffers (kept on the device), the candidate on guarded and poisoned buffers,
 * then guards, unchanged inputs and streaming metrics (appended to j->res). `first` is the run case (its time goes to
 * res->run_ms, messages carry no " at ... seed" suffix). On FAULT / WRONG,
 * reason says why. */
rung_case_outcome rung__run_case(rung_wjob *j, int s, int kseed, rung_dist dist, bool first, char *reason,
				 size_t rlen);

/* Generates input arg i of shape sh under seed into the device buffers dst[0..ndst)
 * (payload pointers) in chunks through a host staging buffer, in parallel; npy
 * inputs are loaded whole. Returns 0, or 1 with reason (j->fatal on a sticky
 * error). */
int rung__upload_input(rung_wjob *j, const rung_plan_shape *sh, int i, uint64_t seed, const CUdeviceptr *dst,
		       int ndst, char *reason, size_t rlen);

#endif

/* One (shape, seed) case of the run and check rungs (gpu/worker/case.c).
 * Inside the worker only. */
#ifndef RUNG_GPU_WORKER_CASE_H
#define RUNG_GPU_WORKER_CASE_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu/worker/child.h"

typedef enum { RUNG_CASE_OK, RUNG_CASE_FAULT, RUNG_CASE_WRONG } rung_case_outcome;

/* Runs shape s with seed index kseed and input distribution dist (generated
 * float inputs take rung_dist_init's data; ints compares exactly): inputs
 * generated in chunks straight to the device, the reference into its own
 * buffers (kept on the device), the candidate on guarded and poisoned buffers,
 * then guards, unchanged inputs and streaming metrics (appended to j->res).
 * `first` is the run case (its time goes to res->run_ms, messages carry no
 * " at ... seed" suffix; on success its candidate buffers are kept in j->keep
 * and its reference outputs become the bench's set 0). On FAULT / WRONG,
 * reason says why. */
rung_case_outcome rung__run_case(rung_wjob *j, int s, int kseed, rung_dist dist, bool first, char *reason,
				 size_t rlen);

/* Frees the kept run-case buffers (if the bench did not take them). */
void rung__keep_clear(rung_wjob *j);

#endif

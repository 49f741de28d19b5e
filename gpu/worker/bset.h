/* The bench rung's input sets (gpu/worker/bset.c; the type is rung_bset in
 * gpu/worker/child.h): prepared while the run case is checked, used by the
 * bench and the determinism run. Inside the worker only. */
#ifndef RUNG_GPU_WORKER_BSET_H
#define RUNG_GPU_WORKER_BSET_H

#include <stddef.h>

#include "gpu/worker/child.h"

/* Queued while the run case is checked, from the reference's buffers `ref`
 * of that case (its inputs pristine, its outputs the expected ones), right
 * after the candidate's launch: set 0's pristine inputs, and set 1 (perturbed)
 * with the reference's outputs for it on a stream of its own. */
void rung__bench_prep(rung_wjob *j, const rung_plan_shape *sh, rung_dbuf *ref);
/* The run case passed: set 0's expected outputs are moved out of ref (which
 * then no longer owns them), with their peaks. */
void rung__bench_prep_keep(rung_wjob *j, rung_dbuf *ref, const double *peak);
/* Waits for set 1 and reads its peaks. 0, or 1 with reason (a fault). */
int rung__bset_wait(rung_wjob *j, char *reason, size_t rlen);
void rung__bset_clear(rung_wjob *j);

#endif

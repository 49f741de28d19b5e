/* The bench rung and the check rung's second run of the run case
 * (gpu/worker/bench.c). Inside the worker only. */
#ifndef RUNG_GPU_WORKER_BENCH_H
#define RUNG_GPU_WORKER_BENCH_H

#include <stddef.h>

#include "gpu/worker/child.h"

/* The check rung's second run of the run case: the kept buffers run again
 * with the other poison and the shared memory filled, and the outputs must be
 * bit-identical (or, with [check] deterministic = false, their difference is
 * reported). Returns 0, 1 with reason (check FAILED), or -1 with reason (a
 * fault). */
int rung__determinism(rung_wjob *j, char *reason, size_t rlen);
/* The bench rung at the benchmark shape. */
void rung__wbench(rung_wjob *j);

#endif

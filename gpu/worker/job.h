/* One job inside the worker (gpu/worker/job.c): the run, check, bench and
 * profile rungs in order. Inside the worker only. */
#ifndef RUNG_GPU_WORKER_JOB_H
#define RUNG_GPU_WORKER_JOB_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu/worker/child.h"

/* Runs run + check (+ bench) for one plan into res. Module images are the
 * job's blobs. Never fails: every problem becomes a step verdict. */
void rung__wjob_run(rung_wctx *c, const rung_plan *p, const void *kcubin, size_t kcubin_len, const void *rcubin,
		    size_t rcubin_len, rung_result *res, bool *fatal);

#endif

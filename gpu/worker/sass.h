/* The per-PC profiles inside the worker (gpu/worker/sass.c). Inside the worker only. */
#ifndef RUNG_GPU_WORKER_SASS_H
#define RUNG_GPU_WORKER_SASS_H

#include "gpu/worker/child.h"

/* One launch at the benchmark shape under CUPTI SASS metrics
 * (RUNG_JOB_PROFILE | RUNG_JOB_SASS): result.aux "sass". */
void rung__wsass(rung_wjob *j);
/* One launch at the benchmark shape under CUPTI PC sampling
 * (RUNG_JOB_PROFILE | RUNG_JOB_STALLS): result.aux "stall". */
void rung__wstall(rung_wjob *j);

#endif

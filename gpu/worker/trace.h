/* The rung.h trace inside the worker (gpu/worker/trace.c). Inside the worker only. */
#ifndef RUNG_GPU_WORKER_TRACE_H
#define RUNG_GPU_WORKER_TRACE_H

#include "gpu/worker/child.h"

/* One launch at the benchmark shape with the trace buffer attached
 * (RUNG_JOB_TRACE): result.aux "trace". */
void rung__wtrace(rung_wjob *j);

#endif

/* The profile rung inside the worker (gpu/worker/profile.c). Inside the worker only. */
#ifndef RUNG_GPU_WORKER_PROFILE_H
#define RUNG_GPU_WORKER_PROFILE_H

#include "gpu/worker/child.h"

/* CUPTI counters at the benchmark shape (RUNG_JOB_PROFILE): result.counters. */
void rung__wprofile(rung_wjob *j);

#endif

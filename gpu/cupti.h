/* Kernel timing through CUPTI's activity API (libcupti.so.13, loaded with
 * dlopen; it does not pull in libcuda). KERNEL records (serial mode, no code
 * instrumentation: cupti.c says why not CONCURRENT_KERNEL) give each kernel's
 * own start/end on the GPU in ns, so launch overhead is outside the measured
 * window by construction. Used only in the worker. RUNG_CUPTI=0 (diagnostic)
 * does not load CUPTI: timing falls back to CUDA events. */
#ifndef RUNG_GPU_CUPTI_H
#define RUNG_GPU_CUPTI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"

/* Loads libcupti (RUNG_CUDA_LIBDIR, /usr/local/cuda/lib64,
 * /usr/local/cuda/extras/CUPTI/lib64, then the plain soname) and registers the
 * buffer callbacks. RUNG_ENOTFOUND with a message when absent. Idempotent. */
int rung_cupti_load(void);
bool rung_cupti_available(void);

/* Starts collecting kernel records whose (mangled) name equals `name`. */
int rung_cupti_start(const char *name);
/* Same for kernels named either name (A/B comparison); records come in
 * completion order. */
int rung_cupti_start2(const char *name_a, const char *name_b);
/* Flushes and appends the durations (ns) of the matching kernels completed since
 * the last call, in completion order, up to max; returns how many (or negative). */
int rung_cupti_collect(double *ns, int max);
/* Records of kernels other than the ones asked for (and other than rung's own,
 * named rung_*) completed while collecting, since the last call: the count,
 * and the first one's name into name (may be NULL). Call after
 * rung_cupti_collect, which flushes. */
int rung_cupti_others(char *name, size_t len);
/* Flushes, drops what was collected so far (matching records and others) and
 * from now on ignores every record of a kernel that started before this call
 * (cuptiGetTimestamp: the records' clock), however late a flush delivers it.
 * rung_cupti_start does the same. */
void rung_cupti_mark(void);
/* Stops collecting (disables the activity kind unless busy accounting is on,
 * drops pending records). */
void rung_cupti_stop(void);

/* Busy accounting (`rung eval --stats`): while on, the kernel records stay
 * enabled and every kernel's duration (any name) is summed. rung_cupti_busy_take
 * flushes, returns the sum (ns) and the count since the last take, and resets.
 * Off disables the records unless a collection is running. */
int rung_cupti_busy_on(void);
void rung_cupti_busy_take(double *ns, int64_t *kernels);
void rung_cupti_busy_off(void);
/* Suspends (true) and resumes (false) the busy accounting's records around a
 * range-profiler session, keeping the sum. */
void rung_cupti_busy_pause(bool pause);

/* NVML (libnvidia-ml.so.1, dlopen), all optional: -1 / NAN / NULL when absent. */
int rung_nvml_open(const char *uuid); /* "GPU-xxxxxxxx-..." or NULL for index 0 */
int rung_nvml_sm_clock_mhz(void);     /* current SM clock */
int rung_nvml_max_sm_clock_mhz(void);
double rung_nvml_power_limit_w(void);
/* The other processes with a context on the device now, added to s
 * (rung_gpu_procs_add) with s->read set: NVML's compute processes and
 * MPS clients, this process and the MPS server (nvidia-cuda-mps-server, which
 * holds every MPS client's context) left out; names from /proc/PID/comm, else
 * NVML's. Returns how many were listed, or -1 when NVML cannot tell. */
int rung_nvml_others(rung_gpu_procs *s);
const char *rung_nvml_driver_version(void); /* "580.95.05" */

#endif

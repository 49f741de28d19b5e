/* CUPTI range profiler (libcupti.so.13, dlopened): hardware counters of one
 * kernel launch, with kernel replay (CUPTI reruns the kernel once per pass and
 * restores memory in between). Never time in the same run. Used only in the
 * worker (gpu/worker/profile.c). Steps: /work/shared/notes/gpu-apis.md. */
#ifndef RUNG_GPU_CUPTI_PROF_H
#define RUNG_GPU_CUPTI_PROF_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda.h>

/* Launches the kernel once (and waits); returns its CUresult. */
typedef CUresult (*rung_prof_launch_fn)(void *ud);

/* Collects metrics[0..n) over one launch into values[] (NAN for a metric the
 * chip does not have: it is named in skipped, comma separated). Returns 0;
 * RUNG_EUNSUPPORTED when profiling is not possible here (CUPTI missing,
 * device unsupported, CUPTI_ERROR_INSUFFICIENT_PRIVILEGES): why says which;
 * RUNG_ECUDA when the launch failed (*launch_err holds its CUresult). */
int rung_cupti_profile(double *values, char *skipped, size_t skipped_len, CUcontext ctx, CUdevice dev,
		       const char *const *metrics, int n, rung_prof_launch_fn launch, void *ud, CUresult *launch_err,
		       char *why, size_t why_len);

/* Kernel durations in ns from the range profiler's gpu__time_duration.sum,
 * the counter ncu reports as Duration, `calls` launches in one session (auto
 * range: every kernel is a range, at most max_ranges in all). With between
 * NULL, launch(ud) is called `calls` times inside one Start/Stop; each call
 * must launch the same number of kernels, the measured one FIRST (the
 * profiler names auto ranges by index, not by kernel). With between, each
 * call is Start, launch(ud) (the measured kernel alone), Stop, then
 * between(ud) outside any range (what the launch needs around it: checks,
 * the next inputs, the flush). ns[0..*got) are the calls' first kernels. The
 * configuration must take one pass, so nothing is replayed
 * (RUNG_EUNSUPPORTED otherwise, or when the profiler cannot run here; why
 * says which). Activity records must be off meanwhile. */
int rung_cupti_durations(double *ns, int *got, int calls, int max_ranges, CUcontext ctx, CUdevice dev,
			 rung_prof_launch_fn launch, rung_prof_launch_fn between, void *ud, CUresult *launch_err, char *why,
			 size_t why_len);

/* The duration window's host side made once and kept for the worker's life
 * (an experiment of #31 item 2: RUNG_PROFILER_HOST=keep makes it at the first
 * window, =thread on a thread beside the bench; off otherwise, and
 * rung_cupti_durations makes it per session as before). prepare is
 * idempotent and thread-safe: 0 once it is ready, RUNG_EUNSUPPORTED when it
 * cannot be made (then every window makes its own). */
bool rung_cupti_host_kept(void);
int rung_cupti_durations_prepare(CUdevice dev);

#endif

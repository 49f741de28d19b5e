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

#endif

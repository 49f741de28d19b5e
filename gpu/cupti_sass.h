/* CUPTI SASS metrics (cupti_sass_metrics.h, libcupti.so.13 dlopened): exact
 * per-instruction counts of one launch, smsp__sass_inst_executed and
 * smsp__sass_thread_inst_executed per PC offset of one function. CUPTI
 * patches the binary (lazy patching: at the first launch inside the enabled
 * range), so never time in the same run. Worker only (gpu/worker/sass.c). */
#ifndef RUNG_GPU_CUPTI_SASS_H
#define RUNG_GPU_CUPTI_SASS_H

#include <stddef.h>

#include <cuda.h>

#include "core/sass_prof.h"
#include "gpu/cupti_prof.h"

/* Collects the counts of function `func` (mangled name) over one call of
 * launch into *out (sorted by pc; out->func set). Returns 0; RUNG_EUNSUPPORTED
 * when SASS metrics are not possible here (CUPTI missing, privileges): why
 * says which; RUNG_ECUDA when the launch or CUPTI failed (*launch_err holds the
 * launch's CUresult when that was the cause). */
int rung_cupti_sass(rung_sass_counts *out, CUcontext ctx, CUdevice dev, const char *func, rung_prof_launch_fn launch,
		    void *ud, CUresult *launch_err, char *why, size_t why_len);

#endif

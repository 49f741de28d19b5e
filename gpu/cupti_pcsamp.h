/* CUPTI PC sampling (cupti_pcsampling.h, libcupti.so.13 dlopened): warp stall
 * reasons per PC of one launch, kernel-serialized, between Start and Stop.
 * Sampling does not patch the binary, but it slows the kernel and its
 * counters are per-SM interrupts: never time in the same run. Worker only
 * (gpu/worker/sass.c, RUNG_JOB_STALLS). */
#ifndef RUNG_GPU_CUPTI_PCSAMP_H
#define RUNG_GPU_CUPTI_PCSAMP_H

#include <stddef.h>

#include <cuda.h>

#include "core/stall.h"
#include "gpu/cupti_prof.h"

/* Samples function `func` (mangled name) over one call of launch into *out
 * (rung_stall_finish done; out->func set). period: log2 of the sampling
 * interval in cycles (5..31), 0 for CUPTI's default. Returns 0;
 * RUNG_EUNSUPPORTED when PC sampling is not possible here (CUPTI missing,
 * privileges): why says which; RUNG_ECUDA when the launch or CUPTI failed
 * (*launch_err holds the launch's CUresult when that was the cause). */
int rung_cupti_pcsamp(rung_stall *out, CUcontext ctx, const char *func, int period, rung_prof_launch_fn launch,
		      void *ud, CUresult *launch_err, char *why, size_t why_len);

#endif

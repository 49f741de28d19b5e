/* The records' calibration inside the worker (core/calib.h says what and
 * why; docs/CHECKS.md "Kernels of 50 us and more"). */
#ifndef RUNG_GPU_WORKER_CALIB_H
#define RUNG_GPU_WORKER_CALIB_H

#include "core/result.h"
#include "gpu/worker/child.h"

/* After the bench's timed loop on CUPTI's records (their collection stopped,
 * the flush ready): measures the launch floor on rung's empty kernel, takes
 * it off samples[0..n) and refills b from them (method
 * "cupti-activity-calibrated", record_median the records' own); or leaves
 * them as they are and says why in b->calibration. RUNG_RECORD_CAL=off
 * (diagnostic) skips it. Returns 0, or -1 when the statistics failed. */
int rung__calibrate_records(rung_wctx *c, rung_bench *b, double *samples, int n, double rse_target);

#endif

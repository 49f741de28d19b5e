/* The speed-of-light guard applied to one result (docs/CHECKS.md, "Roofline";
 * docs/ARCHITECTURE.md, "Roofline and profiling"). After the bench rung the
 * parent computes the time floor at the benchmark shape from the task's
 * [roofline] flops/bytes and the device ceilings, stores it in
 * result.floor_ms, and marks the result impossible when the median beats the
 * floor by more than RUNG_ROOFLINE_TOL. */
#ifndef RUNG_CORE_ROOFLINE_GUARD_H
#define RUNG_CORE_ROOFLINE_GUARD_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"
#include "core/roofline.h"

/* 3 %: timing noise of a stable median is far below this, and the datasheet
 * ceilings the guard uses are at or above what the hardware reaches. */
#define RUNG_ROOFLINE_TOL 0.03

/* Device attributes from a result's environment ("sm_90" -> 9, 0; clocks in
 * MHz -> kHz). RUNG_EINVAL when the environment is not valid. */
int rung_env_device_attrs(rung_device_attrs *out, const rung_env *e);

/* The ceilings the guard uses: the datasheet ones from env, each replaced by
 * the measured one (may be NULL) where that is higher or the datasheet has
 * none. A measured ceiling below the hardware's peak must never make a
 * legitimately fast kernel look impossible, so the guard takes the higher. */
void rung_ceilings_guard(rung_ceilings *out, const rung_env *e, const rung_ceilings *measured);

/* The compute ceiling for a kernel whose tensor arguments have these dtypes:
 * the highest rung_ceilings_peak_for() over them (NAN if none present). */
double rung_ceilings_peak_for_dtypes(const rung_ceilings *c, const rung_dtype *dts, int n);

/* Sets r->floor_ms = rung_time_floor_ms(flops, bytes, peak, bw) and
 * r->impossible when the bench median is below floor * (1 - tol), with the
 * impossible suspect and its reason (rung_result_sync_impossible). A result
 * without a valid bench keeps impossible = false (its floor is still set). */
void rung_result_judge_roofline(rung_result *r, double flops, double bytes, double peak, double bw, double tol);

/* Achieved percent of the roof at the task's intensity: 100 * floor / median
 * (the floor is max(flops/peak, bytes/bw), so this equals achieved FLOP/s over
 * min(peak, intensity * bw)). NAN when either is unknown. */
double rung_result_roof_pct(const rung_result *r);

/* "2.48 TB/s" or "99.5 TFLOP/s" for a result's bench into buf: the figure of
 * the resource that bounds it, the one nearer its ceiling (achieved FLOP/s over
 * the highest compute ceiling against achieved bytes/s over DRAM, datasheet
 * ceilings from the result's environment); TFLOP/s where that cannot be told
 * and there are flops, "-" with neither. Returns buf. */
const char *rung_result_perf(char *buf, size_t len, const rung_result *r);

#endif

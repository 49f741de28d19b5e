/* Profile counters of one result (result.counters, stored with it): the CUPTI
 * range-profiler metrics rung collects, quantities derived from them, and the
 * `[profile]` line (docs/ARCHITECTURE.md, "Roofline and profiling"). */
#ifndef RUNG_CORE_PROFILE_H
#define RUNG_CORE_PROFILE_H

#include <stddef.h>

#include "core/result.h"
#include "core/roofline.h"

/* The metrics asked for, in order. A metric the chip lacks is skipped (named
 * in the profile rung's reason), never fatal. */
#define RUNG_PROFILE_METRIC_LIST(_) \
	_("gpu__time_duration.sum") \
	_("dram__bytes_read.sum") \
	_("dram__bytes_write.sum") \
	_("lts__t_bytes.sum") \
	_("l1tex__t_bytes.sum") \
	_("sm__sass_thread_inst_executed_op_fadd_pred_on.sum") \
	_("sm__sass_thread_inst_executed_op_fmul_pred_on.sum") \
	_("sm__sass_thread_inst_executed_op_ffma_pred_on.sum") \
	_("sm__sass_thread_inst_executed_op_hadd_pred_on.sum") \
	_("sm__sass_thread_inst_executed_op_hmul_pred_on.sum") \
	_("sm__sass_thread_inst_executed_op_hfma_pred_on.sum") \
	_("sm__sass_thread_inst_executed_op_dadd_pred_on.sum") \
	_("sm__sass_thread_inst_executed_op_dmul_pred_on.sum") \
	_("sm__sass_thread_inst_executed_op_dfma_pred_on.sum") \
	_("sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active") \
	_("sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active") \
	_("sm__warps_active.avg.pct_of_peak_sustained_active") \
	_("sm__throughput.avg.pct_of_peak_sustained_elapsed")

extern const char *const rung_profile_metrics[];
extern const int rung_profile_nmetrics;

/* Counter by name, NAN when absent. */
double rung_counter_get(const rung_result *r, const char *name);
/* Sets (adds or replaces) a counter. RUNG_ENOMEM. */
int rung_counter_set(rung_result *r, const char *name, double value);

/* Derived counters, added when their inputs are present:
 *   flops.f32 = fadd + fmul + 2 * ffma   (per-thread SASS instructions)
 *   flops.f16 = hadd + hmul + 2 * hfma   flops.f64 = dadd + dmul + 2 * dfma
 *   dram.bytes = dram read + write */
void rung_profile_derive(rung_result *r);

/* The counted FLOPs: flops.f32 + flops.f16 + flops.f64, those present; NAN
 * when none is. */
double rung_profile_flops(const rung_result *r);

/* The counter holding a memory level's bytes (ncu's hierarchical roofline):
 *   DRAM dram.bytes (read + write)   L2 lts__t_bytes.sum   L1 l1tex__t_bytes.sum */
const char *rung_profile_level_counter(rung_mem_level l);

/* Arithmetic intensity at each level: the counted FLOPs over that level's
 * bytes, FLOP/B; NAN where the FLOPs are absent or not > 0, or the level's
 * bytes are absent or not > 0. */
void rung_profile_intensities(double out[RUNG_MEM_NLEVELS], const rung_result *r);

/* "dram=12.3 l2=4.56 l1=0.789 FLOP/B" (3 significant digits; a level without
 * an intensity is left out); "" when none has one. */
void rung_profile_intensity_line(char *buf, size_t len, const rung_result *r);

/* A counter's value with its unit, from the metric's name (ncu's naming):
 * "201.3 MB" (bytes), "62.0 %" (pct_of_peak...), "73.1 us" (gpu__time_duration,
 * in ns), "1.2 G inst" (inst_executed: thread instructions), "8.2 M cycles",
 * "34.4 GFLOP" (flops.*), "1.5 G/s" (per_second); a name with no known unit
 * gets the number alone ("%g"). */
void rung_counter_format(char *buf, size_t len, const char *name, double value);

/* "ok dram=201.3MB (1.04x the bytes it needs) flops=34.4G (1.00x) occupancy=62% sm=81% tensor=0% time=73.1us"
 * need_*: the task's [roofline] counts (NAN: the ratio is left out). */
void rung_profile_summary(char *buf, size_t len, const rung_result *r, double need_flops, double need_bytes);

#endif

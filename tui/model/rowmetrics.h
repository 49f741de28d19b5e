/* Derived per-version numbers the screens show: error, time, delta against the
 * baseline with its noise band, roofline position, registers. */
#ifndef RUNG_TUI_ROWMETRICS_H
#define RUNG_TUI_ROWMETRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/stats.h"
#include "tui/model/model.h"

typedef struct {
	double median_ms;        /* NAN when not benched (or check failed) */
	double max_rel;          /* worst over shapes and seeds; NAN when not checked */
	bool has_delta;
	double delta;            /* (t - t_base) / t_base */
	double speedup;          /* t_base / t (rung_speedup): what the screens show */
	double noise;            /* half-width of the ~95% band: 2 * sqrt(rse_a^2 + rse_b^2) */
	rung_cmp_verdict cmp;    /* FASTER / SLOWER / SAME within noise */
	bool shared;             /* timed beside another process on the GPU (NVML; rung_bench_shared) */
	char shared_why[160];    /* "shared GPU: pid 4242 python3" */
	bool delta_shared;       /* this one or the baseline was timed so: cmp stays SAME (no verdict) */
	bool env_differs;        /* the baseline was measured in another environment */
	char env_why[160];       /* what differs ("GPU NVIDIA H200 vs NVIDIA H100; ...") */
	double intensity;        /* FLOP/B (NAN when unknown) */
	double flop_s;           /* achieved FLOP/s */
	double roof_pct;         /* % of the attainable roof (NAN when unknown) */
	const char *roof_name;   /* the compute ceiling it is against: "FP32 FMA", "TF32 tensor" (the task's data type's; "" : the guard's floor) */
	double roof_peak;        /* that ceiling, FLOP/s (NAN: the guard's floor) */
	bool impossible;         /* faster than the roofline floor */
	bool suspect;            /* evidence that it may fool the bench: result suspects, or impossible */
	bool has_regs;
	int regs;
	int64_t spills;          /* spill stores + loads */
	int64_t smem;
} rung_row_metrics;

/* The roof % is against the ceiling that fits the kernel's instruction mix
 * (row.mma, once rung_model_row_mma looked: FP32 FMA unless it issues tensor
 * instructions), at the screen's ceilings; else the guard's floor. */
void rung_row_metrics_get(rung_row_metrics *out, const rung_model *m, int row, int base_row);

/* "of the FP32 FMA roof (66.9 TFLOP/s)" ("FP32" or "TF32 tensor" brief, where
 * the roofs are drawn), or "of roof" when the guard's floor was used and its
 * ceiling is not known: the words after a roof %, naming its ceiling. */
void rung_fmt_roof_of(char *buf, int len, const rung_row_metrics *mx, bool brief);

/* "3.412ms", "812us", "1.20s" in at most 8 columns. */
void rung_fmt_ms(char *buf, int len, double ms);
/* The same in one unit for a whole column (#28 D-20: "180.7us" beside
 * "1.653ms"): us true "180.7us", else milliseconds at 4 significant digits
 * ("0.1807ms", "1.653ms", "27.304ms", "276.1ms", "27304ms"). */
void rung_fmt_ms_unit(char *buf, int len, double ms, bool us);
/* "1T", "10T", "100G" */
void rung_fmt_si(char *buf, int len, double v);

#endif

/* Roofline ceilings and the speed-of-light guard (docs/CHECKS.md, "Roofline").
 * Units: FLOP/s and bytes/s; times in ms. A ceiling is either measured, taken
 * from the datasheet formula, or absent (value NAN, src NONE). */
#ifndef RUNG_CORE_ROOFLINE_H
#define RUNG_CORE_ROOFLINE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/spec.h"

typedef enum { RUNG_CEIL_NONE = 0, RUNG_CEIL_DATASHEET, RUNG_CEIL_MEASURED } rung_ceil_src;
const char *rung_ceil_src_name(rung_ceil_src s); /* "none", "datasheet", "measured" */

typedef struct {
	double value; /* FLOP/s or bytes/s; NAN when absent */
	rung_ceil_src src;
} rung_ceiling;

/* Dense tensor-core ceilings by input type. */
typedef enum { RUNG_TC_F16, RUNG_TC_BF16, RUNG_TC_TF32, RUNG_TC_FP8, RUNG_TC_INT8, RUNG_TC_F64, RUNG_TC_COUNT } rung_tc_type;
const char *rung_tc_name(rung_tc_type t); /* "f16", ... */

typedef struct {
	rung_ceiling fp32, fp64;
	rung_ceiling tensor[RUNG_TC_COUNT];
	rung_ceiling dram, l2, l1;
} rung_ceilings;

/* The memory levels of the hierarchical roofline (ncu's): _(ID, label, key).
 * key is the ceiling's JSON key (core/ceilings_json.h). */
#define RUNG_MEM_LEVEL_LIST(_) \
	_(DRAM, "DRAM", "dram") \
	_(L2, "L2", "l2") \
	_(L1, "L1", "l1")

typedef enum {
#define RUNG_MEM_LEVEL_ENUM(id, label, key) RUNG_MEM_##id,
	RUNG_MEM_LEVEL_LIST(RUNG_MEM_LEVEL_ENUM)
#undef RUNG_MEM_LEVEL_ENUM
	RUNG_MEM_NLEVELS
} rung_mem_level;

const char *rung_mem_level_label(rung_mem_level l); /* "DRAM", "L2", "L1" */
const char *rung_mem_level_key(rung_mem_level l);   /* "dram", "l2", "l1" */
/* The bandwidth ceiling of a memory level (NULL for an unknown level). */
const rung_ceiling *rung_ceilings_mem(const rung_ceilings *c, rung_mem_level l);

/* L1 bytes per clock per SM of the datasheet formula (128 B/clk on sm_70 and
 * newer: one 128-byte wavefront per clock). */
#define RUNG_L1_BYTES_PER_CLK 128

/* Device attributes as the driver reports them. */
typedef struct {
	int sms;
	int sm_clock_khz;   /* CU_DEVICE_ATTRIBUTE_CLOCK_RATE */
	int mem_clock_khz;  /* CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE */
	int bus_width_bits; /* CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH */
	int major, minor;   /* compute capability */
} rung_device_attrs;

/* All ceilings absent. */
void rung_ceilings_init(rung_ceilings *c);
/* Per-SM per-clock throughput of an architecture (FMA lanes and dense tensor FLOP);
 * 0 when unknown. */
int rung_arch_fp32_fma_per_clk(int major, int minor);
int rung_arch_fp64_fma_per_clk(int major, int minor);
int rung_arch_tensor_flop_per_clk(int major, int minor, rung_tc_type t);
/* Fills the datasheet ceilings from attributes (leaves measured ones in place):
 *   fp32 = SMs * FMA/clk/SM * 2 * SM clock
 *   dram = 2 (double data rate) * memory clock * bus width / 8
 *   l1   = SMs * RUNG_L1_BYTES_PER_CLK * SM clock (sm_70 and newer)
 * L2 has no datasheet formula and stays absent. Returns 0, or RUNG_EINVAL when
 * the attributes are missing (zero). */
int rung_ceilings_datasheet(rung_ceilings *c, const rung_device_attrs *a);
/* The highest compute ceiling present (fp32, fp64 and every tensor type): the
 * floor must not assume a kernel avoids tensor cores. NAN if none. */
double rung_ceilings_peak_compute(const rung_ceilings *c);

/* The compute ceiling a kernel whose data are of type dt could reach:
 *   f32: max(fp32, tf32 tensor)      f16: max(fp32, f16 tensor)
 *   bf16: max(fp32, bf16 tensor)     f64: max(fp64, f64 tensor)
 *   i32/i64/u8: max(fp32, int8 tensor)
 * fp8 is never assumed (it would fail any f16/f32 check). NAN if none present. */
double rung_ceilings_peak_for(const rung_ceilings *c, rung_dtype dt);

double rung_arith_intensity(double flops, double bytes);          /* FLOP/byte; NAN if bytes <= 0 */
double rung_attainable(double peak_flops, double bw, double ai);  /* min(peak, ai*bw) FLOP/s */
/* Time floor in ms: max(flops/peak, bytes/bw); a term with a missing (NAN or
 * <= 0) ceiling or count is left out; NAN when both are. */
double rung_time_floor_ms(double flops, double bytes, double peak_flops, double bw);
/* Achieved performance as percent of the attainable roof at this intensity
 * (flops <= 0: achieved bytes/s as percent of bw; bytes <= 0: percent of peak). */
double rung_percent_of_roof(double flops, double bytes, double ms, double peak_flops, double bw);
/* True when the measured median beats the floor by more than tol (fraction,
 * e.g. 0.03): median_ms < floor_ms * (1 - tol). False when either is NAN. */
bool rung_roofline_impossible(double median_ms, double floor_ms, double tol);

#endif

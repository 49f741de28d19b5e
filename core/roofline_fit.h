/* The roof that fits a kernel (#28 D-9): the compute ceiling is FP32 FMA
 * (FP64 FMA for f64 data) unless the kernel issues tensor instructions, then
 * the tensor ceiling of its data type; the memory ceiling is DRAM. The
 * guard's floor (core/roofline_guard.h) takes the highest ceiling instead, so
 * that no legitimately fast kernel reads impossible; a percent of the roof
 * for a person or a goal (app/goal.h) takes this one, named. Pure C. */
#ifndef RUNG_CORE_ROOFLINE_FIT_H
#define RUNG_CORE_ROOFLINE_FIT_H

#include <stdbool.h>

#include "core/result.h"
#include "core/roofline.h"
#include "core/sass.h"

/* The tensor pipe's share of active cycles (the profile rung's
 * sm__pipe_tensor_op_hmma/gmma counters) from which a kernel counts as one on
 * tensor cores: FFMA kernels read 0 to 1% there (HFMA2.MMA moves run on that
 * pipe), an mma.sync kernel 30% and more. */
#define RUNG_TENSOR_ACTIVE_PCT 5.0

/* Whether r's kernel issues tensor instructions, from its profile counters: 1
 * (tensor pipe active >= RUNG_TENSOR_ACTIVE_PCT), 0 (below it), -1 unknown (no
 * such counter in r). */
int rung_result_tensor(const rung_result *r);
/* The same from a SASS instruction mix (core/sass.h): HMMA or HGMMA present. */
bool rung_mix_tensor(const rung_sass_mix *m);

typedef struct {
	double flop_s;  /* the compute ceiling, FLOP/s (NAN: none) */
	double bw;      /* DRAM, bytes/s (NAN: none) */
	bool tensor;    /* the tensor ceiling was taken */
	char name[24];  /* "FP32", "FP64", "TF32 tensor", "FP16 tensor", ... */
	char bound[24]; /* the roof that binds at the kernel's intensity: name, or "DRAM" (rung_result_fit_roof_pct) */
} rung_fit_roof;

/* The tensor ceiling for data of type dt (TF32 for f32, FP16, BF16, FP64
 * tensor, INT8 for anything else) and its short name ("TF32"; name may be
 * NULL). */
rung_tc_type rung_fit_tensor_type(rung_dtype dt, const char **name);

/* The roof for data of type dt: tensor > 0 the tensor ceiling of dt (TF32 for
 * f32, FP16, BF16, FP64 tensor, INT8 for integers), else FP32 FMA (FP64 for
 * f64). A ceiling that is absent is NAN. */
void rung_fit_roof_pick(rung_fit_roof *out, const rung_ceilings *c, rung_dtype dt, int tensor);

/* r's percent of the roof that fits it: 100 * floor / median, the floor
 * max(flops / compute, bytes / DRAM) with flops and bytes per launch from its
 * bench (tflops, tbps times the median). tensor: rung_result_tensor(r), or 1
 * / 0 when the caller knows (the SASS mix); unknown reads as FP32 FMA, unless
 * the kernel beats that roof, which only tensor cores can. Ceilings: the
 * guard's for r's device (datasheet raised by measured, which may be NULL).
 * NAN without a valid bench or ceilings; *roof (may be NULL) gets the roof,
 * bound naming the one that binds. */
double rung_result_fit_roof_pct(const rung_result *r, const rung_ceilings *measured, rung_dtype dt, int tensor,
				rung_fit_roof *roof);

#endif

/* Correctness metrics: a kernel's output against the reference's, element by
 * element, into a rung_check_metric (core/result.h). Definitions, defaults and
 * the verdict order are documented in docs/CHECKS.md. */
#ifndef RUNG_CORE_METRICS_H
#define RUNG_CORE_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "core/spec.h"

typedef struct {
	double atol, rtol;  /* mismatch: |got - ref| > atol_eff + rtol * |ref| */
	bool atol_scaled;   /* atol_eff = atol * peak (peak = max |ref|); else atol_eff = atol */
	bool has_min_psnr, has_min_cossim;
	double min_psnr, min_cossim;
	bool check_poison;  /* got elements still holding poison count as unwritten */
	int poison_variant; /* which poison pattern was written (core/guard.h) */
} rung_check_opts;

/* Default tolerance coefficients per dtype (docs/CHECKS.md):
 *   f64 atol 1e-10*peak rtol 1e-8;   f32 atol 1e-5*peak rtol 1e-5;
 *   f16 atol 1e-3*peak rtol 2e-3;    bf16 atol 1e-2*peak rtol 1.6e-2;
 *   i64/i32/u8: exact (0, 0).
 * The default atol is a fraction of the reference's peak |value| so it follows the
 * output's scale; an atol set in the spec is absolute. */
void rung_tolerance_default(rung_dtype dt, double *atol, double *rtol);
/* Defaults for dt, poison checking on (variant 0), no psnr/cossim gates. */
void rung_check_opts_default(rung_check_opts *o, rung_dtype dt);
/* Defaults overridden by the spec's [check] atol/rtol/min_psnr/min_cossim. */
void rung_check_opts_from_spec(rung_check_opts *o, const rung_spec *spec, rung_dtype dt);

/* Compares n elements of got against ref (both of dtype dt). shape/rank give
 * the row-major shape for bad coordinates (rank 0 or a shape whose product is not
 * n reports flat indexes). Fills every metric field except dims and seed (left as
 * they were: set them before or after). Returns 0, or RUNG_EINVAL on bad input. */
int rung_metrics_compute(rung_check_metric *m, const char *output, const void *got, const void *ref,
			 rung_dtype dt, int64_t n, int rank, const int64_t *shape, const rung_check_opts *o);

/* Converts n elements of any dtype to double (exact except i64 beyond 2^53). */
void rung_to_double(double *out, const void *buf, rung_dtype dt, int64_t n);

/* "inf", "-inf", "nan" or printf "%.*g" with `digits` significant digits. */
const char *rung_fmt_double(char *buf, size_t len, double v, int digits);
/* "(127,4)" */
void rung_fmt_coord(char *buf, size_t len, const int64_t *coord, int rank);
/* Row-major coordinates of flat index i; returns the rank used (1 when shape is unusable). */
int rung_unflatten(int64_t *coord, int64_t i, int rank, const int64_t *shape, int64_t n);
/* ULP histogram bin of a distance (0..RUNG_ULP_BINS-2); the last bin is nan/inf mismatch. */
int rung_ulp_bin(uint64_t ulps);

#endif

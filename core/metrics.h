/* Correctness metrics: a kernel's output against the reference's, element by
 * element, into a rung_check_metric (core/result.h). Definitions, defaults and
 * the verdict order are documented in docs/CHECKS.md. */
#ifndef RUNG_CORE_METRICS_H
#define RUNG_CORE_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/errmap.h"
#include "core/metrics_hd.h"
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
/* The tolerances of a case with input distribution d ([check] inputs): `ints`
 * compares exactly (atol = rtol = 0: got must equal ref, -0 equal to +0, NaN to
 * NaN); the others keep o as it is. */
void rung_check_opts_inputs(rung_check_opts *o, rung_dist d);
/* The tolerance of a distribution the spec did not ask for (the default wide,
 * core/spec.h rung_spec_default_inputs): atol 1e-2 of the reference's peak, rtol
 * at least 1e-2. A tolerance tuned for normal data (an absolute atol, TF32's
 * rounding) is not a tolerance for data a thousand times larger; what the
 * default is for stays exact: NaN, Inf and unwritten elements. No psnr or
 * cossim gate. */
void rung_check_opts_lenient(rung_check_opts *o);

/* Compares n elements of got against ref (both of dtype dt). shape/rank give
 * the row-major shape for bad coordinates (rank 0 or a shape whose product is not
 * n reports flat indexes). Fills every metric field except dims and seed (left as
 * they were: set them before or after). Returns 0, or RUNG_EINVAL on bad input. */
int rung_metrics_compute(rung_check_metric *m, const char *output, const void *got, const void *ref,
			 rung_dtype dt, int64_t n, int rank, const int64_t *shape, const rung_check_opts *o);

/* --- streaming: the same comparison over chunks -------------------------------
 * For arrays that are not in host memory at once (the worker reads device
 * buffers back chunk by chunk):
 *   1. peak = max over chunks of rung_metrics_peak(ref chunk) (max |finite ref|);
 *   2. rung_metrics_begin(&ctx, ..., peak);
 *   3. per chunk k starting at element s: rung_metrics_acc_init(&acc[k], s) and
 *      rung_metrics_feed(&ctx, &acc[k], got + s, ref + s, count) -- chunks may be
 *      fed on different threads (ctx is read-only);
 *   4. the accumulators folded in chunk order with rung_metrics_fold_add (the
 *      merge order, which the device follows too: each group of
 *      RUNG_METRICS_GROUP consecutive chunks merged into its first, then the
 *      groups into the total, in order);
 *   5. rung_metrics_end(&ctx, &total, m).
 * Counts, maxima, the first bad elements, the histogram, the error map and the
 * verdict do not depend on the chunking. The sums (MAE, MSE, cosine) are accumulated in blocks
 * of 4096 finite elements within a chunk, Neumaier-compensated, and chunks are
 * added in chunk order: the bits depend on where chunks start, not on threads.
 * Feeding consecutive chunks into ONE accumulator equals one big chunk exactly.
 * rung_metrics_compute uses chunks of RUNG_METRICS_CHUNK elements, so a caller
 * that streams with chunks starting at multiples of RUNG_METRICS_CHUNK gets
 * bit-identical metrics. */
/* 1024: small enough that the device's metrics kernel, one thread per chunk
 * walking it in order, has 16K threads on a 16M-element output (with 64Ki,
 * 256 threads took 23 ms on the H200's 4096^2 SGEMM output, more than the
 * host's 16 threads; with 4096, one warp per SM still waited on memory). */
#define RUNG_METRICS_CHUNK (INT64_C(1) << 10)

typedef struct {
	char name[RUNG_NAME_MAX];
	rung_dtype dt;
	int64_t n;
	int rank;
	bool has_shape;
	int64_t shape[RUNG_MAX_RANK];
	rung_check_opts o;
	double peak, atol, rtol; /* atol: effective (peak-scaled when the default) */
	rung_hd_feed f;          /* what the shared feed needs (dtype, tolerances, poison) */
} rung_metrics_ctx;

/* The accumulator rung_metrics_acc (partial results over elements [start, end))
 * and the feed are core/metrics_hd.h, shared with the device metrics kernel. */

/* Largest finite |ref| over n elements (0 when none). */
double rung_metrics_peak(const void *ref, rung_dtype dt, int64_t n);
/* Fixes output name, dtype, n, shape, options (NULL: defaults) and the peak.
 * Returns 0 or RUNG_EINVAL. */
int rung_metrics_begin(rung_metrics_ctx *c, const char *output, rung_dtype dt, int64_t n, int rank,
		       const int64_t *shape, const rung_check_opts *o, double peak);
void rung_metrics_acc_init(rung_metrics_acc *a, int64_t start);
/* Compares count elements (got[0] and ref[0] are element a->end) and advances a->end. */
void rung_metrics_feed(const rung_metrics_ctx *c, rung_metrics_acc *a, const void *got, const void *ref,
		       int64_t count);
/* Adds src, which covers the elements right after dst's, into dst. */
void rung_metrics_merge(rung_metrics_acc *dst, const rung_metrics_acc *src);

/* The order every chunk's accumulator is merged in, on the host and on the
 * device (gpu/kernels/check.cu): chunks 64 at a time into their group's first
 * accumulator, then the groups, in order, into the total. Two levels so the
 * device merges the groups on 64 threads at once (a merge chain of 4096 chunks
 * on one GPU thread took about 20 ms a 16M-element output on the H200). */
#define RUNG_METRICS_GROUP 64
typedef struct {
	rung_metrics_acc total, group;
	int64_t n; /* chunks added */
} rung_metrics_fold;
void rung_metrics_fold_init(rung_metrics_fold *f);
/* Adds the accumulator of the next chunk (chunk f->n). */
void rung_metrics_fold_add(rung_metrics_fold *f, const rung_metrics_acc *a);
/* The total of every chunk added (an empty accumulator at 0 when none). */
void rung_metrics_fold_end(rung_metrics_fold *f, rung_metrics_acc *out);
/* Final metrics and verdict into m (m->dims and m->seed are kept). */
void rung_metrics_end(const rung_metrics_ctx *c, const rung_metrics_acc *a, rung_check_metric *m);

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

/* Timing statistics and A/B comparison (docs/CHECKS.md, "Timing"). */
#ifndef RUNG_CORE_STATS_H
#define RUNG_CORE_STATS_H

#include <stdint.h>

#include "core/result.h"

/* Quantile q in [0,1] of n sorted values, numpy's default 'linear' method:
 * h = (n-1)q, value = x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]). NAN if n == 0. */
double rung_quantile_sorted(const double *sorted, int n, double q);
/* Median of n values (copies; input untouched). NAN if n == 0. */
double rung_median(const double *x, int n);

/* Relative standard error of the median: the standard deviation of the medians
 * of `reps` bootstrap resamples (fixed-seed counter RNG, so it is reproducible)
 * divided by the median. NAN if n < 2 or the median is 0. */
double rung_rse_median(const double *x, int n, int reps, uint64_t seed);

/* Fills the statistics of b from n samples (ms): median, mean, min, max, q1, q3,
 * sample stddev (n-1), rse_median (2000 bootstrap resamples, seed 0x5eed),
 * noise_ok = rse_median <= rse_target. b->samples gets an owned copy (previous
 * one freed). Fields it does not own (dropped, event_median, clock_mhz, tflops,
 * tbps, method) are left alone. Returns 0 or RUNG_EINVAL (n < 1) / RUNG_ENOMEM. */
int rung_bench_fill(rung_bench *b, const double *samples, int n, double rse_target);

typedef enum { RUNG_CMP_SAME, RUNG_CMP_FASTER, RUNG_CMP_SLOWER } rung_cmp_verdict;
const char *rung_cmp_verdict_name(rung_cmp_verdict v); /* "SAME", "FASTER", "SLOWER" */

typedef struct {
	double median_a, median_b;
	double ratio;     /* median_b / median_a: < 1 means B is faster */
	double lo, hi;    /* bootstrap 95% percentile interval of the ratio */
	int reps;
	rung_cmp_verdict verdict; /* of B relative to A */
} rung_compare;

/* Threshold under which a difference is called SAME even if significant. */
#define RUNG_CMP_MIN_EFFECT 0.005

/* Compares B's times against A's (samples taken ABAB-interleaved).
 * Bootstrap: `reps` (0 = 2000) times, resample A and B independently with
 * replacement, take median(B*)/median(A*); the CI is the 2.5% and 97.5% quantiles.
 * Verdict: FASTER if hi < 1 and ratio < 1 - RUNG_CMP_MIN_EFFECT; SLOWER if lo > 1
 * and ratio > 1 + RUNG_CMP_MIN_EFFECT; else SAME. Deterministic for a given seed. */
int rung_compare_samples(rung_compare *out, const double *a, int na, const double *b, int nb, int reps,
			 uint64_t seed);

#endif

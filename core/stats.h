/* Timing statistics and A/B comparison (docs/CHECKS.md, "Timing"). */
#ifndef RUNG_CORE_STATS_H
#define RUNG_CORE_STATS_H

#include <stdbool.h>
#include <stddef.h>
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

/* Speedups, as kernel engineers say them: t_ref / t, so a version 202 times
 * faster than the baseline reads "202x". The one form every text uses (the
 * versions table, the detail, compare, rung log, rung brief and the MCP
 * tools' text); JSON keeps the ratio. NAN when either time is unknown or not
 * positive. */
double rung_speedup(double t, double t_ref);
/* The relative half-width of the ~95% band of a ratio of two medians:
 * 2 * sqrt(rse_a^2 + rse_b^2), an unknown rse counted as 1%. */
double rung_ratio_noise(double rse_a, double rse_b);
/* "202x", "12.6x", "2.43x", "1.00x", "0.830x" (slower), "0.0495x": 3
 * significant digits; utf8: "×" for the x. NAN: "-". Returns the bytes written. */
int rung_fmt_speedup(char *buf, size_t len, double s, bool utf8);
/* "202x +-0.6" ("202× ±0.6" in UTF-8): noise is the relative
 * half-width of the band (0.003 for 0.3%), shown on the speedup scale
 * (s * noise) at s's precision. */
int rung_fmt_speedup_pm(char *buf, size_t len, double s, double noise, bool utf8);
/* "202x [199, 205]": an interval of speedups, each at 3 significant digits. */
int rung_fmt_speedup_ci(char *buf, size_t len, double s, double lo, double hi, bool utf8);
/* The speedup of B over A from a comparison (1 / ratio) and its interval
 * ([1/hi, 1/lo]), formatted as rung_fmt_speedup_ci. */
int rung_fmt_compare_speedup(char *buf, size_t len, const rung_compare *c, bool utf8);

#endif

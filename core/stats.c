/* Sample statistics, bootstrap standard errors and the A/B comparison. */
#include "core/stats.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/rng.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double rung_quantile_sorted(const double *s, int n, double q)
{
	if (n <= 0)
		return NAN;
	if (q <= 0)
		return s[0];
	if (q >= 1)
		return s[n - 1];
	double h = (double)(n - 1) * q;
	int lo = (int)floor(h);
	if (lo >= n - 1)
		return s[n - 1];
	double f = h - lo;
	return s[lo] + f * (s[lo + 1] - s[lo]);
}

/* k-th smallest (0-based) by quickselect; reorders x */
static double select_k(double *x, int n, int k)
{
	int lo = 0, hi = n - 1;
	while (lo < hi) {
		double pivot = x[lo + (hi - lo) / 2];
		int i = lo, j = hi;
		while (i <= j) {
			while (x[i] < pivot)
				i++;
			while (x[j] > pivot)
				j--;
			if (i <= j) {
				double t = x[i];
				x[i] = x[j];
				x[j] = t;
				i++;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return x[k];
	}
	return x[k];
}

/* rung_quantile_sorted of x sorted at q (0 < q < 1), without sorting x: the
 * two order statistics it interpolates, by quickselect (reorders x; x has no NaN). */
static double quantile_select(double *x, int n, double q)
{
	double h = (double)(n - 1) * q;
	int lo = (int)floor(h);
	if (lo >= n - 1) {
		double m = x[0];
		for (int i = 1; i < n; i++)
			if (x[i] > m)
				m = x[i];
		return m;
	}
	double f = h - lo;
	double a = select_k(x, n, lo);
	/* the next order statistic is the smallest of the part above lo */
	double b = x[lo + 1];
	for (int i = lo + 2; i < n; i++)
		if (x[i] < b)
			b = x[i];
	return a + f * (b - a);
}

/* The bootstrap interval's ends: the qlo and qhi quantiles of x, as from x
 * sorted; x with a NaN (no place in a selection) is sorted, as it was. */
static void quantiles_of(double *x, int n, double qlo, double qhi, double *lo, double *hi)
{
	bool nan = false;
	for (int i = 0; i < n && !nan; i++)
		nan = isnan(x[i]);
	if (nan || n < 2) {
		qsort(x, (size_t)n, sizeof *x, cmp_double);
		*lo = rung_quantile_sorted(x, n, qlo);
		*hi = rung_quantile_sorted(x, n, qhi);
		return;
	}
	*lo = quantile_select(x, n, qlo);
	*hi = quantile_select(x, n, qhi);
}

/* median of x[0..n), reordering x */
static double median_inplace(double *x, int n)
{
	if (n <= 0)
		return NAN;
	int h = (n - 1) / 2;
	double a = select_k(x, n, h);
	if (n % 2)
		return a;
	/* the upper middle is the minimum of the part above h */
	double b = x[h + 1];
	for (int i = h + 2; i < n; i++)
		if (x[i] < b)
			b = x[i];
	return 0.5 * (a + b);
}

double rung_median(const double *x, int n)
{
	if (n <= 0)
		return NAN;
	double *t = malloc(sizeof *t * (size_t)n);
	if (!t)
		return NAN;
	memcpy(t, x, sizeof *t * (size_t)n);
	double m = median_inplace(t, n);
	free(t);
	return m;
}

/* The bootstrap's resamples of x (n draws with replacement from the counter
 * stream (key, *ctr), their median). The median of a resample is two order
 * statistics of the multiset drawn, so it is read off the counts of each of
 * x's ranks, in O(n) without moving a sample: the same draws and the same
 * values as the quickselect of a copy (median_inplace, still used where x has
 * a NaN, which has no rank), at a third of its time (the workbench's title
 * bar runs the stop rule before its first frame, #28). */
typedef struct {
	const double *x;
	int n;
	double *sorted; /* x ascending */
	int *rank;      /* x[i] is sorted[rank[i]] */
	int *count;     /* draws per rank */
	double *tmp;    /* the copy, for the NaN case */
} boot;

typedef struct {
	double v;
	int i;
} boot_item;

static int cmp_item(const void *a, const void *b)
{
	const boot_item *x = a, *y = b;
	int c = (x->v > y->v) - (x->v < y->v);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

static void boot_free(boot *b)
{
	free(b->sorted);
	free(b->rank);
	free(b->count);
	free(b->tmp);
}

static int boot_init(boot *b, const double *x, int n)
{
	memset(b, 0, sizeof(*b));
	b->x = x;
	b->n = n;
	bool nan = false;
	for (int i = 0; i < n && !nan; i++)
		nan = isnan(x[i]);
	if (nan)
		return (b->tmp = malloc(sizeof(*b->tmp) * (size_t)n)) ? 0 : -1;
	boot_item *it = malloc(sizeof(*it) * (size_t)n);
	b->sorted = malloc(sizeof(*b->sorted) * (size_t)n);
	b->rank = malloc(sizeof(*b->rank) * (size_t)n);
	b->count = malloc(sizeof(*b->count) * (size_t)n);
	if (!it || !b->sorted || !b->rank || !b->count) {
		free(it);
		boot_free(b);
		return -1;
	}
	for (int i = 0; i < n; i++)
		it[i] = (boot_item){x[i], i};
	qsort(it, (size_t)n, sizeof(*it), cmp_item);
	for (int r = 0; r < n; r++) {
		b->sorted[r] = it[r].v;
		b->rank[it[r].i] = r;
	}
	free(it);
	return 0;
}

/* median of the next bootstrap resample of b's samples */
static double boot_median(boot *b, uint64_t key, uint64_t *ctr)
{
	const int n = b->n;
	const uint64_t un = (uint64_t)n;
	uint64_t c = *ctr;
	if (b->tmp) {
		for (int i = 0; i < n; i++)
			b->tmp[i] = b->x[rung_hd_u64(key, c++) % un];
		*ctr = c;
		return median_inplace(b->tmp, n);
	}
	int *count = b->count;
	memset(count, 0, sizeof(*count) * (size_t)n);
	for (int i = 0; i < n; i++)
		count[b->rank[rung_hd_u64(key, c++) % un]]++;
	*ctr = c;
	/* the h-th smallest (0-based) draw, and for an even n the next one */
	const int h = (n - 1) / 2;
	int r = 0, below = count[0];
	while (below <= h)
		below += count[++r];
	double a = b->sorted[r];
	if (n % 2)
		return a;
	if (below <= h + 1) {
		while (!count[++r])
			;
	}
	return 0.5 * (a + b->sorted[r]);
}

double rung_rse_median(const double *x, int n, int reps, uint64_t seed)
{
	if (n < 2 || reps < 2)
		return NAN;
	double med = rung_median(x, n);
	if (!(med != 0) || isnan(med))
		return NAN;
	boot bx;
	if (boot_init(&bx, x, n) < 0)
		return NAN;
	uint64_t key = rung_rng_key(seed, "rse_median"), ctr = 0;
	double mean = 0, m2 = 0;
	for (int r = 0; r < reps; r++) {
		double v = boot_median(&bx, key, &ctr);
		double d = v - mean;
		mean += d / (r + 1);
		m2 += d * (v - mean);
	}
	boot_free(&bx);
	return sqrt(m2 / (reps - 1)) / fabs(med);
}

int rung_bench_fill(rung_bench *b, const double *samples, int n, double rse_target)
{
	if (n < 1 || !samples)
		return rung_error_set(RUNG_EINVAL, "bench: no samples");
	double *s = malloc(sizeof *s * (size_t)n);
	double *sorted = malloc(sizeof *sorted * (size_t)n);
	if (!s || !sorted) {
		free(s);
		free(sorted);
		return rung_error_set(RUNG_ENOMEM, "bench: out of memory");
	}
	memcpy(s, samples, sizeof *s * (size_t)n);
	memcpy(sorted, samples, sizeof *s * (size_t)n);
	qsort(sorted, (size_t)n, sizeof *sorted, cmp_double);

	free(b->samples);
	b->samples = s;
	b->n = n;
	b->valid = true;
	b->min = sorted[0];
	b->max = sorted[n - 1];
	b->median = rung_quantile_sorted(sorted, n, 0.5);
	b->q1 = rung_quantile_sorted(sorted, n, 0.25);
	b->q3 = rung_quantile_sorted(sorted, n, 0.75);
	double mean = 0;
	for (int i = 0; i < n; i++)
		mean += (s[i] - mean) / (i + 1);
	b->mean = mean;
	if (n > 1) {
		double ss = 0;
		for (int i = 0; i < n; i++)
			ss += (s[i] - mean) * (s[i] - mean);
		b->stddev = sqrt(ss / (n - 1));
	} else {
		b->stddev = NAN;
	}
	b->rse_median = rung_rse_median(s, n, 2000, 0x5eed);
	b->noise_ok = !isnan(b->rse_median) && b->rse_median <= rse_target;
	free(sorted);
	return 0;
}

const char *rung_cmp_verdict_name(rung_cmp_verdict v)
{
	switch (v) {
	case RUNG_CMP_FASTER: return "FASTER";
	case RUNG_CMP_SLOWER: return "SLOWER";
	default: return "SAME";
	}
}

int rung_compare_samples(rung_compare *out, const double *a, int na, const double *b, int nb, int reps,
			 uint64_t seed)
{
	memset(out, 0, sizeof *out);
	if (na < 1 || nb < 1)
		return rung_error_set(RUNG_EINVAL, "compare: need samples of both versions (got %d and %d)", na, nb);
	if (reps <= 0)
		reps = 2000;
	out->reps = reps;
	out->median_a = rung_median(a, na);
	out->median_b = rung_median(b, nb);
	if (!(out->median_a > 0))
		return rung_error_set(RUNG_EINVAL, "compare: median of A is not positive");
	out->ratio = out->median_b / out->median_a;

	boot ba, bb;
	double *ratios = malloc(sizeof *ratios * (size_t)reps);
	int ia = boot_init(&ba, a, na), ib = boot_init(&bb, b, nb);
	if (!ratios || ia < 0 || ib < 0) {
		if (ia == 0)
			boot_free(&ba);
		if (ib == 0)
			boot_free(&bb);
		free(ratios);
		return rung_error_set(RUNG_ENOMEM, "compare: out of memory");
	}
	uint64_t ka = rung_rng_key(seed, "compare.A"), kb = rung_rng_key(seed, "compare.B");
	uint64_t ca = 0, cb = 0;
	for (int r = 0; r < reps; r++) {
		double ma = boot_median(&ba, ka, &ca);
		double mb = boot_median(&bb, kb, &cb);
		ratios[r] = mb / ma;
	}
	quantiles_of(ratios, reps, 0.025, 0.975, &out->lo, &out->hi);
	boot_free(&ba);
	boot_free(&bb);
	free(ratios);

	if (out->hi < 1.0 && out->ratio < 1.0 - RUNG_CMP_MIN_EFFECT)
		out->verdict = RUNG_CMP_FASTER;
	else if (out->lo > 1.0 && out->ratio > 1.0 + RUNG_CMP_MIN_EFFECT)
		out->verdict = RUNG_CMP_SLOWER;
	else
		out->verdict = RUNG_CMP_SAME;
	return 0;
}

double rung_speedup(double t, double t_ref)
{
	if (!(t > 0) || !(t_ref > 0) || isinf(t) || isinf(t_ref))
		return NAN;
	return t_ref / t;
}

double rung_ratio_noise(double rse_a, double rse_b)
{
	double ra = isnan(rse_a) ? 0.01 : rse_a, rb = isnan(rse_b) ? 0.01 : rse_b;
	return 2 * sqrt(ra * ra + rb * rb);
}

/* Decimals that give s 3 significant digits (-1: %.3g, for s under 0.1). */
static int speedup_decimals(double s)
{
	double a = fabs(s);
	/* the rounded value decides: 99.96 prints as "100", not "100.0" */
	if (a >= 99.95)
		return 0;
	if (a >= 9.995)
		return 1;
	if (a >= 0.9995)
		return 2;
	if (a >= 0.09995)
		return 3;
	return -1;
}

static const char *times_sign(bool utf8)
{
	return utf8 ? "\u00d7" : "x";
}

static int fmt_sig3(char *buf, size_t len, double s)
{
	int d = speedup_decimals(s);
	return d < 0 ? snprintf(buf, len, "%.3g", s) : snprintf(buf, len, "%.*f", d, s);
}

int rung_fmt_speedup(char *buf, size_t len, double s, bool utf8)
{
	if (isnan(s))
		return snprintf(buf, len, "-");
	char v[32];
	fmt_sig3(v, sizeof(v), s);
	return snprintf(buf, len, "%s%s", v, times_sign(utf8));
}

int rung_fmt_speedup_pm(char *buf, size_t len, double s, double noise, bool utf8)
{
	if (isnan(s) || isnan(noise))
		return rung_fmt_speedup(buf, len, s, utf8);
	char v[32];
	fmt_sig3(v, sizeof(v), s);
	/* one significant digit of the half-width ("0.6", "0.01", "10"), at
	 * most one decimal past s's ("17.8x +-0.01", not "+-0.006") */
	int d = speedup_decimals(s), cap = d < 0 ? 4 : d + 1;
	double hw = fabs(s * noise);
	char h[32];
	if (hw >= 1)
		snprintf(h, sizeof(h), "%.0f", hw);
	else {
		snprintf(h, sizeof(h), "%.1g", hw);
		const char *dot = strchr(h, '.');
		if (strchr(h, 'e') || (dot && (int)strlen(dot + 1) > cap))
			snprintf(h, sizeof(h), "%.*f", cap, hw);
		if (hw > 0 && atof(h) == 0) /* under the last digit: "12.6x +-<0.01", never "+-0.00" */
			snprintf(h, sizeof(h), "<%.*f", cap, pow(10, -cap));
	}
	return snprintf(buf, len, "%s%s %s%s", v, times_sign(utf8), utf8 ? "\u00b1" : "+-", h);
}

int rung_fmt_speedup_ci(char *buf, size_t len, double s, double lo, double hi, bool utf8)
{
	if (isnan(s) || isnan(lo) || isnan(hi))
		return rung_fmt_speedup(buf, len, s, utf8);
	char v[32], a[32], b[32];
	fmt_sig3(v, sizeof(v), s);
	fmt_sig3(a, sizeof(a), lo);
	fmt_sig3(b, sizeof(b), hi);
	return snprintf(buf, len, "%s%s [%s, %s]", v, times_sign(utf8), a, b);
}

int rung_fmt_compare_speedup(char *buf, size_t len, const rung_compare *c, bool utf8)
{
	double s = c->ratio > 0 ? 1 / c->ratio : NAN;
	double lo = c->hi > 0 ? 1 / c->hi : NAN, hi = c->lo > 0 ? 1 / c->lo : NAN;
	return rung_fmt_speedup_ci(buf, len, s, lo, hi, utf8);
}

/* Counter-based RNG: reproducible, order-independent, distinct per arg/seed,
 * and roughly the right distributions. */
#include "harness.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/half.h"
#include "core/rng.h"
#include "core/metrics_hd.h"
#include "core/rng_hd.h"
#include "gpu/worker/stage.h"

static void t_reproducible(void)
{
	float a[1000], b[1000];
	CHECK_INT(rung_fill(a, RUNG_DT_F32, 1000, RUNG_INIT_RANDN, 0, 0, 7, "A"), 0);
	CHECK_INT(rung_fill(b, RUNG_DT_F32, 1000, RUNG_INIT_RANDN, 0, 0, 7, "A"), 0);
	CHECK(memcmp(a, b, sizeof a) == 0);
	/* pinned values: the stream definition must not drift silently, since stored
	 * results name seeds. key = mix64(7 ^ fnv1a("A")), element 0 = mix64(key + golden). */
	CHECK_INT(rung_hash_str(""), (long long)UINT64_C(0xcbf29ce484222325));
	CHECK_INT(rung_hash_str("a"), (long long)UINT64_C(0xaf63dc4c8601ec8c)); /* FNV-1a test vector */
	CHECK_INT(rung_mix64(0), 0);
	/* splitmix64 seeded with 0: first output is 0xe220a8397b1dcdaf */
	CHECK_INT(rung_rng_u64(0, 0), (long long)UINT64_C(0xe220a8397b1dcdaf));
	CHECK_INT(rung_rng_u64(0, 1), (long long)UINT64_C(0x6e789e6aa1b965f4));
}

static void t_order_independent(void)
{
	enum { N = 4099 };
	double *whole = malloc(sizeof(double) * N), *parts = malloc(sizeof(double) * N);
	CHECK_INT(rung_fill(whole, RUNG_DT_F64, N, RUNG_INIT_RANDN, 0, 0, 99, "B"), 0);
	/* generate in reverse order in odd-sized chunks, including odd starts (randn pairs) */
	int64_t ends[] = { N, 3001, 3000, 1234, 17, 1, 0 };
	for (int k = 0; k < 6; k++) {
		int64_t lo = ends[k + 1], hi = ends[k];
		CHECK_INT(rung_fill_at(parts + lo, RUNG_DT_F64, lo, hi - lo, RUNG_INIT_RANDN, 0, 0, 99, "B"), 0);
	}
	CHECK(memcmp(whole, parts, sizeof(double) * N) == 0);
	/* element i alone matches too */
	CHECK(rung_rng_normal(rung_rng_key(99, "B"), 2047) == whole[2047]);
	/* uniform too */
	CHECK_INT(rung_fill(whole, RUNG_DT_F64, N, RUNG_INIT_UNIFORM, -2, 3, 5, "B"), 0);
	CHECK_INT(rung_fill_at(parts + 100, RUNG_DT_F64, 100, N - 100, RUNG_INIT_UNIFORM, -2, 3, 5, "B"), 0);
	CHECK(memcmp(whole + 100, parts + 100, sizeof(double) * (N - 100)) == 0);
	free(whole);
	free(parts);
}

static void t_distinct(void)
{
	float a[256], b[256], c[256];
	rung_fill(a, RUNG_DT_F32, 256, RUNG_INIT_RANDN, 0, 0, 1, "A");
	rung_fill(b, RUNG_DT_F32, 256, RUNG_INIT_RANDN, 0, 0, 1, "B");
	rung_fill(c, RUNG_DT_F32, 256, RUNG_INIT_RANDN, 0, 0, 2, "A");
	int same_ab = 0, same_ac = 0;
	for (int i = 0; i < 256; i++) {
		same_ab += a[i] == b[i];
		same_ac += a[i] == c[i];
	}
	CHECK_INT(same_ab, 0);
	CHECK_INT(same_ac, 0);
	/* derived seeds differ from each other and from the base */
	uint64_t s0 = rung_seed_derive(1234, 0), s1 = rung_seed_derive(1234, 1);
	CHECK(s0 != s1 && s0 != 1234 && s1 != 1234);
	CHECK(rung_seed_derive(1234, 1) == s1);
	CHECK(rung_seed_derive(1235, 0) != s0);
	CHECK(rung_seed_fresh() != rung_seed_fresh());
}

/* The pairwise randn fill (both Box-Muller outputs per uniform pair) gives the
 * same bits as the per-element definition rung_rng_normal, for every start
 * parity and length parity, in f64, f32 and an integer dtype. */
static void t_randn_pairs_match_scalar(void)
{
	enum { N = 200003 };
	double *d = malloc(sizeof(double) * N);
	float *f = malloc(sizeof(float) * N);
	int32_t *k = malloc(sizeof(int32_t) * N);
	uint64_t key = rung_rng_key(11, "P");
	int64_t starts[] = { 0, 1, 2, 7, 1000001 };
	int64_t lens[] = { N, N - 1, 1, 2, 3 };
	for (int s = 0; s < 5; s++) {
		for (int l = 0; l < 5; l++) {
			int64_t st = starts[s], n = lens[l];
			CHECK_INT(rung_fill_at(d, RUNG_DT_F64, st, n, RUNG_INIT_RANDN, 0, 0, 11, "P"), 0);
			CHECK_INT(rung_fill_at(f, RUNG_DT_F32, st, n, RUNG_INIT_RANDN, 0, 0, 11, "P"), 0);
			CHECK_INT(rung_fill_at(k, RUNG_DT_I32, st, n, RUNG_INIT_RANDN, 0, 0, 11, "P"), 0);
			int64_t bad_d = 0, bad_f = 0, bad_k = 0;
			for (int64_t j = 0; j < n; j++) {
				double v = rung_rng_normal(key, (uint64_t)(st + j));
				bad_d += d[j] != v;
				bad_f += f[j] != (float)v;
				bad_k += k[j] != (int32_t)nearbyint(v);
			}
			CHECK_INT(bad_d, 0);
			CHECK_INT(bad_f, 0);
			CHECK_INT(bad_k, 0);
		}
	}
	free(d);
	free(f);
	free(k);
}

static void t_randn_moments(void)
{
	enum { N = 1000000 };
	double *x = malloc(sizeof(double) * N);
	CHECK_INT(rung_fill(x, RUNG_DT_F64, N, RUNG_INIT_RANDN, 0, 0, 3, "X"), 0);
	double s = 0, s2 = 0, s4 = 0;
	int64_t beyond3 = 0;
	for (int i = 0; i < N; i++) {
		s += x[i];
		s2 += x[i] * x[i];
		s4 += x[i] * x[i] * x[i] * x[i];
		beyond3 += fabs(x[i]) > 3;
	}
	double mean = s / N, var = s2 / N - mean * mean;
	/* std error of the mean is 1e-3: allow 5 sigma; var std error sqrt(2/N) = 1.4e-3 */
	CHECK_NEAR(mean, 0, 5e-3);
	CHECK_NEAR(var, 1, 7e-3);
	CHECK_NEAR(s4 / N, 3, 0.05);                  /* kurtosis of a normal */
	CHECK_NEAR((double)beyond3 / N, 0.0027, 0.0003); /* P(|z|>3) = 0.0027 */
	/* odd and even (sin and cos branch) both centred */
	double se = 0, so = 0;
	for (int i = 0; i < N; i += 2) {
		se += x[i];
		so += x[i + 1];
	}
	CHECK_NEAR(se / (N / 2), 0, 7e-3);
	CHECK_NEAR(so / (N / 2), 0, 7e-3);
	free(x);
}

static void t_uniform_and_kinds(void)
{
	enum { N = 100000 };
	float *f = malloc(sizeof(float) * N);
	CHECK_INT(rung_fill(f, RUNG_DT_F32, N, RUNG_INIT_UNIFORM, -1, 3, 11, "U"), 0);
	double s = 0, lo = 1e9, hi = -1e9;
	for (int i = 0; i < N; i++) {
		s += f[i];
		lo = f[i] < lo ? f[i] : lo;
		hi = f[i] > hi ? f[i] : hi;
	}
	CHECK_NEAR(s / N, 1.0, 0.02); /* mean (a+b)/2, sd 4/sqrt(12)/sqrt(N) = 0.0037 */
	CHECK(lo >= -1 && lo < -0.99);
	CHECK(hi <= 3 && hi > 2.99);
	free(f);

	int32_t iv[1000];
	CHECK_INT(rung_fill(iv, RUNG_DT_I32, 1000, RUNG_INIT_UNIFORM, 0, 10, 11, "I"), 0);
	int hist[10] = { 0 }, out = 0;
	for (int i = 0; i < 1000; i++) {
		if (iv[i] < 0 || iv[i] >= 10)
			out++;
		else
			hist[iv[i]]++;
	}
	CHECK_INT(out, 0);
	for (int k = 0; k < 10; k++)
		CHECK(hist[k] > 50 && hist[k] < 150);

	uint16_t h[5];
	CHECK_INT(rung_fill(h, RUNG_DT_F16, 5, RUNG_INIT_ARANGE, 0, 0, 0, "H"), 0);
	CHECK_INT(h[0], 0x0000);
	CHECK_INT(h[1], 0x3c00);
	CHECK_INT(h[4], 0x4400); /* 4.0 */
	uint16_t bf[3];
	CHECK_INT(rung_fill(bf, RUNG_DT_BF16, 3, RUNG_INIT_ONES, 0, 0, 0, "H"), 0);
	CHECK_INT(bf[2], 0x3f80);
	uint8_t u8[300];
	CHECK_INT(rung_fill(u8, RUNG_DT_U8, 300, RUNG_INIT_ARANGE, 0, 0, 0, "U8"), 0);
	CHECK_INT(u8[255], 255);
	CHECK_INT(u8[256], 0); /* wraps */
	int64_t i64[4] = { 9, 9, 9, 9 };
	CHECK_INT(rung_fill(i64, RUNG_DT_I64, 4, RUNG_INIT_ZEROS, 0, 0, 0, "Z"), 0);
	CHECK_INT(i64[3], 0);
	/* f16 randn equals the f64 randn rounded once */
	double d[64];
	uint16_t hh[64];
	rung_fill(d, RUNG_DT_F64, 64, RUNG_INIT_RANDN, 0, 0, 8, "R");
	rung_fill(hh, RUNG_DT_F16, 64, RUNG_INIT_RANDN, 0, 0, 8, "R");
	int bad = 0;
	for (int i = 0; i < 64; i++)
		bad += hh[i] != rung_f64_to_f16(d[i]);
	CHECK_INT(bad, 0);
	/* errors */
	CHECK(rung_fill(d, RUNG_DT_F64, 4, RUNG_INIT_NPY, 0, 0, 0, "R") < 0);
	CHECK(rung_fill(d, RUNG_DT_F64, 4, RUNG_INIT_UNIFORM, 2, 1, 0, "R") < 0);
}

/* The parallel fill gives the serial fill's bytes, for every dtype and init,
 * odd starts and lengths that are not multiples of the chunk, at 1 and 4 threads. */
static void t_parallel_fill(void)
{
	const int64_t n = 300001, start = 12345;
	rung_dtype dts[] = { RUNG_DT_F32, RUNG_DT_F64, RUNG_DT_F16, RUNG_DT_BF16, RUNG_DT_I32, RUNG_DT_U8, RUNG_DT_I64 };
	rung_init_kind inits[] = { RUNG_INIT_RANDN, RUNG_INIT_UNIFORM, RUNG_INIT_ARANGE, RUNG_INIT_ONES, RUNG_INIT_ZEROS,
				   RUNG_INIT_WIDE, RUNG_INIT_CONSTANT, RUNG_INIT_INTS };
	char *ser = malloc((size_t)n * 8), *par = malloc((size_t)n * 8);
	const char *threads[] = { "1", "4" };
	for (int t = 0; t < 2; t++) {
		setenv("RUNG_THREADS", threads[t], 1);
		for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
			for (size_t k = 0; k < sizeof inits / sizeof inits[0]; k++) {
				size_t bytes = (size_t)n * rung_dt_size(dts[d]);
				if (inits[k] >= RUNG_INIT_WIDE && !rung_dtype_is_float(dts[d])) {
					/* the distributions' kinds are for float dtypes only */
					CHECK(rung_fill_par(par, dts[d], start, n, inits[k], -3, 5, 42, "P") < 0);
					continue;
				}
				memset(ser, 0x11, bytes);
				memset(par, 0x22, bytes);
				CHECK_INT(rung_fill_at(ser, dts[d], start, n, inits[k], -3, 5, 42, "P"), 0);
				CHECK_INT(rung_fill_par(par, dts[d], start, n, inits[k], -3, 5, 42, "P"), 0);
				if (memcmp(ser, par, bytes) != 0)
					fprintf(stderr, "  dtype %d init %d threads %s differ\n", (int)dts[d], (int)inits[k],
						threads[t]);
				CHECK(memcmp(ser, par, bytes) == 0);
			}
		}
	}
	unsetenv("RUNG_THREADS");
	/* bad arguments are still reported */
	CHECK(rung_fill_par(par, RUNG_DT_F32, 0, n, RUNG_INIT_UNIFORM, 2, 1, 0, "P") < 0);
	CHECK(rung_fill_par(par, RUNG_DT_F32, 0, n, RUNG_INIT_NPY, 0, 0, 0, "P") < 0);
	free(ser);
	free(par);
}

/* f64 value of element j of buf (any float dtype). */
static double at(const void *buf, rung_dtype dt, int64_t j)
{
	return rung_load_double(buf, dt, j);
}

/* The element a fill of dtype dt stores for the double v (rounded once). */
static double rounded(rung_dtype dt, double v)
{
	char one[8];
	rung_store_double(one, dt, 0, v);
	return rung_load_double(one, dt, 0);
}

static const rung_dtype float_dts[] = { RUNG_DT_F64, RUNG_DT_F32, RUNG_DT_F16, RUNG_DT_BF16 };

/* wide: element i is s * (W + W/10 * z_i), z_i the randn value of element i,
 * s = + in even and - in odd blocks of 4096; W = 1000 (100 in f16). Every
 * element's exp overflows the dtype (and f32 for f16's positive blocks' large
 * ones, nearly all); products of two f16 elements stay finite. */
static void t_wide(void)
{
	enum { N = 3 * RUNG_WIDE_BLOCK + 17 };
	const int64_t start = RUNG_WIDE_BLOCK - 5; /* starts 5 before a sign change */
	char *buf = malloc((size_t)N * 8);
	uint64_t key = rung_rng_key(21, "x");
	CHECK_NEAR(rung_wide_offset(RUNG_DT_F32), 1000, 0);
	CHECK_NEAR(rung_wide_offset(RUNG_DT_F64), 1000, 0);
	CHECK_NEAR(rung_wide_offset(RUNG_DT_BF16), 1000, 0);
	CHECK_NEAR(rung_wide_offset(RUNG_DT_F16), 100, 0);
	for (size_t d = 0; d < sizeof float_dts / sizeof float_dts[0]; d++) {
		rung_dtype dt = float_dts[d];
		double w = rung_wide_offset(dt);
		CHECK_INT(rung_fill_at(buf, dt, start, N, RUNG_INIT_WIDE, 0, 0, 21, "x"), 0);
		int64_t bad = 0, wrong_sign = 0, small = 0, no_overflow = 0, pos = 0;
		double sum_pos = 0, maxabs = 0;
		for (int64_t j = 0; j < N; j++) {
			int64_t i = start + j;
			double v = at(buf, dt, j);
			double z = rung_rng_normal(key, (uint64_t)i);
			double want = ((i / RUNG_WIDE_BLOCK) % 2 ? -1 : 1) * (w + w / 10 * z);
			bad += v != rounded(dt, want);
			wrong_sign += (v > 0) != ((i / RUNG_WIDE_BLOCK) % 2 == 0);
			small += fabs(v) < 0.14 * w || fabs(v) > 1.86 * w; /* |z| <= 8.57 */
			maxabs = fabs(v) > maxabs ? fabs(v) : maxabs;
			if (v > 0) {
				pos++;
				sum_pos += v;
				/* exp overflows the dtype: f16 above 11.09, f32/bf16 above 88.7, f64 above 709.8 */
				double lim = dt == RUNG_DT_F16 ? log(65504.0) : dt == RUNG_DT_F64 ? log(1.7976931348623157e308) : log(3.4028234663852886e38);
				no_overflow += v <= lim;
			}
		}
		CHECK_INT(bad, 0);
		CHECK_INT(wrong_sign, 0);
		CHECK_INT(small, 0);
		CHECK(pos > RUNG_WIDE_BLOCK && pos < N - RUNG_WIDE_BLOCK);
		CHECK_NEAR(sum_pos / (double)pos, w, w / 100); /* the offset: sd of the mean 0.1w/sqrt(8k) */
		if (dt == RUNG_DT_F64)
			CHECK(no_overflow < pos / 100); /* exp(1000 - 2.9 sd) is the first finite one */
		else
			CHECK_INT(no_overflow, 0);
		if (dt == RUNG_DT_F16) {
			CHECK(maxabs * maxabs < 65504); /* a product of two elements is finite in f16 */
			CHECK(maxabs > 88.8);           /* and some exp overflows f32 too */
		}
	}
	/* a pure function of (seed, name, index): chunks in any order give the same bytes */
	float *whole = malloc(sizeof(float) * N), *parts = malloc(sizeof(float) * N);
	CHECK_INT(rung_fill(whole, RUNG_DT_F32, N, RUNG_INIT_WIDE, 0, 0, 5, "w"), 0);
	int64_t ends[] = { N, 8193, 8192, 4097, 4095, 1, 0 };
	for (int k = 0; k < 6; k++)
		CHECK_INT(rung_fill_at(parts + ends[k + 1], RUNG_DT_F32, ends[k + 1], ends[k] - ends[k + 1], RUNG_INIT_WIDE,
				       0, 0, 5, "w"), 0);
	CHECK(memcmp(whole, parts, sizeof(float) * N) == 0);
	/* the same z as randn: wide is a transform of the normal stream */
	CHECK_INT(rung_fill(parts, RUNG_DT_F32, N, RUNG_INIT_RANDN, 0, 0, 5, "w"), 0);
	CHECK(whole[3] == (float)(1000 + 100 * rung_rng_normal(rung_rng_key(5, "w"), 3)));
	free(whole);
	free(parts);
	free(buf);
}

/* constant: every element equals element 0 of the declared init (randn, or
 * uniform(a,b)); a new seed gives another value. */
static void t_constant(void)
{
	enum { N = 70001 };
	char *buf = malloc((size_t)N * 8);
	for (size_t d = 0; d < sizeof float_dts / sizeof float_dts[0]; d++) {
		rung_dtype dt = float_dts[d];
		CHECK_INT(rung_fill_at(buf, dt, 12345, N, RUNG_INIT_CONSTANT, 0, 0, 9, "c"), 0);
		double c = rounded(dt, rung_rng_normal(rung_rng_key(9, "c"), 0));
		int64_t bad = 0;
		for (int64_t j = 0; j < N; j++)
			bad += at(buf, dt, j) != c;
		CHECK_INT(bad, 0);
		CHECK(c != 0);
		/* declared uniform(2, 3): the constant is in [2, 3) */
		CHECK_INT(rung_fill_at(buf, dt, 0, 100, RUNG_INIT_CONSTANT, 2, 3, 9, "c"), 0);
		double u = at(buf, dt, 0);
		CHECK(u == rounded(dt, 2 + rung_rng_uniform(rung_rng_key(9, "c"), 0)));
		CHECK(u >= 2 && u <= 3);
		CHECK(at(buf, dt, 99) == u);
	}
	float a, b;
	CHECK_INT(rung_fill(&a, RUNG_DT_F32, 1, RUNG_INIT_CONSTANT, 0, 0, 1, "c"), 0);
	CHECK_INT(rung_fill(&b, RUNG_DT_F32, 1, RUNG_INIT_CONSTANT, 0, 0, 2, "c"), 0);
	CHECK(a != b);
	free(buf);
}

/* ints: integers uniform in [-8, 8], the same integers in every float dtype
 * (exactly representable: 8 needs 4 bits, bf16 has 8), every value drawn. */
static void t_ints(void)
{
	enum { N = 100003 };
	double *ref = malloc(sizeof(double) * N);
	char *buf = malloc((size_t)N * 8);
	CHECK_INT(rung_fill_at(ref, RUNG_DT_F64, 77, N, RUNG_INIT_INTS, 0, 0, 4, "a"), 0);
	int hist[2 * RUNG_INTS_MAX + 1] = { 0 };
	int64_t out = 0, frac = 0;
	double sum = 0;
	uint64_t key = rung_rng_key(4, "a");
	for (int64_t j = 0; j < N; j++) {
		double v = ref[j];
		frac += v != nearbyint(v);
		if (v < -RUNG_INTS_MAX || v > RUNG_INTS_MAX) {
			out++;
			continue;
		}
		hist[(int)v + RUNG_INTS_MAX]++;
		sum += v;
		/* element i is a pure function of (seed, name, i): the top 32 bits, scaled */
		int64_t k = (int64_t)(((rung_rng_u64(key, (uint64_t)(77 + j)) >> 32) * 17) >> 32) - 8;
		CHECK(v == (double)k);
	}
	CHECK_INT(out, 0);
	CHECK_INT(frac, 0);
	for (int k = 0; k <= 2 * RUNG_INTS_MAX; k++)
		CHECK(hist[k] > N / 17 * 0.9 && hist[k] < N / 17 * 1.1);
	CHECK_NEAR(sum / N, 0, 0.05); /* sd 4.9/sqrt(N) = 0.015 */
	for (size_t d = 1; d < sizeof float_dts / sizeof float_dts[0]; d++) {
		rung_dtype dt = float_dts[d];
		CHECK_INT(rung_fill_at(buf, dt, 77, N, RUNG_INIT_INTS, 0, 0, 4, "a"), 0);
		int64_t bad = 0;
		for (int64_t j = 0; j < N; j++)
			bad += at(buf, dt, j) != ref[j];
		CHECK_INT(bad, 0);
	}
	/* integer dtypes are never given a distribution's data */
	int32_t iv[4];
	CHECK(rung_fill(iv, RUNG_DT_I32, 4, RUNG_INIT_INTS, 0, 0, 4, "a") < 0);
	CHECK_CONTAINS(rung_error_last(), "fill a: the ints distribution needs a float dtype, not i32");
	CHECK(rung_fill(iv, RUNG_DT_I32, 4, RUNG_INIT_WIDE, 0, 0, 4, "a") < 0);
	free(ref);
	free(buf);
}

/* Which arguments a distribution changes: generated float inputs only. */
/* Exponent field 0, mantissa not: a subnormal of dt, from its bits. */
static int subnormal_bits(const void *p, rung_dtype dt)
{
	uint64_t w = 0;
	memcpy(&w, p, rung_dt_size(dt));
	int mb = rung_hd_mant_bits((int)dt), top = 8 * (int)rung_dt_size(dt) - 1;
	uint64_t mant = (UINT64_C(1) << mb) - 1, expo = ((UINT64_C(1) << top) - 1) & ~mant;
	return (w & expo) == 0 && (w & mant) != 0;
}

/* special (issue 25): 3 in 4 blocks of RUNG_HD_SPECIAL_BLOCK stay randn (bit for
 * bit), the others are one kind each, only of the kinds in the mask; every kind
 * turns up in 4096 blocks; a slice equals the whole fill's elements; the mask
 * comes from rung_special_mask_set. */
static void t_special(void)
{
	enum { B = RUNG_HD_SPECIAL_BLOCK, NB = 4096, N = NB * B };
	char *buf = malloc((size_t)N * 8), *part = malloc(1000 * 8);
	char *ref = malloc((size_t)N * 8);
	for (size_t d = 0; d < sizeof float_dts / sizeof float_dts[0]; d++) {
		rung_dtype dt = float_dts[d];
		size_t es = rung_dt_size(dt);
		for (int pass = 0; pass < 2; pass++) {
			uint32_t mask = pass ? (1u << RUNG_SPECIAL_NEG_INF) | (1u << RUNG_SPECIAL_NEG_ZERO) : RUNG_SPECIAL_ALL;
			rung_special_mask_set(mask);
			CHECK_INT(rung_fill(buf, dt, N, RUNG_INIT_SPECIAL, 0, 0, 9, "x"), 0);
			CHECK_INT(rung_fill(ref, dt, N, RUNG_INIT_RANDN, 0, 0, 9, "x"), 0);
			int kinds[8] = { 0 }, normal = 0, mixed = 0, head_ok = 0, heads = 0;
			for (int b = 0; b < NB; b++) {
				const char *g = buf + (size_t)b * B * es, *r = ref + (size_t)b * B * es;
				if (!memcmp(g, r, B * es)) {
					normal++;
					continue;
				}
				int ninf = 0, pinf = 0, nan = 0, nz = 0, sub = 0, mx = 0, same = 0, lead = 0;
				for (int q = 0; q < B; q++) {
					double v = at(g, dt, q);
					same += !memcmp(g + q * es, r + q * es, es);
					ninf += isinf(v) && v < 0;
					lead += q == lead && isinf(v) && v < 0;
					pinf += isinf(v) && v > 0;
					nan += isnan(v);
					nz += v == 0 && signbit(v);
					sub += subnormal_bits(g + q * es, dt);
					mx += isfinite(v) && fabs(v) == (dt == RUNG_DT_F64 ? DBL_MAX : dt == RUNG_DT_F32 ? FLT_MAX : dt == RUNG_DT_F16 ? 65504.0 : 3.3895313892515355e38);
				}
				if (ninf) {
					kinds[0]++;
					heads++;
					head_ok += lead == ninf && ninf + same == B; /* -inf first, randn after */
				} else if (pinf == 1 && same == B - 1) {
					kinds[1]++;
				} else if (nan == 1 && same == B - 1) {
					kinds[2]++;
				} else if (nz == B) {
					kinds[3]++;
				} else if (sub == B) {
					kinds[4]++;
				} else if (mx == 1 && same == B - 1) {
					kinds[5]++;
				} else {
					mixed++;
				}
			}
			CHECK_INT(mixed, 0);
			CHECK_INT(head_ok, heads);
			CHECK(normal > NB * 7 / 10 && normal < NB * 8 / 10);
			for (int k = 0; k < RUNG_NSPECIAL; k++) {
				if ((mask >> k) & 1)
					CHECK(kinds[k] > NB / 4 / RUNG_NSPECIAL / 2);
				else
					CHECK_INT(kinds[k], 0);
			}
			/* a slice is the whole fill's */
			CHECK_INT(rung_fill_at(part, dt, 12345, 1000, RUNG_INIT_SPECIAL, 0, 0, 9, "x"), 0);
			CHECK(!memcmp(part, buf + 12345 * es, 1000 * es));
		}
		rung_special_mask_set(0); /* nothing special: randn */
		CHECK_INT(rung_fill(buf, dt, N, RUNG_INIT_SPECIAL, 0, 0, 9, "x"), 0);
		CHECK(!memcmp(buf, ref, (size_t)N * es));
	}
	rung_special_mask_set(RUNG_SPECIAL_ALL);
	CHECK_INT(rung_dist_init(RUNG_DIST_SPECIAL, RUNG_DT_F32, RUNG_INIT_RANDN), RUNG_INIT_SPECIAL);
	CHECK_INT(rung_dist_init(RUNG_DIST_SPECIAL, RUNG_DT_I32, RUNG_INIT_RANDN), RUNG_INIT_RANDN);
	int iv[4];
	CHECK(rung_fill(iv, RUNG_DT_I32, 4, RUNG_INIT_SPECIAL, 0, 0, 4, "a") < 0);
	free(buf);
	free(part);
	free(ref);
}

static void t_dist_init(void)
{
	CHECK_INT(rung_dist_init(RUNG_DIST_NORMAL, RUNG_DT_F32, RUNG_INIT_RANDN), RUNG_INIT_RANDN);
	CHECK_INT(rung_dist_init(RUNG_DIST_WIDE, RUNG_DT_F32, RUNG_INIT_RANDN), RUNG_INIT_WIDE);
	CHECK_INT(rung_dist_init(RUNG_DIST_WIDE, RUNG_DT_BF16, RUNG_INIT_UNIFORM), RUNG_INIT_WIDE);
	CHECK_INT(rung_dist_init(RUNG_DIST_CONSTANT, RUNG_DT_F16, RUNG_INIT_RANDN), RUNG_INIT_CONSTANT);
	CHECK_INT(rung_dist_init(RUNG_DIST_INTS, RUNG_DT_F64, RUNG_INIT_UNIFORM), RUNG_INIT_INTS);
	/* integer dtypes (indices, sizes) and deliberate data keep their init */
	CHECK_INT(rung_dist_init(RUNG_DIST_WIDE, RUNG_DT_I32, RUNG_INIT_UNIFORM), RUNG_INIT_UNIFORM);
	CHECK_INT(rung_dist_init(RUNG_DIST_INTS, RUNG_DT_U8, RUNG_INIT_ARANGE), RUNG_INIT_ARANGE);
	rung_init_kind fixed[] = { RUNG_INIT_ZEROS, RUNG_INIT_ONES, RUNG_INIT_ARANGE, RUNG_INIT_NPY };
	for (int d = 0; d < RUNG_NDISTS; d++)
		for (int k = 0; k < 4; k++)
			CHECK_INT(rung_dist_init((rung_dist)d, RUNG_DT_F32, fixed[k]), fixed[k]);
	rung_dist dist;
	CHECK_STR(rung_dist_names(), "normal, wide, constant, ints, special");
	CHECK_INT(rung_dist_parse(&dist, "constant"), 0);
	CHECK_INT(dist, RUNG_DIST_CONSTANT);
	CHECK_STR(rung_dist_name(RUNG_DIST_INTS), "ints");
	CHECK(rung_dist_parse(&dist, "Wide") < 0);
	CHECK_STR(rung_error_last(), "unknown distribution 'Wide' (normal, wide, constant, ints, special)");
}

/* The documented stream values (docs/CHECKS.md, "Inputs"): randn through rung's
 * own log and sine/cosine (core/rng_hd.h), compiled with no FMA contraction.
 * These are the host path's values; the device's fill must give the same bytes
 * (tests/gpu_devcheck.c). */
static void t_stream_values(void)
{
	double d[4];
	CHECK_INT(rung_fill(d, RUNG_DT_F64, 4, RUNG_INIT_RANDN, 0, 0, 7, "A"), 0);
	uint64_t want[4] = { UINT64_C(0xbf8ac1f5fce2ca71), UINT64_C(0xbfdff3be27630bfd), UINT64_C(0xbfcc4574f10d3e5c),
			     UINT64_C(0x3fcc32e3cb756f78) };
	for (int i = 0; i < 4; i++) {
		uint64_t u;
		memcpy(&u, &d[i], 8);
		CHECK_INT(u, (long long)want[i]);
	}
	float f[3];
	CHECK_INT(rung_fill(f, RUNG_DT_F32, 3, RUNG_INIT_RANDN, 0, 0, 7, "A"), 0);
	CHECK(f[0] == -0x1.ac1f6p-7f && f[1] == -0x1.ff3be2p-2f && f[2] == -0x1.c4575p-3f);
	uint16_t h[3], b[3];
	CHECK_INT(rung_fill(h, RUNG_DT_F16, 3, RUNG_INIT_WIDE, 0, 0, 7, "A"), 0);
	CHECK_INT(h[0], 0x563e);
	CHECK_INT(h[1], 0x55f0);
	CHECK_INT(h[2], 0x561d);
	CHECK_INT(rung_fill(b, RUNG_DT_BF16, 3, RUNG_INIT_RANDN, 0, 0, 7, "A"), 0);
	CHECK_INT(b[0], 0xbc56);
	CHECK_INT(b[1], 0xbf00);
	CHECK_INT(b[2], 0xbe62);
	CHECK(rung_rng_log(0.3) == -0x1.34378fcbda721p+0);
	double sn, cs;
	rung_rng_sincos_turn(0.3, &sn, &cs);
	CHECK(sn == 0x1.e6f0e134455p-1 && cs == -0x1.3c6ef372fe94ep-2);
	rung_rng_sincos_turn(0, &sn, &cs);
	CHECK(sn == 0 && cs == 1);
	CHECK(rung_rng_log(1.0) == 0);
	CHECK(rung_rng_log(0x1p-53) == -53 * 0x1.62e42fefa39efp-1); /* E ln2, rounded once */
}

/* rung's log and sine/cosine are close to libm's over the inputs randn gives
 * them: the log within 2 ulps, sin and cos of 2 pi u within 1e-15. */
static void t_log_sincos_accuracy(void)
{
	uint64_t key = rung_rng_key(3, "acc");
	double worst_log = 0, worst_sc = 0;
	for (uint64_t p = 0; p < 400000; p++) {
		double u1 = (double)((rung_rng_u64(key, 2 * p) >> 11) + 1) * 0x1.0p-53;
		double u2 = rung_rng_uniform(key, 2 * p + 1);
		double l = rung_rng_log(u1), L = log(u1);
		if (L != 0) {
			double ulp = nextafter(fabs(L), INFINITY) - fabs(L);
			worst_log = fmax(worst_log, fabs(l - L) / ulp);
		}
		double s, c, t = 2 * M_PI * u2;
		rung_rng_sincos_turn(u2, &s, &c);
		worst_sc = fmax(worst_sc, fmax(fabs(s - sin(t)), fabs(c - cos(t))));
	}
	if (worst_log > 2 || worst_sc > 1e-15)
		fprintf(stderr, "  log %.2f ulps, sincos %.3g\n", worst_log, worst_sc);
	CHECK(worst_log <= 2);
	CHECK(worst_sc <= 1e-15);
}

/* The fill is the shared element function (core/rng_hd.h) pair by pair: what
 * the device kernel computes, one thread per pair. */
static void t_fill_is_element_function(void)
{
	enum { N = 9001 };
	rung_dtype dts[] = { RUNG_DT_F32, RUNG_DT_F64, RUNG_DT_F16, RUNG_DT_BF16, RUNG_DT_I32, RUNG_DT_U8, RUNG_DT_I64 };
	rung_init_kind inits[] = { RUNG_INIT_RANDN, RUNG_INIT_UNIFORM, RUNG_INIT_ARANGE, RUNG_INIT_ONES, RUNG_INIT_ZEROS,
				   RUNG_INIT_WIDE, RUNG_INIT_CONSTANT, RUNG_INIT_INTS };
	char *fill = malloc((size_t)N * 8), *elem = malloc((size_t)N * 8);
	for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
		for (size_t k = 0; k < sizeof inits / sizeof inits[0]; k++) {
			if (inits[k] >= RUNG_INIT_WIDE && !rung_dtype_is_float(dts[d]))
				continue;
			int es = (int)rung_dt_size(dts[d]);
			CHECK_INT(rung_fill(fill, dts[d], N, inits[k], -3, 5, 11, "E"), 0);
			rung_hd_gen g;
			rung_gen_params(&g, dts[d], inits[k], -3, 5, 11, "E");
			for (uint64_t p = 0; 2 * p < N; p++) {
				uint64_t b0, b1;
				rung_hd_gen_pair(&g, p, &b0, &b1);
				rung_hd_store_bits(elem, es, (int64_t)(2 * p), b0);
				if (2 * p + 1 < N)
					rung_hd_store_bits(elem, es, (int64_t)(2 * p + 1), b1);
			}
			CHECK(memcmp(fill, elem, (size_t)N * (size_t)es) == 0);
		}
	}
	free(fill);
	free(elem);
}

/* The chunk hash (gpu/worker/stage.c, core/metrics_hd.h): a sum of
 * position-mixed words, so any order of the additions gives it (the device sums
 * with a block of threads), and one changed byte anywhere changes it. */
static void t_chunk_hash(void)
{
	enum { LEN = 8 * 1000 + 5 };
	unsigned char *b = malloc(LEN);
	for (int i = 0; i < LEN; i++)
		b[i] = (unsigned char)(rung_rng_u64(9, (uint64_t)i) >> 56);
	uint64_t h = rung__hash_bytes(b, LEN);
	/* the words summed backwards, the tail word zero-padded */
	uint64_t sum = 0, tail = 0;
	memcpy(&tail, b + 8000, 5);
	sum += rung_hd_hash_term(1000, tail);
	for (int k = 999; k >= 0; k--) {
		uint64_t w;
		memcpy(&w, b + 8 * k, 8);
		sum += rung_hd_hash_term((uint64_t)k, w);
	}
	CHECK(rung_hd_hash_final(sum, LEN) == h);
	for (int i = 0; i < LEN; i += 997) {
		b[i] ^= 1;
		CHECK(rung__hash_bytes(b, LEN) != h);
		b[i] ^= 1;
	}
	CHECK(rung__hash_bytes(b, LEN - 1) != h); /* the length counts */
	/* two words swapped change it (positions are mixed in) */
	unsigned char t[8];
	memcpy(t, b, 8);
	memcpy(b, b + 8, 8);
	memcpy(b + 8, t, 8);
	CHECK(rung__hash_bytes(b, LEN) != h);
	free(b);
}

int main(void)
{
	T_RUN(t_reproducible);
	T_RUN(t_order_independent);
	T_RUN(t_parallel_fill);
	T_RUN(t_distinct);
	T_RUN(t_randn_pairs_match_scalar);
	T_RUN(t_randn_moments);
	T_RUN(t_uniform_and_kinds);
	T_RUN(t_wide);
	T_RUN(t_constant);
	T_RUN(t_ints);
	T_RUN(t_special);
	T_RUN(t_dist_init);
	T_RUN(t_stream_values);
	T_RUN(t_log_sincos_accuracy);
	T_RUN(t_fill_is_element_function);
	T_RUN(t_chunk_hash);
	return t_done();
}

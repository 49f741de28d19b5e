/* Check metrics against values computed by hand (arithmetic in the comments). */
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/err.h"
#include "core/errmap.h"
#include "core/guard.h"
#include "core/metrics.h"
#include "core/rng.h"
#include "core/timing.h"

static rung_check_opts abs_opts(double atol, double rtol)
{
	rung_check_opts o;
	rung_check_opts_default(&o, RUNG_DT_F32);
	o.atol = atol;
	o.rtol = rtol;
	o.atol_scaled = false;
	return o;
}

static void t_hand_computed(void)
{
	/* shape (2,3), atol 0.1 rtol 0.1 absolute
	 * ref  = 1 2   3 4 5 6
	 * got  = 1 2.5 3 4 5 5
	 * |d|  = 0 0.5 0 0 0 1           max_abs = 1
	 * rel  = d / max(|r|, atol) = 0, .25, 0, 0, 0, 1/6    max_rel = 0.25
	 * MAE  = 1.5 / 6 = 0.25
	 * MSE  = (0.25 + 1) / 6 = 0.208333...   RMSE = sqrt(0.208333) = 0.45643546...
	 * peak = 6, PSNR = 10 log10(36 / 0.208333) = 10 log10(172.8) = 22.37543...
	 * dot = 1 + 5 + 9 + 16 + 25 + 30 = 86; |g|^2 = 82.25; |r|^2 = 91
	 * cos = 86 / sqrt(82.25 * 91) = 86 / sqrt(7484.75) = 86 / 86.51445 = 0.9940536
	 * tol = 0.1 + 0.1|r|: idx1 0.3 < 0.5 bad, idx5 0.7 < 1 bad -> 2 mismatches
	 * worst excess: idx1 0.5/0.3 = 1.67 > idx5 1/0.7 = 1.43 -> reported at (0,1)
	 * ULP: 2 -> 2.5 is 0x40000000 -> 0x40200000 = 2^21 steps (bin >=65536), same 5 -> 6 */
	float ref[6] = { 1, 2, 3, 4, 5, 6 }, got[6] = { 1, 2.5f, 3, 4, 5, 5 };
	int64_t shape[2] = { 2, 3 };
	rung_check_opts o = abs_opts(0.1, 0.1);
	rung_check_metric m;
	memset(&m, 0, sizeof m);
	m.seed = 77;
	CHECK_INT(rung_metrics_compute(&m, "C", got, ref, RUNG_DT_F32, 6, 2, shape, &o), 0);
	CHECK_INT(m.seed, 77); /* left alone */
	CHECK_STR(m.output, "C");
	CHECK_INT(m.n, 6);
	CHECK_NEAR(m.max_abs, 1.0, 0);
	CHECK_NEAR(m.max_rel, 0.25, 0);
	CHECK_NEAR(m.mae, 0.25, 1e-15);
	CHECK_NEAR(m.mse, 1.25 / 6, 1e-15);
	CHECK_NEAR(m.rmse, sqrt(1.25 / 6), 1e-15);
	CHECK_NEAR(m.rmse, 0.45643546458763845, 1e-15);
	CHECK_NEAR(m.peak, 6, 0);
	CHECK_NEAR(m.psnr, 22.375437381428746, 1e-12);
	CHECK_NEAR(m.cossim, 86.0 / sqrt(7484.75), 1e-15);
	CHECK_NEAR(m.cossim, 0.9940536, 1e-6);
	CHECK_INT(m.mismatches, 2);
	CHECK_INT(m.nan_count, 0);
	CHECK_INT(m.unwritten, 0);
	CHECK_INT(m.nbad, 2);
	CHECK_INT(m.bad_rank, 2);
	CHECK_INT(m.bad_index[0], 1);
	CHECK_INT(m.bad_coord[0][0], 0);
	CHECK_INT(m.bad_coord[0][1], 1);
	CHECK_INT(m.bad_index[1], 5);
	CHECK_INT(m.bad_coord[1][0], 1);
	CHECK_INT(m.bad_coord[1][1], 2);
	CHECK_NEAR(m.bad_got[1], 5, 0);
	CHECK_NEAR(m.bad_expected[1], 6, 0);
	CHECK(m.has_ulp);
	CHECK_INT(m.ulp_hist[0], 4);
	CHECK_INT(m.ulp_hist[6], 2);
	CHECK(!m.pass);
	/* the element furthest outside its tolerance (0.5 / 0.3), not called max_rel:
	 * max_rel is m.max_rel alone */
	CHECK_STR(m.reason, "worst at (0,1): got 2.5 expected 2, 1.7x its tolerance; 2 of 6 elements of C outside atol 0.1 + rtol 1.0e-01*|ref|");

	/* loosen rtol to 1: tol idx1 = 2.1, idx5 = 6.1 -> pass */
	o.rtol = 1;
	CHECK_INT(rung_metrics_compute(&m, "C", got, ref, RUNG_DT_F32, 6, 2, shape, &o), 0);
	CHECK(m.pass);
	CHECK_STR(m.reason, "");
	CHECK_INT(m.nbad, 0);
}

static void t_nan_inf_poison_order(void)
{
	/* ref = 1, nan, inf, 2, 3;  got = poison, nan, inf, nan, 3+1ulp */
	float ref[5] = { 1, NAN, INFINITY, 2, 3 };
	float got[5];
	rung_poison_fill(got, RUNG_DT_F32, 1, 0);
	got[1] = NAN;
	got[2] = INFINITY;
	got[3] = NAN;
	got[4] = nextafterf(3.0f, 4.0f);
	int64_t shape[1] = { 5 };
	rung_check_opts o;
	rung_check_opts_default(&o, RUNG_DT_F32);
	rung_check_metric m = { 0 };
	CHECK_INT(rung_metrics_compute(&m, "C", got, ref, RUNG_DT_F32, 5, 1, shape, &o), 0);
	CHECK_INT(m.unwritten, 1);
	CHECK_INT(m.nan_count, 2);   /* computed NaNs; poison is not counted here */
	CHECK_INT(m.inf_count, 1);
	CHECK_INT(m.mismatches, 2);  /* idx0 (unwritten), idx3 (NaN where 2 expected) */
	CHECK_INT(m.bad_index[0], 0);
	CHECK_INT(m.bad_index[1], 3);
	/* only idx4 is a finite pair: |d| = ulp(3) = 2^-22 */
	CHECK_NEAR(m.max_abs, 0x1p-22, 0);
	CHECK_NEAR(m.peak, 3, 0);
	/* ulp bins: idx1, idx2 equal (0); idx4 one step (1); idx0, idx3 nan/inf mismatch (7) */
	CHECK_INT(m.ulp_hist[0], 2);
	CHECK_INT(m.ulp_hist[1], 1);
	CHECK_INT(m.ulp_hist[RUNG_ULP_BINS - 1], 2);
	CHECK(!m.pass);
	CHECK_STR(m.reason, "unwritten 1 elements of C (poison left), first at (0)");

	got[0] = 1;
	rung_metrics_compute(&m, "C", got, ref, RUNG_DT_F32, 5, 1, shape, &o);
	CHECK_STR(m.reason, "1 NaN in C, first at (3)");

	got[3] = 2;
	rung_metrics_compute(&m, "C", got, ref, RUNG_DT_F32, 5, 1, shape, &o);
	/* default f32 tolerance: atol 1e-5 * peak 3 = 3e-5 >> 2^-22 */
	CHECK(m.pass);

	got[2] = -INFINITY;
	rung_metrics_compute(&m, "C", got, ref, RUNG_DT_F32, 5, 1, shape, &o);
	CHECK_STR(m.reason, "1 Inf in C, first at (2): expected inf");

	/* a finite got where the reference is NaN is a mismatch too */
	got[2] = INFINITY;
	got[1] = 0;
	rung_metrics_compute(&m, "C", got, ref, RUNG_DT_F32, 5, 1, shape, &o);
	CHECK(!m.pass);
	CHECK_INT(m.mismatches, 1);
	CHECK_STR(m.reason, "1 mismatches in C, first at (1): got 0 expected nan");

	/* poison checking off: the poison is just a NaN */
	rung_poison_fill(got, RUNG_DT_F32, 1, 0);
	got[1] = NAN;
	o.check_poison = false;
	rung_metrics_compute(&m, "C", got, ref, RUNG_DT_F32, 5, 1, shape, &o);
	CHECK_INT(m.unwritten, 0);
	CHECK_STR(m.reason, "1 NaN in C, first at (0)");
}

static void t_psnr_cossim_gates(void)
{
	/* ref = 0 0 0 4, got = 1 0 0 4 (atol 10: no mismatch)
	 * MSE = 1/4, peak 4, PSNR = 10 log10(16 / 0.25) = 10 log10(64) = 18.0618 dB
	 * cos = 16 / sqrt(17 * 16) = 0.9701425 */
	float ref[4] = { 0, 0, 0, 4 }, got[4] = { 1, 0, 0, 4 };
	rung_check_opts o = abs_opts(10, 0);
	rung_check_metric m = { 0 };
	o.has_min_psnr = true;
	o.min_psnr = 20;
	rung_metrics_compute(&m, "Y", got, ref, RUNG_DT_F32, 4, 0, NULL, &o);
	CHECK_NEAR(m.psnr, 10 * log10(64.0), 1e-12);
	CHECK_NEAR(m.psnr, 18.061799739838872, 1e-12);
	CHECK_NEAR(m.cossim, 16 / sqrt(272.0), 1e-15);
	CHECK_INT(m.mismatches, 0);
	CHECK(!m.pass);
	CHECK_STR(m.reason, "psnr 18.1dB < 20dB in Y");
	o.min_psnr = 18;
	o.has_min_cossim = true;
	o.min_cossim = 0.99;
	rung_metrics_compute(&m, "Y", got, ref, RUNG_DT_F32, 4, 0, NULL, &o);
	CHECK(!m.pass);
	CHECK_STR(m.reason, "cossim 0.970143 < 0.99 in Y");
	o.min_cossim = 0.97;
	rung_metrics_compute(&m, "Y", got, ref, RUNG_DT_F32, 4, 0, NULL, &o);
	CHECK(m.pass);

	/* identical: MSE 0 -> PSNR inf, printed "inf"; cos 1 */
	rung_metrics_compute(&m, "Y", ref, ref, RUNG_DT_F32, 4, 0, NULL, &o);
	CHECK(isinf(m.psnr) && m.psnr > 0);
	char b[32];
	CHECK_STR(rung_fmt_double(b, sizeof b, m.psnr, 4), "inf");
	CHECK_NEAR(m.cossim, 1, 0);
	/* both all zero: cos defined as 1; got zero against nonzero ref: 0 */
	float z[4] = { 0 };
	rung_metrics_compute(&m, "Y", z, z, RUNG_DT_F32, 4, 0, NULL, &o);
	CHECK_NEAR(m.cossim, 1, 0);
	o.min_cossim = 0.5;
	rung_metrics_compute(&m, "Y", z, ref, RUNG_DT_F32, 4, 0, NULL, &o);
	CHECK_NEAR(m.cossim, 0, 0);
	CHECK(!m.pass);
}

static void t_default_tolerance_scaled(void)
{
	double a, r;
	rung_tolerance_default(RUNG_DT_F32, &a, &r);
	CHECK_NEAR(a, 1e-5, 0);
	CHECK_NEAR(r, 1e-5, 0);
	rung_tolerance_default(RUNG_DT_I32, &a, &r);
	CHECK_NEAR(a, 0, 0);
	CHECK_NEAR(r, 0, 0);
	/* ref = 100, 0: default atol = 1e-5 * 100 = 1e-3
	 * got[1] = 5e-4 passes (5e-4 <= 1e-3 + 0); 2e-3 fails, rel = 2e-3 / max(0, 1e-3) = 2 */
	float ref[2] = { 100, 0 }, got[2] = { 100, 5e-4f };
	rung_check_opts o;
	rung_check_opts_default(&o, RUNG_DT_F32);
	rung_check_metric m = { 0 };
	rung_metrics_compute(&m, "C", got, ref, RUNG_DT_F32, 2, 0, NULL, &o);
	CHECK(m.pass);
	got[1] = 2e-3f;
	rung_metrics_compute(&m, "C", got, ref, RUNG_DT_F32, 2, 0, NULL, &o);
	CHECK(!m.pass);
	CHECK_NEAR(m.max_rel, 2.0, 1e-6);
	CHECK_CONTAINS(m.reason, "worst at (1): got 0.002 expected 0, 2x its tolerance; 1 of 2 elements of C outside atol 0.001 + rtol 1.0e-05*|ref|");

	/* the spec's atol is absolute */
	rung_spec spec;
	memset(&spec, 0, sizeof spec);
	spec.has_atol = true;
	spec.atol = 0.01;
	spec.has_min_psnr = true;
	spec.min_psnr = 30;
	rung_check_opts_from_spec(&o, &spec, RUNG_DT_F32);
	CHECK(!o.atol_scaled);
	CHECK_NEAR(o.atol, 0.01, 0);
	CHECK_NEAR(o.rtol, 1e-5, 0);
	CHECK(o.has_min_psnr && !o.has_min_cossim);
	rung_metrics_compute(&m, "C", got, ref, RUNG_DT_F32, 2, 0, NULL, &o);
	CHECK_INT(m.mismatches, 0);
}

enum { GM = 33, GN = 17, GK = 257 };

/* C = A B for fp32 A[GM,GK], B[GK,GN] of init kind `init`, summed over k forwards
 * into fwd and backwards into rev; returns how many elements differ. */
static int64_t gemm_two_orders(float *fwd, float *rev, rung_init_kind init)
{
	float *a = malloc(sizeof(float) * GM * GK), *b = malloc(sizeof(float) * GK * GN);
	rung_fill(a, RUNG_DT_F32, GM * GK, init, 0, 0, 3, "A");
	rung_fill(b, RUNG_DT_F32, GK * GN, init, 0, 0, 3, "B");
	int64_t differ = 0;
	for (int i = 0; i < GM; i++) {
		for (int j = 0; j < GN; j++) {
			float s = 0, r = 0;
			for (int k = 0; k < GK; k++)
				s += a[i * GK + k] * b[k * GN + j];
			for (int k = GK - 1; k >= 0; k--)
				r += a[i * GK + k] * b[k * GN + j];
			fwd[i * GN + j] = s;
			rev[i * GN + j] = r;
			differ += s != r;
		}
	}
	free(a);
	free(b);
	return differ;
}

/* [check] inputs = ints: small integers make a GEMM exact in fp32 (every partial
 * sum is an integer below 2^24), so two summation orders give the same bits and
 * the case compares exactly; one ulp off fails, where the spec's tolerance
 * would have passed it. With randn inputs the two orders differ. */
static void t_ints_compare_exactly(void)
{
	float *fwd = malloc(sizeof(float) * GM * GN), *rev = malloc(sizeof(float) * GM * GN);
	CHECK(gemm_two_orders(fwd, rev, RUNG_INIT_RANDN) > GM * GN / 4);
	CHECK_INT(gemm_two_orders(fwd, rev, RUNG_INIT_INTS), 0);

	rung_spec spec;
	memset(&spec, 0, sizeof spec);
	spec.has_rtol = true;
	spec.rtol = 1e-3;
	rung_check_opts o, exact, same;
	rung_check_opts_from_spec(&o, &spec, RUNG_DT_F32);
	exact = same = o;
	rung_check_opts_inputs(&exact, RUNG_DIST_INTS);
	CHECK(exact.atol == 0 && exact.rtol == 0 && !exact.atol_scaled);
	rung_check_opts_inputs(&same, RUNG_DIST_WIDE); /* the other distributions keep the spec's */
	CHECK(memcmp(&same, &o, sizeof o) == 0);
	rung_check_metric m = { 0 };
	CHECK_INT(rung_metrics_compute(&m, "C", rev, fwd, RUNG_DT_F32, GM * GN, 0, NULL, &exact), 0);
	CHECK(m.pass);
	CHECK_INT(m.mismatches, 0);
	CHECK_NEAR(m.max_abs, 0, 0);
	CHECK(m.psnr == INFINITY);
	/* one ulp off: the exact compare fails, the spec's tolerance passes it */
	rev[5] = nextafterf(rev[5], INFINITY);
	CHECK_INT(rung_metrics_compute(&m, "C", rev, fwd, RUNG_DT_F32, GM * GN, 0, NULL, &exact), 0);
	CHECK(!m.pass);
	CHECK_INT(m.mismatches, 1);
	CHECK_CONTAINS(m.reason, "1 of 561 elements of C outside atol 0 + rtol 0.0e+00*|ref|");
	CHECK_INT(rung_metrics_compute(&m, "C", rev, fwd, RUNG_DT_F32, GM * GN, 0, NULL, &o), 0);
	CHECK(m.pass);
	/* -0 and +0 are equal, NaN equals NaN */
	float z[2] = { 0.0f, NAN }, nz[2] = { -0.0f, NAN };
	CHECK_INT(rung_metrics_compute(&m, "C", nz, z, RUNG_DT_F32, 2, 0, NULL, &exact), 0);
	CHECK(m.pass);
	free(fwd);
	free(rev);
}

static void t_integers_and_f16(void)
{
	int32_t ri[3] = { 1, 2, 3 }, gi[3] = { 1, 2, 4 };
	rung_check_metric m = { 0 };
	CHECK_INT(rung_metrics_compute(&m, "I", gi, ri, RUNG_DT_I32, 3, 0, NULL, NULL), 0);
	CHECK_INT(m.mismatches, 1);
	CHECK(!m.has_ulp);
	CHECK_CONTAINS(m.reason, "worst at (2): got 4 expected 3; 1 of 3 elements of I outside atol 0"); /* exact: no ratio */
	/* i64 beyond 2^53: equal as doubles, different as integers */
	int64_t rl[1] = { (1LL << 53) + 1 }, gl[1] = { 1LL << 53 };
	rung_metrics_compute(&m, "L", gl, rl, RUNG_DT_I64, 1, 0, NULL, NULL);
	CHECK_INT(m.mismatches, 1);
	/* poison in an int output */
	int32_t gp[3] = { 1, 2, 3 };
	rung_poison_fill(gp + 1, RUNG_DT_I32, 1, 0);
	rung_metrics_compute(&m, "I", gp, ri, RUNG_DT_I32, 3, 0, NULL, NULL);
	CHECK_INT(m.unwritten, 1);
	CHECK_STR(m.reason, "unwritten 1 elements of I (poison left), first at (1)");

	/* f16: 1.0 vs next value up (1 + 2^-10): rel 9.77e-4 < rtol 2e-3, 1 ulp */
	uint16_t rh[2] = { 0x3c00, 0x4000 }, gh[2] = { 0x3c01, 0x4000 };
	rung_metrics_compute(&m, "H", gh, rh, RUNG_DT_F16, 2, 0, NULL, NULL);
	CHECK(m.pass);
	CHECK_NEAR(m.max_abs, 0x1p-10, 0);
	CHECK_INT(m.ulp_hist[1], 1);
	CHECK_INT(m.ulp_hist[0], 1);
}

static void t_ulp_bins_and_coords(void)
{
	CHECK_INT(rung_ulp_bin(0), 0);
	CHECK_INT(rung_ulp_bin(1), 1);
	CHECK_INT(rung_ulp_bin(2), 2);
	CHECK_INT(rung_ulp_bin(3), 2);
	CHECK_INT(rung_ulp_bin(4), 3);
	CHECK_INT(rung_ulp_bin(15), 3);
	CHECK_INT(rung_ulp_bin(16), 4);
	CHECK_INT(rung_ulp_bin(255), 4);
	CHECK_INT(rung_ulp_bin(256), 5);
	CHECK_INT(rung_ulp_bin(65535), 5);
	CHECK_INT(rung_ulp_bin(65536), 6);
	/* across zero: -denorm_min vs +denorm_min are 2 steps apart; -0 vs +0 none */
	float r[2] = { 0x1p-149f, 0.0f }, g[2] = { -0x1p-149f, -0.0f };
	rung_check_metric m = { 0 };
	rung_check_opts o = abs_opts(1, 0);
	rung_metrics_compute(&m, "U", g, r, RUNG_DT_F32, 2, 0, NULL, &o);
	CHECK_INT(m.ulp_hist[2], 1);
	CHECK_INT(m.ulp_hist[0], 1);

	int64_t c[RUNG_MAX_RANK];
	int64_t sh[3] = { 2, 3, 4 };
	/* 23 = 1*12 + 2*4 + 3 -> (1,2,3) */
	CHECK_INT(rung_unflatten(c, 23, 3, sh, 24), 3);
	CHECK_INT(c[0], 1);
	CHECK_INT(c[1], 2);
	CHECK_INT(c[2], 3);
	char b[64];
	rung_fmt_coord(b, sizeof b, c, 3);
	CHECK_STR(b, "(1,2,3)");
	/* shape that does not match n: flat index */
	CHECK_INT(rung_unflatten(c, 23, 3, sh, 25), 1);
	CHECK_INT(c[0], 23);
	/* conversion helper */
	uint16_t h[2] = { 0x3c00, 0xc000 };
	double d[2];
	rung_to_double(d, h, RUNG_DT_F16, 2);
	CHECK_NEAR(d[0], 1, 0);
	CHECK_NEAR(d[1], -2, 0);
}

static void t_speed_16m(void)
{
	const int64_t n = 16 * 1024 * 1024;
	float *ref = malloc(sizeof(float) * (size_t)n), *got = malloc(sizeof(float) * (size_t)n);
	CHECK(ref && got);
	if (!ref || !got)
		return;
	for (int64_t i = 0; i < n; i++) {
		ref[i] = (float)(i % 1000) - 500.0f;
		got[i] = ref[i];
	}
	got[n - 1] += 1.0f; /* one error of 1 on n elements: MSE = 1/n */
	int64_t shape[2] = { 4096, 4096 };
	rung_check_metric m = { 0 };
	double t0 = rung_now_s();
	CHECK_INT(rung_metrics_compute(&m, "C", got, ref, RUNG_DT_F32, n, 2, shape, NULL), 0);
	double s = rung_now_s() - t0;
	printf("     16M f32 compared in %.3f s (speed is measured in bench/, not asserted here)\n", s);
	CHECK_INT(m.mismatches, 1);
	CHECK_INT(m.bad_coord[0][0], 4095);
	CHECK_INT(m.bad_coord[0][1], 4095);
	/* accurate sums: MAE = MSE = 1/n exactly (compensated block sums) */
	CHECK_NEAR(m.mse, 1.0 / (double)n, 1e-22);
	CHECK_NEAR(m.mae, 1.0 / (double)n, 1e-22);
	free(ref);
	free(got);
}

static bool same_metric(const rung_check_metric *a, const rung_check_metric *b)
{
	bool same = a->n == b->n && a->nan_count == b->nan_count && a->inf_count == b->inf_count &&
		    a->mismatches == b->mismatches && a->unwritten == b->unwritten && a->nbad == b->nbad &&
		    a->bad_rank == b->bad_rank && a->pass == b->pass && !strcmp(a->reason, b->reason);
	/* bit-identical doubles (NaN == NaN here) */
	double x[] = { a->max_abs, a->max_rel, a->mae, a->mse, a->rmse, a->psnr, a->cossim, a->peak };
	double y[] = { b->max_abs, b->max_rel, b->mae, b->mse, b->rmse, b->psnr, b->cossim, b->peak };
	same = same && memcmp(x, y, sizeof x) == 0;
	same = same && memcmp(a->ulp_hist, b->ulp_hist, sizeof a->ulp_hist) == 0;
	same = same && memcmp(&a->map, &b->map, sizeof a->map) == 0;
	for (int k = 0; k < a->nbad && same; k++)
		same = a->bad_index[k] == b->bad_index[k] && memcmp(&a->bad_got[k], &b->bad_got[k], 8) == 0 &&
		       memcmp(&a->bad_expected[k], &b->bad_expected[k], 8) == 0 &&
		       memcmp(a->bad_coord[k], b->bad_coord[k], sizeof a->bad_coord[k]) == 0;
	return same;
}

/* Streams got/ref through the begin/feed/merge/end API in chunks of `chunk`
 * elements, the chunks fed in reverse order (as threads may finish). */
static void streamed(rung_check_metric *m, const float *got, const float *ref, int64_t n, int64_t chunk,
		     const int64_t *shape, const rung_check_opts *o)
{
	int64_t nc = (n + chunk - 1) / chunk;
	rung_metrics_acc *acc = malloc((size_t)nc * sizeof(*acc));
	double peak = 0;
	for (int64_t k = nc - 1; k >= 0; k--) {
		int64_t s = k * chunk, c = n - s < chunk ? n - s : chunk;
		double p = rung_metrics_peak(ref + s, RUNG_DT_F32, c);
		peak = p > peak ? p : peak;
	}
	rung_metrics_ctx ctx;
	CHECK_INT(rung_metrics_begin(&ctx, "C", RUNG_DT_F32, n, 2, shape, o, peak), 0);
	for (int64_t k = nc - 1; k >= 0; k--) {
		int64_t s = k * chunk, c = n - s < chunk ? n - s : chunk;
		rung_metrics_acc_init(&acc[k], s);
		rung_metrics_feed(&ctx, &acc[k], got + s, ref + s, c);
	}
	rung_metrics_acc total = acc[0];
	for (int64_t k = 1; k < nc; k++)
		rung_metrics_merge(&total, &acc[k]);
	rung_metrics_end(&ctx, &total, m);
	free(acc);
}

/* Chunked streaming == whole-array compute: bit-identical with the library's
 * chunk size, and within 1e-12 relative (sums only) with any other chunking;
 * counts, first bad elements, histogram and reason identical in every case. */
static void t_streaming_equals_whole(void)
{
	const int64_t rows = 700, cols = 300, n = rows * cols; /* 210000: 3.2 chunks */
	int64_t shape[2] = { rows, cols };
	float *ref = malloc(sizeof(float) * (size_t)n), *got = malloc(sizeof(float) * (size_t)n);
	rung_fill(ref, RUNG_DT_F32, n, RUNG_INIT_RANDN, 0, 0, 5, "R");
	rung_fill(got, RUNG_DT_F32, n, RUNG_INIT_RANDN, 0, 0, 6, "G");
	for (int64_t i = 0; i < n; i++)
		got[i] = ref[i] + 1e-6f * got[i]; /* small noise everywhere, within tolerance */
	/* scattered faults across chunk boundaries: a NaN, an Inf, poison, big errors */
	uint32_t pois = 0x7FC0DEADu;
	got[70000] = NAN;
	got[131071] = INFINITY;
	memcpy(&got[131072], &pois, 4);
	got[200001] += 50.0f;
	got[5] += 3.0f;
	rung_check_opts o;
	rung_check_opts_default(&o, RUNG_DT_F32);
	rung_check_metric whole = { 0 }, part = { 0 };
	CHECK_INT(rung_metrics_compute(&whole, "C", got, ref, RUNG_DT_F32, n, 2, shape, &o), 0);
	CHECK(!whole.pass);
	CHECK_INT(whole.unwritten, 1);
	CHECK_INT(whole.nan_count, 1);
	CHECK_INT(whole.inf_count, 1);
	CHECK_CONTAINS(whole.reason, "unwritten 1 elements of C");

	streamed(&part, got, ref, n, RUNG_METRICS_CHUNK, shape, &o);
	CHECK(same_metric(&whole, &part));
	int64_t chunks[] = { 1000, 4096, 77777, 2 * RUNG_METRICS_CHUNK, n };
	for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
		streamed(&part, got, ref, n, chunks[c], shape, &o);
		CHECK_INT(part.mismatches, whole.mismatches);
		CHECK_INT(part.nbad, whole.nbad);
		CHECK_STR(part.reason, whole.reason);
		CHECK(memcmp(part.ulp_hist, whole.ulp_hist, sizeof part.ulp_hist) == 0);
		CHECK(memcmp(&part.map, &whole.map, sizeof part.map) == 0); /* a max per tile: any chunking */
		CHECK(part.max_abs == whole.max_abs && part.max_rel == whole.max_rel && part.peak == whole.peak);
		CHECK_NEAR(part.mae, whole.mae, 1e-12 * whole.mae);
		CHECK_NEAR(part.mse, whole.mse, 1e-12 * whole.mse);
		CHECK_NEAR(part.cossim, whole.cossim, 1e-12);
		for (int k = 0; k < part.nbad; k++)
			CHECK_INT(part.bad_index[k], whole.bad_index[k]);
	}
	/* no poison, NaN or Inf: the verdict names the worst element the same way */
	got[70000] = ref[70000];
	got[131071] = ref[131071];
	got[131072] = ref[131072];
	CHECK_INT(rung_metrics_compute(&whole, "C", got, ref, RUNG_DT_F32, n, 2, shape, &o), 0);
	CHECK_CONTAINS(whole.reason, "at (666,201)"); /* 200001 = 666 * 300 + 201 */
	streamed(&part, got, ref, n, 1000, shape, &o);
	CHECK_STR(part.reason, whole.reason);
	streamed(&part, got, ref, n, RUNG_METRICS_CHUNK, shape, &o);
	CHECK(same_metric(&whole, &part));
	/* one accumulator fed consecutive pieces == one piece: exact for any cut */
	rung_metrics_ctx ctx;
	rung_metrics_acc one, cut;
	rung_metrics_begin(&ctx, "C", RUNG_DT_F32, n, 2, shape, &o, whole.peak);
	rung_metrics_acc_init(&one, 0);
	rung_metrics_feed(&ctx, &one, got, ref, n);
	rung_metrics_acc_init(&cut, 0);
	rung_metrics_feed(&ctx, &cut, got, ref, 12345);
	rung_metrics_feed(&ctx, &cut, got + 12345, ref + 12345, n - 12345);
	rung_check_metric m1 = { 0 }, m2 = { 0 };
	rung_metrics_end(&ctx, &one, &m1);
	rung_metrics_end(&ctx, &cut, &m2);
	CHECK(same_metric(&m1, &m2));
	/* the result does not depend on the thread count */
	setenv("RUNG_THREADS", "1", 1);
	CHECK_INT(rung_metrics_compute(&m1, "C", got, ref, RUNG_DT_F32, n, 2, shape, &o), 0);
	setenv("RUNG_THREADS", "3", 1);
	CHECK_INT(rung_metrics_compute(&m2, "C", got, ref, RUNG_DT_F32, n, 2, shape, &o), 0);
	unsetenv("RUNG_THREADS");
	CHECK(same_metric(&m1, &m2));
	free(ref);
	free(got);
}

/* ---- the error map ---------------------------------------------------------- */

static void t_map_geometry(void)
{
	rung_err_map_geom g;
	int64_t s2[2] = { 127, 255 }; /* 127 rows: 2 per tile -> 64 tiles (the last holds row 126); 255 cols: 4 per tile */
	rung_err_map_geom_init(&g, 127 * 255, 2, s2);
	CHECK_INT(g.rows, 64);
	CHECK_INT(g.cols, 64);
	CHECK_INT(g.th, 2);
	CHECK_INT(g.tw, 4);
	CHECK_INT(g.h, 127);
	CHECK_INT(g.w, 255);
	int64_t s3[3] = { 5, 3, 7 }; /* leading dim folded: a 3 x 7 plane, one element per tile */
	rung_err_map_geom_init(&g, 105, 3, s3);
	CHECK(g.rows == 3 && g.cols == 7 && g.th == 1 && g.tw == 1);
	int64_t s1[1] = { 1000 }; /* rank 1: a strip of 63 tiles of 16 (the last holds 8) */
	rung_err_map_geom_init(&g, 1000, 1, s1);
	CHECK(g.rows == 1 && g.cols == 63 && g.tw == 16 && g.h == 1);
	rung_err_map_geom_init(&g, 999, 1, s1); /* a shape that is not n: a strip of n */
	CHECK(g.rows == 1 && g.w == 999);
	int64_t big[2] = { 4096, 4096 };
	rung_err_map_geom_init(&g, 4096 * 4096, 2, big);
	CHECK(g.rows == 64 && g.cols == 64 && g.th == 64 && g.tw == 64);
	rung_err_map_geom_init(&g, 0, 2, big);
	CHECK_INT(g.rows, 0);
	/* levels: (1,10] -> 1, (10,100] -> 2, ..., beyond 1e8 and a zero tolerance -> 9 */
	CHECK_INT(rung_err_map_level(1.0001), 1);
	CHECK_INT(rung_err_map_level(10), 1);
	CHECK_INT(rung_err_map_level(10.5), 2);
	CHECK_INT(rung_err_map_level(1000), 3);
	CHECK_INT(rung_err_map_level(1e12), 9);
	CHECK_INT(rung_err_map_level(INFINITY), 9);
	/* text: runs of 5 and more as c{k}; the reader gives back the same levels */
	rung_err_map m, back;
	memset(&m, 0, sizeof m);
	rung_err_map_geom_init(&m.g, 4 * 10, 2, (int64_t[]){ 4, 10 });
	m.lv[7] = m.lv[8] = m.lv[9] = 3;
	m.lv[10] = RUNG_MAP_UNWRITTEN;
	m.lv[11] = RUNG_MAP_NAN;
	m.lv[12] = RUNG_MAP_INF;
	char text[RUNG_MAP_TEXT_MAX];
	rung_err_map_encode(text, sizeof text, &m);
	CHECK_STR(text, ".{7}333UNI.{27}");
	CHECK_INT(rung_err_map_decode(&back, &m.g, text), 0);
	CHECK(memcmp(&back, &m, sizeof m) == 0);
	CHECK_INT(rung_err_map_worst(&m), RUNG_MAP_UNWRITTEN);
	/* too few, too many, unknown characters, a bad run, a grid that is not the grid: rejected */
	const char *bad[] = { ".{39}", ".{41}", ".{39}x", ".{0}.{40}", ".{40", "{3}.{37}", ".{99999999999}" };
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		CHECK_INT(rung_err_map_decode(&back, &m.g, bad[k]), RUNG_EINVAL);
		CHECK_INT(back.g.rows, 0);
	}
	rung_err_map_geom odd = m.g;
	odd.cols = 5;
	CHECK_INT(rung_err_map_decode(&back, &odd, ".{20}"), RUNG_EINVAL);
}

/* A (rows x cols) f32 case: ref a smooth ramp, got = ref + bump(r, c). */
typedef float (*bump_fn)(int64_t r, int64_t c);

static void map_case(rung_check_metric *m, int64_t rows, int64_t cols, bump_fn bump, const rung_check_opts *o)
{
	int64_t n = rows * cols, shape[2] = { rows, cols };
	float *ref = malloc(sizeof(float) * (size_t)n), *got = malloc(sizeof(float) * (size_t)n);
	for (int64_t i = 0; i < n; i++) {
		ref[i] = 1.0f + (float)(i % 97) / 97.0f;
		got[i] = ref[i] + bump(i / cols, i % cols);
	}
	memset(m, 0, sizeof *m);
	CHECK_INT(rung_metrics_compute(m, "C", got, ref, RUNG_DT_F32, n, 2, shape, o), 0);
	/* the streamed map is the same with any chunking */
	rung_check_metric part;
	streamed(&part, got, ref, n, 777, shape, o);
	CHECK(memcmp(&part.map, &m->map, sizeof part.map) == 0);
	free(ref);
	free(got);
}

/* The K/N tail bug at M=127,N=255: the last 15 columns (a missing bounds
 * check past the last full 16-wide step) are off by 0.5; tolerance 1e-3. */
static float tail_bump(int64_t r, int64_t c) { (void)r; return c >= 240 ? 0.5f : 0.0f; }
/* a race in one block: rows 64..65, columns 100..103, one tile (32, 25) */
static float tile_bump(int64_t r, int64_t c) { return r >= 64 && r < 66 && c >= 100 && c < 104 ? 2.0f : 0.0f; }
/* wrong strides on 128 x 128 (tiles of 2 x 2): every other 16 x 16 block */
static float checker_bump(int64_t r, int64_t c) { return (r / 16 + c / 16) % 2 ? 0.05f : 0.0f; }
/* precision: everything 3x its tolerance off */
static float slight_bump(int64_t r, int64_t c) { (void)r, (void)c; return 3e-3f; }

static void t_map_patterns(void)
{
	rung_check_opts o = abs_opts(1e-3, 0);
	rung_check_metric m;
	char text[RUNG_MAP_TEXT_MAX], want[RUNG_MAP_TEXT_MAX] = "";

	/* tail: tile columns 60..63 (columns 240..254, 4 per tile) at 0.5/1e-3 = 500x -> level 3; the rest clean */
	map_case(&m, 127, 255, tail_bump, &o);
	CHECK(!m.pass);
	CHECK(m.map.g.rows == 64 && m.map.g.cols == 64);
	int off = 0;
	for (int r = 0; r < 64; r++) {
		for (int c = 0; c < 64; c++)
			off += rung_err_map_at(&m.map, r, c) != (c >= 60 ? 3 : 0);
		strcat(want, ".{60}3333");
	}
	CHECK_INT(off, 0);
	rung_err_map_encode(text, sizeof text, &m.map);
	CHECK_STR(text, want);

	/* one tile: (32, 25) at 2/1e-3 = 2000x -> level 4 */
	map_case(&m, 127, 255, tile_bump, &o);
	CHECK_INT(rung_err_map_at(&m.map, 32, 25), 4);
	int nbad = 0;
	for (int k = 0; k < 64 * 64; k++)
		nbad += m.map.lv[k] != 0;
	CHECK_INT(nbad, 1);
	rung_err_map_encode(text, sizeof text, &m.map);
	CHECK_STR(text, ".{2073}4.{2022}"); /* 32 * 64 + 25 = 2073 */

	/* checkerboard: 128 / 64 = 2 per tile, so 16-wide blocks are 8 tiles: tile (r, c) bad when (r/8 + c/8) is odd, 50x -> 2 */
	map_case(&m, 128, 128, checker_bump, &o);
	CHECK(m.map.g.th == 2 && m.map.g.tw == 2);
	int wrong = 0;
	for (int r = 0; r < 64; r++)
		for (int c = 0; c < 64; c++)
			wrong += rung_err_map_at(&m.map, r, c) != ((r / 8 + c / 8) % 2 ? 2 : 0);
	CHECK_INT(wrong, 0);

	/* all slightly off: every tile at level 1 */
	map_case(&m, 127, 255, slight_bump, &o);
	rung_err_map_encode(text, sizeof text, &m.map);
	CHECK_STR(text, "1{4096}");

	/* a passing output: every tile 0 */
	o = abs_opts(1.0, 0);
	map_case(&m, 127, 255, slight_bump, &o);
	CHECK(m.pass);
	CHECK(!rung_err_map_any(&m.map));
	CHECK_INT(m.map.g.rows, 64);
}

/* Unwritten, NaN and Inf are marked apart, and win over a tile's mismatches. */
static void t_map_special(void)
{
	float ref[2 * 8], got[2 * 8];
	for (int i = 0; i < 16; i++)
		ref[i] = got[i] = (float)i;
	uint32_t pois;
	uint8_t pat[8];
	rung_poison_bits(pat, RUNG_DT_F32, 0);
	memcpy(&pois, pat, 4);
	memcpy(&got[1], &pois, 4); /* (0,1) unwritten */
	got[2] = NAN;              /* (0,2) */
	got[3] = INFINITY;         /* (0,3) */
	got[4] = 100.0f;           /* (0,4): 96 / (0.1 + 0.1*4) = 192x -> 3 */
	got[8] = 50.0f;            /* (1,0): 42 / (0.1 + 0.1*8) = 46.7x -> 2 */
	got[9] = NAN;              /* (1,1) */
	ref[15] = got[15] = NAN;   /* NaN where the reference has NaN: fine */
	int64_t shape[2] = { 2, 8 };
	rung_check_opts o = abs_opts(0.1, 0.1);
	rung_check_metric m = { 0 };
	CHECK_INT(rung_metrics_compute(&m, "C", got, ref, RUNG_DT_F32, 16, 2, shape, &o), 0);
	char text[RUNG_MAP_TEXT_MAX];
	rung_err_map_encode(text, sizeof text, &m.map);
	CHECK_STR(text, ".UNI3...2N.{6}");
	/* a 4 x 128 plane has tiles of 1 x 2: what shares a tile, the worst kind wins */
	float r2[4 * 128], g2[4 * 128];
	for (int i = 0; i < 512; i++)
		r2[i] = g2[i] = 1.0f;
	g2[0] = 5.0f;  /* tile (0,0): a mismatch... */
	g2[1] = NAN;   /* ...and a NaN in the same tile: N */
	memcpy(&g2[130], &pois, 4); /* (1,2): tile (0,1) with 2-wide tiles, unwritten */
	int64_t s2[2] = { 4, 128 };
	CHECK_INT(rung_metrics_compute(&m, "C", g2, r2, RUNG_DT_F32, 512, 2, s2, &o), 0);
	CHECK(m.map.g.rows == 4 && m.map.g.cols == 64 && m.map.g.tw == 2);
	CHECK_INT(rung_err_map_at(&m.map, 0, 0), RUNG_MAP_NAN);
	CHECK_INT(rung_err_map_at(&m.map, 1, 1), RUNG_MAP_UNWRITTEN);
	CHECK_INT(rung_err_map_worst(&m.map), RUNG_MAP_UNWRITTEN);
	/* exact compare (ints): any difference is level 9 */
	rung_check_opts ex = abs_opts(0, 0);
	g2[0] = 2.0f;
	g2[1] = 1.0f;
	memcpy(&g2[130], &r2[130], 4);
	CHECK_INT(rung_metrics_compute(&m, "C", g2, r2, RUNG_DT_F32, 512, 2, s2, &ex), 0);
	CHECK_INT(rung_err_map_at(&m.map, 0, 0), 9);
	CHECK_INT(rung_err_map_worst(&m.map), 9);
}

/* The default wide's tolerance (issue 25): 1% of the peak and of |ref|, no
 * psnr gate, an absolute spec atol replaced; NaN and Inf stay mismatches. */
static void t_lenient(void)
{
	enum { N = 1000 };
	float *ref = malloc(N * sizeof(float)), *got = malloc(N * sizeof(float));
	for (int i = 0; i < N; i++) {
		ref[i] = 1000.0f + (float)i;
		got[i] = ref[i] * 1.005f; /* 0.5% off: TF32-like on large data */
	}
	rung_spec spec;
	memset(&spec, 0, sizeof spec);
	spec.has_atol = true;
	spec.atol = 1e-3; /* absolute, tuned for data near 1 */
	spec.has_min_psnr = true;
	spec.min_psnr = 80;
	rung_check_opts strict, len;
	rung_check_opts_from_spec(&strict, &spec, RUNG_DT_F32);
	len = strict;
	rung_check_opts_lenient(&len);
	CHECK(len.atol_scaled && len.atol == 1e-2 && len.rtol >= 1e-2 && !len.has_min_psnr);
	rung_check_metric m = { 0 };
	CHECK_INT(rung_metrics_compute(&m, "y", got, ref, RUNG_DT_F32, N, 0, NULL, &strict), 0);
	CHECK(!m.pass);
	CHECK_INT(rung_metrics_compute(&m, "y", got, ref, RUNG_DT_F32, N, 0, NULL, &len), 0);
	CHECK(m.pass);
	got[7] = NAN;
	CHECK_INT(rung_metrics_compute(&m, "y", got, ref, RUNG_DT_F32, N, 0, NULL, &len), 0);
	CHECK(!m.pass);
	CHECK_CONTAINS(m.reason, "NaN");
	got[7] = ref[7] * 1.05f; /* 5%: outside even the lenient tolerance */
	CHECK_INT(rung_metrics_compute(&m, "y", got, ref, RUNG_DT_F32, N, 0, NULL, &len), 0);
	CHECK(!m.pass);
	free(ref);
	free(got);
}

int main(void)
{
	T_RUN(t_lenient);
	T_RUN(t_hand_computed);
	T_RUN(t_nan_inf_poison_order);
	T_RUN(t_psnr_cossim_gates);
	T_RUN(t_default_tolerance_scaled);
	T_RUN(t_integers_and_f16);
	T_RUN(t_ints_compare_exactly);
	T_RUN(t_ulp_bins_and_coords);
	T_RUN(t_speed_16m);
	T_RUN(t_streaming_equals_whole);
	T_RUN(t_map_geometry);
	T_RUN(t_map_patterns);
	T_RUN(t_map_special);
	return t_done();
}

/* The metric table (core/metric_table.h): the one worst value over a result's
 * outputs, with one NaN rule (absent, skipped), so that rung check's line and
 * rung log, brief and the store agree on one result; the formats. */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report.h"
#include "core/metric_table.h"
#include "core/result.h"
#include "tui/model/model.h"

static rung_result *three_outputs(void)
{
	rung_result *r = rung_model_fake_result("0123456789abcdef0123456789abcdef01234567", 1.0, 1e-6, true, 3);
	CHECK(r != NULL && r->nmetrics >= 3);
	r->nmetrics = 3;
	double psnr[] = {30, NAN, 20}, cos[] = {0.99, NAN, 0.999}, abs_[] = {1e-4, NAN, 3e-4}, rel[] = {2e-6, 5e-6, NAN},
	       rmse[] = {NAN, 2e-5, 1e-5};
	for (int i = 0; i < 3; i++) {
		r->metrics[i].psnr = psnr[i];
		r->metrics[i].cossim = cos[i];
		r->metrics[i].max_abs = abs_[i];
		r->metrics[i].max_rel = rel[i];
		r->metrics[i].rmse = rmse[i];
	}
	return r;
}

static void test_worst(void)
{
	rung_result *r = three_outputs();
	/* errors: the largest; similarities: the smallest; a NaN output is skipped */
	CHECK_NEAR(rung_metric_worst(r, RUNG_METRIC_PSNR), 20, 0);
	CHECK_NEAR(rung_metric_worst(r, RUNG_METRIC_COSSIM), 0.99, 0);
	CHECK_NEAR(rung_metric_worst(r, RUNG_METRIC_MAX_ABS), 3e-4, 0);
	CHECK_NEAR(rung_metric_worst(r, RUNG_METRIC_MAX_REL), 5e-6, 0);
	CHECK_NEAR(rung_result_max_rel(r), 5e-6, 0); /* the same function */
	CHECK_NEAR(rung_metric_worst(r, RUNG_METRIC_RMSE), 2e-5, 0);
	/* an exact output (psnr inf) is not the worst of one at 20 dB */
	r->metrics[2].psnr = INFINITY;
	CHECK_NEAR(rung_metric_worst(r, RUNG_METRIC_PSNR), 30, 0);
	/* absent everywhere: NaN; no result: NaN */
	for (int i = 0; i < 3; i++)
		r->metrics[i].psnr = NAN;
	CHECK(isnan(rung_metric_worst(r, RUNG_METRIC_PSNR)));
	CHECK(isnan(rung_metric_worst(NULL, RUNG_METRIC_COSSIM)));
	rung_result_clear(r);
	free(r);
}

/* rung check's line takes the same worst values: an output whose psnr and
 * cosine are NaN does not make the line say nan where rung log says 20.0
 * (the line let NaN win before the table). */
static void test_check_line_agrees(void)
{
	rung_result *r = three_outputs();
	char path[1024];
	snprintf(path, sizeof(path), "%s/check.txt", t_tmpdir());
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		rung_check_print_gpu_step(f, r, NULL, RUNG_STEP_CHECK);
		fclose(f);
	}
	char *s = t_slurp(path, NULL);
	CHECK_CONTAINS(s, " max_abs=3.0e-4 max_rel=5.00e-06 rmse=2.0e-5 psnr=20.0dB cos=0.9900000");
	CHECK(s && !strstr(s, "nan"));
	free(s);
	rung_result_clear(r);
	free(r);
}

static void test_formats(void)
{
	char b[32];
	CHECK_STR(rung_metric_str(b, sizeof(b), "e1", 1.2e-4, "-"), "1.2e-4");
	CHECK_STR(rung_metric_str(b, sizeof(b), "e1", 3.5e12, "-"), "3.5e+12");
	CHECK_STR(rung_metric_str(b, sizeof(b), "%.1fdB", 18.0618, "-"), "18.1dB");
	CHECK_STR(rung_metric_str(b, sizeof(b), "%.1fdB", INFINITY, "-"), "inf"); /* no unit on inf */
	CHECK_STR(rung_metric_str(b, sizeof(b), "%.6f", NAN, "-"), "-");
	CHECK_STR(rung_metric_str(b, sizeof(b), "%.6f", NAN, "nan"), "nan");
}

/* Every entry has a key of its own and a value; a log column fits its title. */
static void test_table(void)
{
	for (int k = 0; k < RUNG_NMETRICS; k++) {
		const rung_metric_info *mi = &rung_metrics[k];
		CHECK(mi->key && mi->key[0] && mi->value);
		CHECK(!mi->check || mi->check_fmt);
		CHECK(!mi->brief || mi->brief_fmt);
		CHECK(!mi->log || (mi->log_fmt && mi->log_width >= (int)strlen(mi->log)));
		for (int j = 0; j < k; j++)
			CHECK(strcmp(mi->key, rung_metrics[j].key) != 0);
	}
	CHECK_STR(rung_metrics[RUNG_METRIC_PSNR].key, "psnr");
	CHECK_INT(rung_metrics[RUNG_METRIC_COSSIM].worst, RUNG_WORST_MIN);
	CHECK_INT(rung_metrics[RUNG_METRIC_MAX_REL].worst, RUNG_WORST_MAX);
}

/* max_ulp (one line of the list): the top of the highest occupied ULP bin,
 * the largest over the outputs; absent for a non-float output. */
static void test_max_ulp(void)
{
	rung_result *r = three_outputs();
	for (int i = 0; i < 3; i++) {
		r->metrics[i].has_ulp = i != 1; /* output 1: an integer output */
		memset(r->metrics[i].ulp_hist, 0, sizeof(r->metrics[i].ulp_hist));
		r->metrics[i].ulp_hist[0] = 100;
	}
	r->metrics[0].ulp_hist[2] = 7;     /* 2-3 ulps */
	r->metrics[1].ulp_hist[5] = 1;     /* not a float output: not counted */
	r->metrics[2].ulp_hist[1] = 3;     /* 1 ulp */
	CHECK_NEAR(rung_metric_worst(r, RUNG_METRIC_MAX_ULP), 3, 0);
	char path[1024];
	snprintf(path, sizeof(path), "%s/check_ulp.txt", t_tmpdir());
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		rung_check_print_gpu_step(f, r, NULL, RUNG_STEP_CHECK);
		fclose(f);
	}
	char *s = t_slurp(path, NULL);
	CHECK_CONTAINS(s, " cos=0.9900000 max_ulp=<=3");
	free(s);
	r->metrics[2].ulp_hist[6] = 1; /* >= 65536 ulps */
	CHECK(isinf(rung_metric_worst(r, RUNG_METRIC_MAX_ULP)));
	r->metrics[0].has_ulp = r->metrics[2].has_ulp = false;
	CHECK(isnan(rung_metric_worst(r, RUNG_METRIC_MAX_ULP)));
	rung_result_clear(r);
	free(r);
}

int main(void)
{
	T_RUN(test_max_ulp);
	T_RUN(test_worst);
	T_RUN(test_check_line_agrees);
	T_RUN(test_formats);
	T_RUN(test_table);
	return t_done();
}

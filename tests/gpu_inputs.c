/* [check] inputs on a GPU (docs/CHECKS.md "Input distributions"), through
 * rung_app_evaluate (tests/app_eval.h) in one parent:
 *  - tests/exploits/normal_only: a softmax without the max subtraction passes with
 *    its `inputs` line deleted (normal only) and fails with it (normal, wide), the
 *    reason naming the distribution; the cases and progress are the documented ones;
 *  - its good.cu (with the max subtraction) passes normal, wide and constant;
 *  - tests/tasks/sgemm (FP32 FMA) passes `ints`, compared exactly (max_abs 0).
 * Exit 77 (skipped) without a CUDA driver or device. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/spec.h"
#include "gpu/protocol.h"
#include "gpu/worker.h"
#include "harness.h"
#include "app_eval.h"

static rung_worker *W;

#define EXPLOIT RUNG_TEST_DIR "/exploits/normal_only"

/* Progress messages of the last evaluation, one per line. */
static char progress[65536];

static void on_progress(void *ud, rung_step_id step, double frac, const char *msg)
{
	(void)ud;
	(void)frac;
	size_t n = strlen(progress);
	snprintf(progress + n, sizeof(progress) - n, "%s: %s\n", rung_step_name(step), msg ? msg : "");
}

/* dir/rung.ini with its `inputs = ...` line replaced by `inputs` (NULL: deleted;
 * a line of its own after [check] when the file has none). Caller frees. */
static char *spec_with_inputs(const char *dir, const char *inputs)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/rung.ini", dir);
	char *text = t_slurp(path, NULL);
	if (!text)
		return NULL;
	size_t cap = strlen(text) + 256;
	char *out = calloc(1, cap);
	const char *line = strstr(text, "\ninputs = ");
	if (line) {
		const char *end = strchr(line + 1, '\n');
		snprintf(out, cap, "%.*s%s%s%s", (int)(line - text + 1), text, inputs ? "inputs = " : "", inputs ? inputs : "",
			 inputs ? "\n" : "");
		strncat(out, end ? end + 1 : "", cap - strlen(out) - 1);
	} else {
		const char *check = strstr(text, "[check]\n");
		size_t at = check ? (size_t)(check - text) + strlen("[check]\n") : strlen(text);
		snprintf(out, cap, "%.*sinputs = %s\n%s", (int)at, text, inputs ? inputs : "normal", text + at);
	}
	free(text);
	return out;
}

/* Evaluates kernel (a file in dir) under the spec text into r, without the bench. */
static int eval_spec(rung_result *r, const char *dir, const char *spec_text, const char *kernel)
{
	rung_spec *spec = NULL;
	char path[1024];
	snprintf(path, sizeof(path), "%s/rung.ini", dir);
	int rc = rung_spec_parse(&spec, spec_text, path, dir);
	if (rc) {
		fprintf(stderr, "%s: %s\n", dir, rung_error_last());
		rung_result_init(r);
		return rc;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, kernel);
	char *src = t_slurp(path, NULL);
	rung_job job = {.spec = spec, .kernel_src = src, .kernel_file = kernel, .ref_file = spec->reference,
			.seed = 20261203, .seed_set = true, .flags = RUNG_JOB_NO_BENCH, .label = dir};
	progress[0] = 0;
	int64_t t0 = rung_now_ms();
	rc = t_app_evaluate(r, W, &job, on_progress, NULL);
	printf("     %-12s %-26s %5lld ms  %s: %s\n", kernel, spec->ninputs > 1 ? "(inputs listed)" : "(normal only)",
	       (long long)(rung_now_ms() - t0), rung_status_name(rung_result_status(r)), rung_result_reason(r));
	free(src);
	rung_spec_free(spec);
	return rc;
}

static int count_rows(const rung_result *r, rung_dist d, bool pass)
{
	int n = 0;
	for (int i = 0; i < r->nmetrics; i++)
		n += r->metrics[i].inputs == d && r->metrics[i].pass == pass;
	return n;
}

static void test_passes_normal_only(void)
{
	char *text = spec_with_inputs(EXPLOIT, NULL);
	CHECK(text && !strstr(text, "inputs ="));
	rung_result r;
	CHECK_INT(eval_spec(&r, EXPLOIT, text, "kernel.cu"), 0);
	CHECK_INT(r.steps[RUNG_STEP_RUN].status, RUNG_S_OK);
	CHECK_INT(r.steps[RUNG_STEP_CHECK].status, RUNG_S_OK);
	/* 3 check sets x 2 seeds + the run case, all normal; the result says nothing of inputs */
	CHECK_INT(r.nmetrics, 7);
	CHECK_INT(count_rows(&r, RUNG_DIST_NORMAL, true), 7);
	CHECK_INT(r.ninputs, 0);
	CHECK_INT(rung_result_runs(&r), 7);
	char *js = rung_result_to_json(&r);
	CHECK(js && !strstr(js, "inputs"));
	free(js);
	rung_result_clear(&r);
	free(text);
}

static void test_fails_wide(void)
{
	char *text = spec_with_inputs(EXPLOIT, "normal, wide");
	rung_result r;
	CHECK_INT(eval_spec(&r, EXPLOIT, text, "kernel.cu"), 0);
	CHECK_INT(r.steps[RUNG_STEP_RUN].status, RUNG_S_OK);
	CHECK_INT(r.steps[RUNG_STEP_CHECK].status, RUNG_S_FAILED);
	/* the first failing case: wide at the first check set; exp overflowed, inf/inf */
	CHECK_STR(r.steps[RUNG_STEP_CHECK].reason, "y: 37 NaN in y, first at (0,0) (inputs wide) at R=37,C=1 seed 1/2");
	/* every case ran: the normal ones passed, each wide one failed */
	CHECK_INT(r.ninputs, 2);
	CHECK_INT(r.nmetrics, 7 + 3);
	CHECK_INT(rung_result_runs(&r), r.nmetrics);
	CHECK_INT(count_rows(&r, RUNG_DIST_NORMAL, true), 7);
	CHECK_INT(count_rows(&r, RUNG_DIST_WIDE, false), 3);
	CHECK_CONTAINS(progress, "check: R=64,C=129 seed 2/2\n");
	CHECK_CONTAINS(progress, "check: R=64,C=129 wide seed 1/1\n");
	rung_result_clear(&r);
	free(text);
}

static void test_good_passes_all(void)
{
	char *text = spec_with_inputs(EXPLOIT, "normal, wide, constant");
	rung_result r;
	CHECK_INT(eval_spec(&r, EXPLOIT, text, "good.cu"), 0);
	CHECK_INT(r.steps[RUNG_STEP_CHECK].status, RUNG_S_OK);
	CHECK_INT(r.nmetrics, 7 + 3 + 3);
	CHECK_INT(count_rows(&r, RUNG_DIST_WIDE, true), 3);
	CHECK_INT(count_rows(&r, RUNG_DIST_CONSTANT, true), 3);
	/* a constant row's softmax is uniform: 1/C on both sides, rounded once */
	for (int i = 0; i < r.nmetrics; i++)
		if (r.metrics[i].inputs == RUNG_DIST_CONSTANT)
			CHECK(r.metrics[i].max_rel < 1e-6);
	rung_result_clear(&r);
	free(text);
}

static void test_sgemm_ints_exact(void)
{
	char *text = spec_with_inputs(RUNG_TEST_DIR "/tasks/sgemm", "normal, ints");
	CHECK(text && strstr(text, "[check]\ninputs = normal, ints\n"));
	rung_result r;
	CHECK_INT(eval_spec(&r, RUNG_TEST_DIR "/tasks/sgemm", text, "sgemm.cu"), 0);
	CHECK_INT(r.steps[RUNG_STEP_CHECK].status, RUNG_S_OK);
	CHECK_INT(count_rows(&r, RUNG_DIST_INTS, true), 1);
	for (int i = 0; i < r.nmetrics; i++) {
		if (r.metrics[i].inputs != RUNG_DIST_INTS)
			continue;
		CHECK_NEAR(r.metrics[i].max_abs, 0, 0); /* sums of products of small integers: exact */
		CHECK(r.metrics[i].peak > 8);            /* and not trivially zero */
	}
	rung_result_clear(&r);
	free(text);
}

int main(void)
{
	rung_env env;
	int rc = t_gpu_open(&W, &env);
	if (rc)
		return rc;
	T_RUN(test_passes_normal_only);
	T_RUN(test_fails_wide);
	T_RUN(test_good_passes_all);
	T_RUN(test_sgemm_ints_exact);
	rung_worker_close(W);
	return t_done();
}

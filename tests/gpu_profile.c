/* Roofline and profiling on the GPU, in one worker and well under a minute:
 *  - `rung ceilings` measurements are plausible (loose bounds; tight ones on an H100/H200);
 *  - tests/faults/skips_work passes the check but is flagged impossible (median below floor_ms);
 *  - the sgemm fixture is not impossible and has a floor;
 *  - a profile run of the sgemm fixture: dram bytes > 0 and FP32 FLOPs = 2*M*N*K within 1 %
 *    (SKIPPED counts as a pass with a note when counters are not permitted on this box).
 * Exit 77 (skipped) without a CUDA driver or device. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/profile.h"
#include "core/spec.h"
#include "gpu/ceilings.h"
#include "gpu/protocol.h"
#include "gpu/worker.h"
#include "harness.h"
#include "app_eval.h"

static rung_worker *W;
static rung_env ENV;

static int eval_at(rung_result *r, const char *dir, const char *kernel, unsigned flags)
{
	rung_spec *spec = NULL;
	int rc = rung_spec_load(&spec, dir);
	if (rc) {
		fprintf(stderr, "%s: %s\n", dir, rung_error_last());
		rung_result_init(r);
		return rc;
	}
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, kernel);
	char *src = t_slurp(path, NULL);
	rung_job job = {.spec = spec, .kernel_src = src, .kernel_file = kernel, .ref_file = spec->reference,
			.seed = 20261129, .seed_set = true, .budget_s = 0.3, .flags = flags, .label = dir};
	int64_t t0 = rung_now_ms();
	rc = t_app_evaluate(r, W, &job, NULL, NULL);
	printf("     %-40s %5lld ms  %s: %s\n", dir, (long long)(rung_now_ms() - t0),
	       rung_status_name(rung_result_status(r)), rung_result_reason(r));
	free(src);
	rung_spec_free(spec);
	return rc;
}

static void test_ceilings(void)
{
	rung_ceilings c;
	rung_env e;
	int64_t t0 = rung_now_ms();
	int rc = rung_worker_ceilings(&c, &e, W, NULL, NULL);
	CHECK_INT(rc, 0);
	if (rc)
		fprintf(stderr, "ceilings: %s\n", rung_error_last());
	printf("     ceilings in %lld ms: dram %.3g TB/s, l2 %.3g TB/s, fp32 %.3g, fp64 %.3g, bf16-mma %.3g, tf32-mma %.3g TFLOP/s\n",
	       (long long)(rung_now_ms() - t0), c.dram.value / 1e12, c.l2.value / 1e12, c.fp32.value / 1e12,
	       c.fp64.value / 1e12, c.tensor[RUNG_TC_BF16].value / 1e12, c.tensor[RUNG_TC_TF32].value / 1e12);
	CHECK_INT(c.dram.src, RUNG_CEIL_MEASURED);
	CHECK_INT(c.fp32.src, RUNG_CEIL_MEASURED);
	CHECK(c.dram.value > 0.2e12 && c.dram.value < 12e12);
	CHECK(c.fp32.value > 2e12 && c.fp32.value < 200e12);
	CHECK(c.l2.value > c.dram.value); /* L2 is faster than DRAM on every GPU */
	if (strstr(e.gpu, "H200") || strstr(e.gpu, "H100")) {
		CHECK(c.dram.value > 2e12 && c.dram.value < 6e12);
		CHECK(c.fp32.value > 40e12 && c.fp32.value < 80e12);
		CHECK(c.tensor[RUNG_TC_BF16].value > 100e12 && c.tensor[RUNG_TC_BF16].value < 1100e12);
		CHECK(c.tensor[RUNG_TC_TF32].value > 50e12 && c.tensor[RUNG_TC_TF32].value < 600e12);
	}
}

static void test_skips_work_impossible(void)
{
	rung_result r;
	CHECK_INT(eval_at(&r, RUNG_TEST_DIR "/faults/skips_work", "kernel.cu", 0), 0);
	CHECK_INT(r.steps[RUNG_STEP_CHECK].status, RUNG_S_OK);
	CHECK_INT(r.steps[RUNG_STEP_BENCH].status, RUNG_S_OK);
	CHECK(r.floor_ms > 0);
	CHECK(r.impossible);
	printf("     skips_work: median %.4g ms, floor %.4g ms, impossible=%d\n", r.bench.median, r.floor_ms, r.impossible);
	rung_result_clear(&r);
}

static void test_sgemm_possible(void)
{
	rung_result r;
	CHECK_INT(eval_at(&r, RUNG_TEST_DIR "/tasks/sgemm", "sgemm.cu", 0), 0);
	CHECK_INT(r.steps[RUNG_STEP_BENCH].status, RUNG_S_OK);
	CHECK(r.floor_ms > 0);
	CHECK(!r.impossible);
	printf("     sgemm: median %.4g ms, floor %.4g ms (%.1f%% of the roof)\n", r.bench.median, r.floor_ms,
	       100 * r.floor_ms / r.bench.median);
	rung_result_clear(&r);
}

static void test_profile_sgemm(void)
{
	rung_result r;
	CHECK_INT(eval_at(&r, RUNG_TEST_DIR "/tasks/sgemm", "sgemm.cu", RUNG_JOB_PROFILE), 0);
	const rung_step *ps = &r.steps[RUNG_STEP_PROFILE];
	CHECK_INT(r.steps[RUNG_STEP_CHECK].status, RUNG_S_OK);
	CHECK(!r.bench.valid); /* never timed in a profile run */
	if (ps->status == RUNG_S_SKIPPED) {
		printf("     NOTE profile SKIPPED: %s\n", ps->reason);
		CHECK_CONTAINS(ps->reason, "not permitted");
		rung_result_clear(&r);
		return;
	}
	CHECK_INT(ps->status, RUNG_S_OK);
	char line[512];
	double need = 2.0 * 256 * 256 * 128;
	rung_profile_summary(line, sizeof(line), &r, need, 4.0 * (256 * 128 + 128 * 256 + 256 * 256));
	printf("     [profile] %s%s%s\n", line, ps->reason[0] ? "  note: " : "", ps->reason);
	CHECK(rung_counter_get(&r, "dram.bytes") > 0);
	CHECK_NEAR(rung_counter_get(&r, "flops.f32"), need, need * 0.01);
	CHECK(rung_counter_get(&r, "gpu__time_duration.sum") > 0);
	double occ = rung_counter_get(&r, "sm__warps_active.avg.pct_of_peak_sustained_active");
	CHECK(occ > 0 && occ <= 100);
	rung_result_clear(&r);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	rung_worker_opts o = {.exe = RUNG_BIN};
	if (rung_worker_open(&W, &o))
		return 1;
	int rc = rung_worker_env(&ENV, W);
	if (rc == RUNG_ENODEV) {
		printf("skipped: %s\n", rung_error_last());
		rung_worker_close(W);
		return T_SKIP;
	}
	if (rc) {
		fprintf(stderr, "worker: %s\n", rung_error_last());
		return 1;
	}
	printf("device: %s (%s), driver %s\n", ENV.gpu, ENV.arch, ENV.driver);
	T_RUN(test_ceilings);
	T_RUN(test_skips_work_impossible);
	T_RUN(test_sgemm_possible);
	T_RUN(test_profile_sgemm);
	rung_worker_close(W);
	return t_done();
}

/* Profile counters (core/profile.c): derived FLOPs and bytes, the [profile]
 * summary, counters surviving the result JSON (the store keeps that line),
 * and the range-profiler shim compiling against CUPTI's headers (it is linked
 * into this binary; without a GPU it is not called). */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/profile.h"
#include "core/result.h"

static void sgemm_counters(rung_result *r)
{
	/* The fixture sgemm at 256x256x128: plain FFMA, 2*M*N*K FLOP. */
	rung_counter_set(r, "gpu__time_duration.sum", 73100);
	rung_counter_set(r, "dram__bytes_read.sum", 393216);
	rung_counter_set(r, "dram__bytes_write.sum", 262144);
	rung_counter_set(r, "sm__sass_thread_inst_executed_op_ffma_pred_on.sum", 256.0 * 256 * 128);
	rung_counter_set(r, "sm__sass_thread_inst_executed_op_fadd_pred_on.sum", 0);
	rung_counter_set(r, "sm__sass_thread_inst_executed_op_fmul_pred_on.sum", 0);
	rung_counter_set(r, "sm__warps_active.avg.pct_of_peak_sustained_active", 61.6);
	rung_counter_set(r, "sm__throughput.avg.pct_of_peak_sustained_elapsed", 80.9);
}

static void test_set_get(void)
{
	rung_result r;
	rung_result_init(&r);
	CHECK(isnan(rung_counter_get(&r, "x")));
	CHECK_INT(rung_counter_set(&r, "x", 1), 0);
	CHECK_INT(rung_counter_set(&r, "y", 2), 0);
	CHECK_INT(rung_counter_set(&r, "x", 3), 0);
	CHECK_INT(r.ncounters, 2);
	CHECK_NEAR(rung_counter_get(&r, "x"), 3, 0);
	CHECK_NEAR(rung_counter_get(&r, "y"), 2, 0);
	rung_result_clear(&r);
	CHECK(rung_profile_nmetrics >= 18);
	CHECK_STR(rung_profile_metrics[0], "gpu__time_duration.sum");
}

static void test_derive(void)
{
	rung_result r;
	rung_result_init(&r);
	sgemm_counters(&r);
	rung_counter_set(&r, "sm__sass_thread_inst_executed_op_dfma_pred_on.sum", 10);
	rung_counter_set(&r, "sm__sass_thread_inst_executed_op_dadd_pred_on.sum", 3);
	rung_profile_derive(&r);
	CHECK_NEAR(rung_counter_get(&r, "flops.f32"), 2.0 * 256 * 256 * 128, 0);
	CHECK_NEAR(rung_counter_get(&r, "flops.f64"), 23, 0);
	CHECK(isnan(rung_counter_get(&r, "flops.f16"))); /* no half counters: not derived */
	CHECK_NEAR(rung_counter_get(&r, "dram.bytes"), 655360, 0);
	rung_result_clear(&r);
}

static void test_summary(void)
{
	rung_result r;
	rung_result_init(&r);
	sgemm_counters(&r);
	rung_profile_derive(&r);
	char line[512];
	double need_flops = 2.0 * 256 * 256 * 128, need_bytes = 4.0 * (256 * 128 + 128 * 256 + 256 * 256);
	rung_profile_summary(line, sizeof(line), &r, need_flops, need_bytes);
	CHECK_STR(line, "ok dram=655.4KB (1.25x the bytes it needs) flops=16.8M (1.00x) occupancy=62% sm=81% time=73.1us");
	rung_profile_summary(line, sizeof(line), &r, NAN, NAN);
	CHECK_STR(line, "ok dram=655.4KB flops=16.8M occupancy=62% sm=81% time=73.1us");
	rung_counter_set(&r, "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", 12.4);
	rung_profile_summary(line, sizeof(line), &r, NAN, NAN);
	CHECK_CONTAINS(line, " tensor=12%");
	rung_result_clear(&r);
	rung_result_init(&r);
	rung_profile_summary(line, sizeof(line), &r, 1, 1);
	CHECK_STR(line, "ok");
	rung_result_clear(&r);
}

/* Each counter with its unit, from its name. */
static void test_format_units(void)
{
	char b[64];
	const struct {
		const char *name;
		double v;
		const char *want;
	} c[] = {
		{"dram__bytes_read.sum", 201.3e6, "201.3 MB"},
		{"dram.bytes", 12, "12 B"},
		{"lts__t_bytes.sum", 4.5e9, "4.5 GB"},
		{"sm__warps_active.avg.pct_of_peak_sustained_active", 62.04, "62.0 %"},
		{"gpu__time_duration.sum", 73100, "73.10 us"},
		{"gpu__time_duration.sum", 812, "812 ns"},
		{"gpu__time_duration.sum", 15.5e6, "15.50 ms"},
		{"sm__sass_thread_inst_executed_op_ffma_pred_on.sum", 1.234e9, "1.2 G inst"},
		{"sm__pipe_tensor_op_hmma_cycles_active.sum", 8.2e6, "8.2 M cycles"},
		{"flops.f32", 34.4e9, "34.4 GFLOP"},
		{"dram__bytes.sum.per_second", 1.5e12, "1.5 T/s"},
		{"something.else", 3.25, "3.25"},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		rung_counter_format(b, sizeof(b), c[i].name, c[i].v);
		CHECK_STR(b, c[i].want);
	}
}

static void test_json(void)
{
	rung_result r, back;
	rung_result_init(&r);
	sgemm_counters(&r);
	rung_profile_derive(&r);
	r.steps[RUNG_STEP_PROFILE].status = RUNG_S_OK;
	char *js = rung_result_to_json(&r);
	CHECK_INT(rung_result_from_json(&back, js), 0);
	free(js);
	CHECK_INT(back.ncounters, r.ncounters);
	CHECK_NEAR(rung_counter_get(&back, "flops.f32"), 2.0 * 256 * 256 * 128, 0);
	CHECK_NEAR(rung_counter_get(&back, "sm__warps_active.avg.pct_of_peak_sustained_active"), 61.6, 1e-12);
	CHECK_INT(back.steps[RUNG_STEP_PROFILE].status, RUNG_S_OK);
	rung_result_clear(&r);
	rung_result_clear(&back);
}

static void test_cmd_nogpu(void)
{
	char *out = NULL;
	int rc = t_sh(&out, "%s profile %s/tasks/sgemm 2>&1", RUNG_BIN, RUNG_TEST_DIR);
	if (rc == 4) {
		CHECK_CONTAINS(out, "[run] SKIPPED");
	} else {
		CHECK(rc == 0);
		CHECK_CONTAINS(out, "[profile]");
	}
	free(out);
	rc = t_sh(&out, "%s profile --bogus 2>&1", RUNG_BIN);
	CHECK_INT(rc, 2);
	free(out);
}

int main(void)
{
	T_RUN(test_set_get);
	T_RUN(test_derive);
	T_RUN(test_summary);
	T_RUN(test_json);
	T_RUN(test_format_units);
	T_RUN(test_cmd_nogpu);
	return t_done();
}

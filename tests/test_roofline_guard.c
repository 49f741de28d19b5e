/* The speed-of-light guard on one result (core/roofline_guard.c) and its bench
 * line (app/evaluate.c), with hand-derived H200 numbers:
 *   DRAM = 2 * 3201 MHz * 6016 bits / 8 = 4.814304 TB/s
 *   tests/faults/skips_work: bytes = 4*4096*8192 + 4*4096 = 134234112
 *   floor = 134234112 / 4.814304e12 s = 0.0278823506 ms */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/roofline_guard.h"
#include "harness.h"
#include "app/evaluate.h"
#include "cli/report.h"

static rung_env h200(void)
{
	rung_env e;
	memset(&e, 0, sizeof(e));
	e.valid = true;
	snprintf(e.arch, sizeof(e.arch), "sm_90");
	e.sms = 132;
	e.sm_clock_mhz = 1980;
	e.mem_clock_mhz = 3201;
	e.bus_width = 6016;
	return e;
}

static void bench_ok(rung_result *r, double median)
{
	r->bench.valid = true;
	r->bench.median = median;
	r->bench.n = 20;
	r->bench.rse_median = 0.001;
	r->bench.noise_ok = true;
	r->bench.tflops = r->bench.tbps = NAN;
	snprintf(r->bench.method, sizeof(r->bench.method), "cupti-activity");
	r->steps[RUNG_STEP_BENCH].status = RUNG_S_OK;
}

static void test_env_attrs(void)
{
	rung_env e = h200();
	rung_device_attrs a;
	CHECK_INT(rung_env_device_attrs(&a, &e), 0);
	CHECK_INT(a.major, 9);
	CHECK_INT(a.minor, 0);
	CHECK_INT(a.sm_clock_khz, 1980000);
	CHECK_INT(a.bus_width_bits, 6016);
	snprintf(e.arch, sizeof(e.arch), "sm_100");
	CHECK_INT(rung_env_device_attrs(&a, &e), 0);
	CHECK_INT(a.major, 10);
	CHECK_INT(a.minor, 0);
	snprintf(e.arch, sizeof(e.arch), "sm_86");
	CHECK_INT(rung_env_device_attrs(&a, &e), 0);
	CHECK_INT(a.major, 8);
	CHECK_INT(a.minor, 6);
	/* clocks that do not fit in kHz (an imported result): unknown, no overflow (#30 D7) */
	e.sm_clock_mhz = INT32_MIN;
	e.mem_clock_mhz = INT32_MAX;
	CHECK_INT(rung_env_device_attrs(&a, &e), 0);
	CHECK_INT(a.sm_clock_khz, 0);
	CHECK_INT(a.mem_clock_khz, 0);
	e.sm_clock_mhz = -5;
	CHECK_INT(rung_env_device_attrs(&a, &e), 0);
	CHECK_INT(a.sm_clock_khz, 0);
	e.valid = false;
	CHECK_INT(rung_env_device_attrs(&a, &e), RUNG_EINVAL);
}

static void test_guard_ceilings(void)
{
	rung_env e = h200();
	rung_ceilings c;
	rung_ceilings_guard(&c, &e, NULL);
	CHECK_NEAR(c.dram.value, 4.814304e12, 1e3);
	CHECK_INT(c.dram.src, RUNG_CEIL_DATASHEET);
	CHECK(isnan(c.l2.value));

	/* Measured below the datasheet: the guard keeps the (higher) datasheet value;
	 * measured where the datasheet has none (L2): taken; measured above: taken. */
	rung_ceilings m;
	rung_ceilings_init(&m);
	m.dram = (rung_ceiling){4.3e12, RUNG_CEIL_MEASURED};
	m.l2 = (rung_ceiling){11e12, RUNG_CEIL_MEASURED};
	m.fp32 = (rung_ceiling){70e12, RUNG_CEIL_MEASURED};
	rung_ceilings_guard(&c, &e, &m);
	CHECK_NEAR(c.dram.value, 4.814304e12, 1e3);
	CHECK_INT(c.dram.src, RUNG_CEIL_DATASHEET);
	CHECK_NEAR(c.l2.value, 11e12, 1);
	CHECK_INT(c.l2.src, RUNG_CEIL_MEASURED);
	CHECK_NEAR(c.fp32.value, 70e12, 1);
	CHECK_INT(c.fp32.src, RUNG_CEIL_MEASURED);

	/* No environment: measured only. */
	rung_env none;
	memset(&none, 0, sizeof(none));
	rung_ceilings_guard(&c, &none, &m);
	CHECK_NEAR(c.dram.value, 4.3e12, 1);
	CHECK(isnan(c.fp64.value));

	/* f32 data: max(fp32 66.9, tf32 tensor 132 * 1.98 GHz * 2048 = 535.26528 T). */
	rung_ceilings_guard(&c, &e, NULL);
	rung_dtype f32[] = {RUNG_DT_F32, RUNG_DT_F32};
	CHECK_NEAR(rung_ceilings_peak_for_dtypes(&c, f32, 2), 535.26528e12, 1e3);
	rung_dtype mixed[] = {RUNG_DT_F32, RUNG_DT_BF16};
	CHECK_NEAR(rung_ceilings_peak_for_dtypes(&c, mixed, 2), 132 * 1.98e9 * 4096, 1e3);
	CHECK(isnan(rung_ceilings_peak_for_dtypes(&c, f32, 0)));
}

static void test_judge(void)
{
	rung_env e = h200();
	rung_ceilings c;
	rung_ceilings_guard(&c, &e, NULL);
	double bytes = 4.0 * 4096 * 8192 + 4.0 * 4096, flops = 4096.0 * 8192;
	rung_dtype f32[] = {RUNG_DT_F32};
	double peak = rung_ceilings_peak_for_dtypes(&c, f32, 1);

	rung_result r;
	rung_result_init(&r);
	bench_ok(&r, 0.004); /* skips_work: writes 16 KiB, about 4 us */
	rung_result_judge_roofline(&r, flops, bytes, peak, c.dram.value, RUNG_ROOFLINE_TOL);
	CHECK_NEAR(r.floor_ms, 0.0278823506, 1e-9);
	CHECK(r.impossible);
	/* the same evidence in the suspects list, with the median against the floor */
	CHECK_INT(r.nsuspects, 1);
	CHECK(rung_result_suspect(&r, RUNG_SUSPECT_IMPOSSIBLE) != NULL);
	CHECK_STR(r.suspects[0].reason, "median 0.004ms is below the speed-of-light floor 0.02788ms (14% of it): the timing "
					"is wrong or the kernel skips work that [roofline] says it must do");

	/* 1.4 % under the floor: within the 3 % tolerance (noise), not impossible. */
	bench_ok(&r, 0.0275);
	rung_result_add_suspect(&r, RUNG_SUSPECT_MUTABLE_GLOBAL, "from the PTX");
	rung_result_judge_roofline(&r, flops, bytes, peak, c.dram.value, RUNG_ROOFLINE_TOL);
	CHECK(!r.impossible);
	CHECK_INT(r.nsuspects, 1); /* judged again: the impossible suspect goes, the others stay */
	CHECK_INT(r.suspects[0].kind, RUNG_SUSPECT_MUTABLE_GLOBAL);
	CHECK_NEAR(rung_result_roof_pct(&r), 100 * 0.0278823506 / 0.0275, 1e-6);
	/* 6.7 % under: impossible. */
	bench_ok(&r, 0.026);
	rung_result_judge_roofline(&r, flops, bytes, peak, c.dram.value, RUNG_ROOFLINE_TOL);
	CHECK(r.impossible);
	CHECK_INT(r.nsuspects, 2);
	CHECK_INT(r.suspects[1].kind, RUNG_SUSPECT_IMPOSSIBLE);
	CHECK_CONTAINS(r.suspects[1].reason, "median 0.026ms is below the speed-of-light floor 0.02788ms (93% of it)");
	/* A real read of 128 MiB at 3.9 TB/s: 81 % of the roof. */
	bench_ok(&r, bytes / 3.9e12 * 1e3);
	rung_result_judge_roofline(&r, flops, bytes, peak, c.dram.value, RUNG_ROOFLINE_TOL);
	CHECK(!r.impossible);
	CHECK_NEAR(rung_result_roof_pct(&r), 100 * 3.9 / 4.814304, 1e-6);

	/* Compute-bound floor: sgemm 4096^3 f32, 2*4096^3 FLOP at 535 TFLOP/s. */
	double sf = 2.0 * 4096 * 4096 * 4096, sb = 4.0 * 3 * 4096 * 4096;
	bench_ok(&r, 15.5);
	rung_result_judge_roofline(&r, sf, sb, peak, c.dram.value, RUNG_ROOFLINE_TOL);
	CHECK_NEAR(r.floor_ms, sf / 535.26528e12 * 1e3, 1e-9);
	CHECK(!r.impossible);

	/* No bench: the floor is still known, the verdict is not. No [roofline]: no floor. */
	r.bench.valid = false;
	rung_result_judge_roofline(&r, flops, bytes, peak, c.dram.value, RUNG_ROOFLINE_TOL);
	CHECK(!r.impossible);
	CHECK(r.floor_ms > 0);
	CHECK(isnan(rung_result_roof_pct(&r)));
	bench_ok(&r, 0.001);
	rung_result_judge_roofline(&r, NAN, NAN, peak, c.dram.value, RUNG_ROOFLINE_TOL);
	CHECK(isnan(r.floor_ms));
	CHECK(!r.impossible);
	/* Bench FAILED (e.g. no samples): never impossible. */
	r.steps[RUNG_STEP_BENCH].status = RUNG_S_FAILED;
	rung_result_judge_roofline(&r, flops, bytes, peak, c.dram.value, RUNG_ROOFLINE_TOL);
	CHECK(!r.impossible);
	rung_result_clear(&r);
}

static char *print_bench(const rung_result *r)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/bench.txt", t_tmpdir());
	FILE *f = fopen(path, "w+");
	if (!f)
		return NULL;
	rung_check_print_gpu_step(f, r, NULL, RUNG_STEP_BENCH);
	rewind(f);
	char *buf = calloc(1, 4096);
	if (buf && fread(buf, 1, 4095, f) == 0)
		buf[0] = 0;
	fclose(f);
	return buf;
}

static void test_bench_line(void)
{
	rung_result r;
	rung_result_init(&r);
	bench_ok(&r, 0.004);
	r.floor_ms = 0.0278823506;
	r.impossible = true;
	char *s = print_bench(&r);
	CHECK_CONTAINS(s, "[bench] IMPOSSIBLE median=0.004ms below the roofline floor 0.02788ms (14% of it): faster than the roofline");
	free(s);
	r.impossible = false;
	bench_ok(&r, 0.0557647);
	s = print_bench(&r);
	CHECK_CONTAINS(s, "[bench] ok median=0.056ms");
	CHECK_CONTAINS(s, " roof=50%");
	free(s);
	r.floor_ms = NAN;
	s = print_bench(&r);
	CHECK(s && !strstr(s, "roof="));
	free(s);
	rung_result_clear(&r);
}

/* The figure the tables show is the bound one: bytes/s for a kernel nearer the
 * DRAM ceiling, FLOP/s for one nearer the compute ceiling (H200 datasheet:
 * 1070 TFLOP/s bf16 tensor, 4.81 TB/s DRAM). */
static void test_perf_figure(void)
{
	char buf[32];
	rung_result r;
	rung_result_init(&r);
	r.env = h200();
	r.bench.valid = true;
	r.bench.tflops = 2.48, r.bench.tbps = 3.97; /* softmax: 0.2% of compute, 83% of DRAM */
	CHECK_STR(rung_result_perf(buf, sizeof(buf), &r), "3.97 TB/s");
	r.bench.tflops = 99.5, r.bench.tbps = 0.146; /* TF32 sgemm: 9% of compute, 3% of DRAM */
	CHECK_STR(rung_result_perf(buf, sizeof(buf), &r), "99.5 TFLOP/s");
	r.bench.tflops = 0, r.bench.tbps = 2.69; /* a copy: no flops */
	CHECK_STR(rung_result_perf(buf, sizeof(buf), &r), "2.69 TB/s");
	r.env.valid = false; /* no ceilings to tell by: flops when there are any */
	r.bench.tflops = 2.48, r.bench.tbps = 3.97;
	CHECK_STR(rung_result_perf(buf, sizeof(buf), &r), "2.48 TFLOP/s");
	r.bench.valid = false;
	CHECK_STR(rung_result_perf(buf, sizeof(buf), &r), "-");
	CHECK_STR(rung_result_perf(buf, sizeof(buf), NULL), "-");
	rung_result_clear(&r);
}

int main(void)
{
	T_RUN(test_env_attrs);
	T_RUN(test_guard_ceilings);
	T_RUN(test_judge);
	T_RUN(test_bench_line);
	T_RUN(test_perf_figure);
	return t_done();
}

/* Roofline ceilings from device attributes (H200 numbers from
 * /work/shared/notes/gpu-apis.md), floors and the speed-of-light guard. */
#include "harness.h"

#include "core/profile.h"
#include "core/result.h"
#include "core/roofline.h"

static const rung_device_attrs h200 = { 132, 1980000, 3201000, 6016, 9, 0 };

static void t_h200_datasheet(void)
{
	rung_ceilings c;
	rung_ceilings_init(&c);
	CHECK(isnan(c.fp32.value) && c.fp32.src == RUNG_CEIL_NONE);
	CHECK_INT(rung_ceilings_datasheet(&c, &h200), 0);
	/* FP32: 132 SMs * 128 FMA * 2 FLOP * 1.98e9 = 6.690816e13 (datasheet: 67 TFLOP/s) */
	CHECK_NEAR(c.fp32.value, 132.0 * 128 * 2 * 1.98e9, 1);
	CHECK_NEAR(c.fp32.value / 1e12, 66.9, 0.05);
	CHECK_INT(c.fp32.src, RUNG_CEIL_DATASHEET);
	/* DRAM: 2 * 3.201e9 * 6016 / 8 = 4.814304e12 B/s (datasheet: 4.8 TB/s) */
	CHECK_NEAR(c.dram.value, 4.814304e12, 1);
	CHECK_NEAR(c.dram.value / 1e12, 4.8, 0.02);
	/* FP64: 64 FMA/SM -> 33.45 TFLOP/s (datasheet 34) */
	CHECK_NEAR(c.fp64.value / 1e12, 33.45, 0.01);
	/* BF16 dense: 4096 FLOP/clk/SM -> 1070.5 TFLOP/s at 1.98 GHz (datasheet 989 at its
	 * lower tensor clock: ours errs high, i.e. towards a lower floor) */
	CHECK_NEAR(c.tensor[RUNG_TC_BF16].value, 132.0 * 4096 * 1.98e9, 1);
	CHECK_NEAR(c.tensor[RUNG_TC_TF32].value, 132.0 * 2048 * 1.98e9, 1);
	/* L2 has no datasheet formula */
	CHECK_INT(c.l2.src, RUNG_CEIL_NONE);
	CHECK(isnan(c.l2.value));
	CHECK_STR(rung_ceil_src_name(c.dram.src), "datasheet");
	/* L1: 132 SMs * 128 B/clk * 1.98e9 = 3.345408e13 B/s (33.5 TB/s), datasheet */
	CHECK_NEAR(c.l1.value, 132.0 * 128 * 1.98e9, 1);
	CHECK_NEAR(c.l1.value, 3.345408e13, 1);
	CHECK_INT(c.l1.src, RUNG_CEIL_DATASHEET);
	CHECK(rung_ceilings_mem(&c, RUNG_MEM_L1) == &c.l1);
	CHECK(rung_ceilings_mem(&c, RUNG_MEM_L2) == &c.l2);
	CHECK(rung_ceilings_mem(&c, RUNG_MEM_DRAM) == &c.dram);
	CHECK(rung_ceilings_mem(&c, RUNG_MEM_NLEVELS) == NULL);
	/* peak for f32 data: max(fp32, tf32) = tf32 */
	CHECK_NEAR(rung_ceilings_peak_for(&c, RUNG_DT_F32), 132.0 * 2048 * 1.98e9, 1);
	CHECK_NEAR(rung_ceilings_peak_for(&c, RUNG_DT_F64), 132.0 * 128 * 1.98e9, 1);
	CHECK_NEAR(rung_ceilings_peak_compute(&c), 132.0 * 8192 * 1.98e9, 1); /* fp8 */

	/* a measured ceiling is kept when the datasheet is filled again */
	c.dram.value = 4.3e12;
	c.dram.src = RUNG_CEIL_MEASURED;
	rung_ceilings_datasheet(&c, &h200);
	CHECK_NEAR(c.dram.value, 4.3e12, 0);
	CHECK_STR(rung_ceil_src_name(c.dram.src), "measured");

	/* A100 (sm_80, 108 SMs, 1.41 GHz, 1215 MHz x 5120 bits):
	 * FP32 108*64*2*1.41e9 = 19.49 TFLOP/s; DRAM 2*1.215e9*640 = 1.555 TB/s (both datasheet) */
	rung_device_attrs a100 = { 108, 1410000, 1215000, 5120, 8, 0 };
	rung_ceilings_init(&c);
	rung_ceilings_datasheet(&c, &a100);
	CHECK_NEAR(c.fp32.value / 1e12, 19.49, 0.01);
	CHECK_NEAR(c.dram.value / 1e12, 1.555, 0.001);
	CHECK_NEAR(c.tensor[RUNG_TC_F16].value / 1e12, 311.9, 0.1); /* datasheet 312 */
	/* L1 108 * 128 * 1.41e9 = 19.49 TB/s */
	CHECK_NEAR(c.l1.value, 1.949184e13, 1);
	/* a measured L1 is kept when the datasheet is filled again */
	c.l1 = (rung_ceiling){29.9e12, RUNG_CEIL_MEASURED};
	rung_ceilings_datasheet(&c, &a100);
	CHECK_NEAR(c.l1.value, 29.9e12, 0);
	CHECK_INT(c.l1.src, RUNG_CEIL_MEASURED);

	/* unknown arch: compute ceilings absent, DRAM still there */
	rung_device_attrs odd = { 10, 1000000, 1000000, 256, 5, 0 };
	rung_ceilings_init(&c);
	CHECK_INT(rung_ceilings_datasheet(&c, &odd), 0);
	CHECK(isnan(c.fp32.value));
	CHECK(isnan(c.l1.value) && c.l1.src == RUNG_CEIL_NONE); /* no L1 formula for an unknown arch */
	CHECK(c.dram.value > 0);
	CHECK(isnan(rung_ceilings_peak_compute(&c)));
	rung_device_attrs none = { 0, 0, 0, 0, 9, 0 };
	CHECK(rung_ceilings_datasheet(&c, &none) < 0);
}

static void t_floors(void)
{
	double peak = 132.0 * 128 * 2 * 1.98e9, bw = 4.814304e12;
	/* saxpy over 16M floats: 2n FLOP, 12n bytes (read x, y; write y)
	 * AI = 1/6; attainable = bw/6 = 8.02384e11 FLOP/s
	 * floor = 12 * 2^24 / 4.814304e12 s = 4.18186e-5 s = 0.0418186 ms */
	double n = 16777216.0, fl = 2 * n, by = 12 * n;
	CHECK_NEAR(rung_arith_intensity(fl, by), 1.0 / 6, 1e-15);
	CHECK_NEAR(rung_attainable(peak, bw, 1.0 / 6), bw / 6, 1);
	double floor_ms = rung_time_floor_ms(fl, by, peak, bw);
	CHECK_NEAR(floor_ms, by / bw * 1e3, 1e-12);
	CHECK_NEAR(floor_ms, 0.0418186, 1e-6);
	/* at 0.0836 ms the kernel reaches 50% of the memory roof */
	CHECK_NEAR(rung_percent_of_roof(fl, by, 2 * floor_ms, peak, bw), 50, 1e-9);

	/* sgemm 4096^3: 2*4096^3 = 1.37439e11 FLOP, 3*4096^2*4 = 2.01327e8 B
	 * AI = 682.7; compute-bound: floor = 1.37439e11 / 6.690816e13 = 2.054143 ms
	 * the tiled anchor at 15.50 ms is 13.25% of the fp32 roof */
	double gf = 2.0 * 4096 * 4096 * 4096, gb = 3.0 * 4096 * 4096 * 4;
	CHECK_NEAR(rung_arith_intensity(gf, gb), 682.666, 0.001);
	CHECK_NEAR(rung_attainable(peak, bw, 682.666), peak, 0);
	CHECK_NEAR(rung_time_floor_ms(gf, gb, peak, bw), 2.054143, 1e-6);
	CHECK_NEAR(rung_percent_of_roof(gf, gb, 15.50, peak, bw), 13.2527, 1e-3);

	/* missing pieces: a term with an absent ceiling is left out; both absent -> NAN */
	CHECK_NEAR(rung_time_floor_ms(gf, gb, NAN, bw), gb / bw * 1e3, 1e-12);
	CHECK_NEAR(rung_time_floor_ms(gf, 0, peak, bw), gf / peak * 1e3, 1e-12);
	CHECK(isnan(rung_time_floor_ms(gf, gb, NAN, NAN)));
	CHECK(isnan(rung_arith_intensity(1, 0)));
	/* pure copy (flops 0): percent of bandwidth */
	CHECK_NEAR(rung_percent_of_roof(0, by, floor_ms * 4, peak, bw), 25, 1e-9);
}

static void t_impossible(void)
{
	double floor_ms = 0.0418186;
	CHECK(rung_roofline_impossible(0.030, floor_ms, 0.03));   /* 28% under the floor */
	CHECK(!rung_roofline_impossible(0.041, floor_ms, 0.03));  /* 2% under: within tol */
	CHECK(!rung_roofline_impossible(0.0406, floor_ms, 0.03)); /* floor*0.97 = 0.040564 */
	CHECK(rung_roofline_impossible(0.0405, floor_ms, 0.03));
	CHECK(!rung_roofline_impossible(0.050, floor_ms, 0.03));
	CHECK(!rung_roofline_impossible(NAN, floor_ms, 0.03));
	CHECK(!rung_roofline_impossible(0.01, NAN, 0.03));
}

static void t_levels(void)
{
	CHECK_INT(RUNG_MEM_NLEVELS, 3);
	CHECK_STR(rung_mem_level_label(RUNG_MEM_DRAM), "DRAM");
	CHECK_STR(rung_mem_level_label(RUNG_MEM_L2), "L2");
	CHECK_STR(rung_mem_level_label(RUNG_MEM_L1), "L1");
	CHECK_STR(rung_mem_level_key(RUNG_MEM_L1), "l1");
	CHECK_STR(rung_mem_level_label(RUNG_MEM_NLEVELS), "?");
	CHECK_STR(rung_profile_level_counter(RUNG_MEM_DRAM), "dram.bytes");
	CHECK_STR(rung_profile_level_counter(RUNG_MEM_L2), "lts__t_bytes.sum");
	CHECK_STR(rung_profile_level_counter(RUNG_MEM_L1), "l1tex__t_bytes.sum");
}

/* The hierarchical intensities: one FLOP count over each level's bytes. */
static void t_intensities(void)
{
	rung_result r;
	rung_result_init(&r);
	double ai[RUNG_MEM_NLEVELS];
	char line[128];
	rung_profile_intensities(ai, &r);
	CHECK(isnan(ai[0]) && isnan(ai[1]) && isnan(ai[2]));
	CHECK(isnan(rung_profile_flops(&r)));
	rung_profile_intensity_line(line, sizeof(line), &r);
	CHECK_STR(line, "");
	/* 2e9 f32 + 1e9 f16 = 3e9 FLOP; DRAM 1e9 B, L2 2e9 B, L1 4e9 B -> 3, 1.5, 0.75 FLOP/B */
	rung_counter_set(&r, "flops.f32", 2e9);
	rung_counter_set(&r, "flops.f16", 1e9);
	rung_counter_set(&r, "dram.bytes", 1e9);
	rung_counter_set(&r, "lts__t_bytes.sum", 2e9);
	rung_counter_set(&r, "l1tex__t_bytes.sum", 4e9);
	CHECK_NEAR(rung_profile_flops(&r), 3e9, 0);
	rung_profile_intensities(ai, &r);
	CHECK_NEAR(ai[RUNG_MEM_DRAM], 3, 1e-12);
	CHECK_NEAR(ai[RUNG_MEM_L2], 1.5, 1e-12);
	CHECK_NEAR(ai[RUNG_MEM_L1], 0.75, 1e-12);
	rung_profile_intensity_line(line, sizeof(line), &r);
	CHECK_STR(line, "dram=3 l2=1.5 l1=0.75 FLOP/B");
	/* the demo's 128x128 tile (examples/sgemm/recorded.jsonl): 137438953472 + 2097152 FLOP
	 * over 679864320 / 4736053952 / 4831838208 B = 202.16 / 29.020 / 28.445 FLOP/B */
	rung_counter_set(&r, "flops.f32", 137438953472.0);
	rung_counter_set(&r, "flops.f16", 2097152.0);
	rung_counter_set(&r, "dram.bytes", 679864320.0);
	rung_counter_set(&r, "lts__t_bytes.sum", 4736053952.0);
	rung_counter_set(&r, "l1tex__t_bytes.sum", 4831838208.0);
	rung_profile_intensities(ai, &r);
	CHECK_NEAR(ai[RUNG_MEM_DRAM], 202.16, 0.005);
	CHECK_NEAR(ai[RUNG_MEM_L2], 29.020, 0.0005);
	CHECK_NEAR(ai[RUNG_MEM_L1], 28.445, 0.0005);
	rung_profile_intensity_line(line, sizeof(line), &r);
	CHECK_STR(line, "dram=202 l2=29 l1=28.4 FLOP/B");
	/* a level without its counter is left out; zero bytes are no intensity */
	rung_result_clear(&r);
	rung_result_init(&r);
	rung_counter_set(&r, "flops.f32", 8e9);
	rung_counter_set(&r, "dram.bytes", 0);
	rung_counter_set(&r, "l1tex__t_bytes.sum", 1e9);
	rung_profile_intensities(ai, &r);
	CHECK(isnan(ai[RUNG_MEM_DRAM]) && isnan(ai[RUNG_MEM_L2]));
	CHECK_NEAR(ai[RUNG_MEM_L1], 8, 0);
	rung_profile_intensity_line(line, sizeof(line), &r);
	CHECK_STR(line, "l1=8 FLOP/B");
	/* zero counted FLOPs (a tensor-core kernel: no FFMA counted) have no point */
	rung_counter_set(&r, "flops.f32", 0);
	rung_profile_intensities(ai, &r);
	CHECK(isnan(ai[RUNG_MEM_L1]));
	rung_result_clear(&r);
}

int main(void)
{
	T_RUN(t_h200_datasheet);
	T_RUN(t_floors);
	T_RUN(t_impossible);
	T_RUN(t_levels);
	T_RUN(t_intensities);
	return t_done();
}

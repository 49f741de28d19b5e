/* Roofline math. Per-SM per-clock table (dense, no sparsity):
 *
 *   arch            FP32 FMA  FP64 FMA  tensor FLOP/clk/SM (f16=bf16, tf32, fp8, int8, f64)
 *   sm_70 (V100)        64        32     1024 f16 only
 *   sm_75 (T4)          64         2     1024 f16, int8 2048
 *   sm_80 (A100)        64        32     2048, tf32 1024, int8 4096, f64 64
 *   sm_86/87 (A10)     128         2      512, tf32 256, int8 1024
 *   sm_89 (L40S)       128         2     1024, tf32 512, fp8 2048, int8 2048
 *   sm_90 (H100/H200)  128        64     4096, tf32 2048, fp8 8192, int8 8192, f64 128
 *   sm_100 (B200)      128        64     8192, tf32 4096, fp8 16384, int8 16384, f64 128
 *   sm_120 (RTX 50)    128         2     1024, tf32 512, fp8 2048, int8 2048
 *
 * These are from the NVIDIA architecture whitepapers' per-SM figures; the
 * tensor numbers, times the *reported* SM clock, come out above the datasheet's
 * (which quotes a lower tensor boost clock), which errs on the safe side for
 * the speed-of-light guard. sm_80 has 64 FP32 lanes per SM (A100 19.5 TFLOP/s),
 * unlike sm_86+ which have 128. */
#include "core/roofline.h"

#include <math.h>

#include "core/err.h"

const char *rung_ceil_src_name(rung_ceil_src s)
{
	switch (s) {
	case RUNG_CEIL_DATASHEET: return "datasheet";
	case RUNG_CEIL_MEASURED: return "measured";
	default: return "none";
	}
}

const char *rung_tc_name(rung_tc_type t)
{
	static const char *n[] = { "f16", "bf16", "tf32", "fp8", "int8", "f64" };
	return (unsigned)t < RUNG_TC_COUNT ? n[t] : "?";
}

static const char *const level_label[] = {
#define RUNG_MEM_LEVEL_LABEL(id, label, key) label,
	RUNG_MEM_LEVEL_LIST(RUNG_MEM_LEVEL_LABEL)
#undef RUNG_MEM_LEVEL_LABEL
};

static const char *const level_key[] = {
#define RUNG_MEM_LEVEL_KEY(id, label, key) key,
	RUNG_MEM_LEVEL_LIST(RUNG_MEM_LEVEL_KEY)
#undef RUNG_MEM_LEVEL_KEY
};

const char *rung_mem_level_label(rung_mem_level l)
{
	return (unsigned)l < RUNG_MEM_NLEVELS ? level_label[l] : "?";
}

const char *rung_mem_level_key(rung_mem_level l)
{
	return (unsigned)l < RUNG_MEM_NLEVELS ? level_key[l] : "?";
}

const rung_ceiling *rung_ceilings_mem(const rung_ceilings *c, rung_mem_level l)
{
	switch (l) {
	case RUNG_MEM_DRAM: return &c->dram;
	case RUNG_MEM_L2: return &c->l2;
	case RUNG_MEM_L1: return &c->l1;
	default: return NULL;
	}
}

void rung_ceilings_init(rung_ceilings *c)
{
	rung_ceiling none = { NAN, RUNG_CEIL_NONE };
	c->fp32 = c->fp64 = c->dram = c->l2 = c->l1 = none;
	for (int t = 0; t < RUNG_TC_COUNT; t++)
		c->tensor[t] = none;
}

int rung_arch_fp32_fma_per_clk(int major, int minor)
{
	if (major == 7 || (major == 8 && minor == 0))
		return 64;
	if (major >= 8 && major <= 12)
		return 128;
	return 0;
}

int rung_arch_fp64_fma_per_clk(int major, int minor)
{
	if (major == 7 && minor == 0)
		return 32;
	if (major == 8 && minor == 0)
		return 32;
	if (major == 9 || major == 10)
		return 64;
	if (major >= 7 && major <= 12)
		return 2;
	return 0;
}

int rung_arch_tensor_flop_per_clk(int major, int minor, rung_tc_type t)
{
	/* f16/bf16, tf32, fp8, int8, f64 */
	int v[5] = { 0, 0, 0, 0, 0 };
	if (major == 7 && minor == 0) {
		v[0] = 1024;
		if (t == RUNG_TC_BF16)
			return 0;
	} else if (major == 7 && minor == 5) {
		v[0] = 1024; v[3] = 2048;
		if (t == RUNG_TC_BF16)
			return 0;
	} else if (major == 8 && minor == 0) {
		v[0] = 2048; v[1] = 1024; v[3] = 4096; v[4] = 64;
	} else if (major == 8) {
		if (minor == 9) {
			v[0] = 1024; v[1] = 512; v[2] = 2048; v[3] = 2048;
		} else {
			v[0] = 512; v[1] = 256; v[3] = 1024;
		}
	} else if (major == 9) {
		v[0] = 4096; v[1] = 2048; v[2] = 8192; v[3] = 8192; v[4] = 128;
	} else if (major == 10) {
		v[0] = 8192; v[1] = 4096; v[2] = 16384; v[3] = 16384; v[4] = 128;
	} else if (major == 12) {
		v[0] = 1024; v[1] = 512; v[2] = 2048; v[3] = 2048;
	}
	switch (t) {
	case RUNG_TC_F16: case RUNG_TC_BF16: return v[0];
	case RUNG_TC_TF32: return v[1];
	case RUNG_TC_FP8: return v[2];
	case RUNG_TC_INT8: return v[3];
	case RUNG_TC_F64: return v[4];
	default: return 0;
	}
}

static void set_ds(rung_ceiling *c, double v)
{
	if (c->src == RUNG_CEIL_MEASURED)
		return;
	if (v > 0) {
		c->value = v;
		c->src = RUNG_CEIL_DATASHEET;
	} else {
		c->value = NAN;
		c->src = RUNG_CEIL_NONE;
	}
}

int rung_ceilings_datasheet(rung_ceilings *c, const rung_device_attrs *a)
{
	if (a->sms <= 0 || a->sm_clock_khz <= 0)
		return rung_error_set(RUNG_EINVAL, "roofline: device attributes missing (SMs %d, clock %d kHz)", a->sms, a->sm_clock_khz);
	double clk = (double)a->sm_clock_khz * 1e3;
	double per_clk_sms = (double)a->sms * clk;
	set_ds(&c->fp32, per_clk_sms * 2.0 * rung_arch_fp32_fma_per_clk(a->major, a->minor));
	set_ds(&c->fp64, per_clk_sms * 2.0 * rung_arch_fp64_fma_per_clk(a->major, a->minor));
	for (int t = 0; t < RUNG_TC_COUNT; t++)
		set_ds(&c->tensor[t], per_clk_sms * rung_arch_tensor_flop_per_clk(a->major, a->minor, (rung_tc_type)t));
	if (a->mem_clock_khz > 0 && a->bus_width_bits > 0)
		set_ds(&c->dram, 2.0 * (double)a->mem_clock_khz * 1e3 * (double)a->bus_width_bits / 8.0);
	/* L1: one 128-byte wavefront per SM per clock, on every architecture of the table */
	set_ds(&c->l1, rung_arch_fp32_fma_per_clk(a->major, a->minor) > 0 ? per_clk_sms * RUNG_L1_BYTES_PER_CLK : 0);
	return 0;
}

double rung_ceilings_peak_compute(const rung_ceilings *c)
{
	double best = NAN;
	const rung_ceiling *all[2 + RUNG_TC_COUNT];
	all[0] = &c->fp32;
	all[1] = &c->fp64;
	for (int t = 0; t < RUNG_TC_COUNT; t++)
		all[2 + t] = &c->tensor[t];
	for (int k = 0; k < 2 + RUNG_TC_COUNT; k++) {
		double v = all[k]->value;
		if (all[k]->src != RUNG_CEIL_NONE && v > 0 && (isnan(best) || v > best))
			best = v;
	}
	return best;
}

static double max_present(double best, const rung_ceiling *c)
{
	if (c->src != RUNG_CEIL_NONE && c->value > 0 && (isnan(best) || c->value > best))
		return c->value;
	return best;
}

double rung_ceilings_peak_for(const rung_ceilings *c, rung_dtype dt)
{
	switch (dt) {
	case RUNG_DT_F64:
		return max_present(max_present(NAN, &c->fp64), &c->tensor[RUNG_TC_F64]);
	case RUNG_DT_F32:
		return max_present(max_present(NAN, &c->fp32), &c->tensor[RUNG_TC_TF32]);
	case RUNG_DT_F16:
		return max_present(max_present(NAN, &c->fp32), &c->tensor[RUNG_TC_F16]);
	case RUNG_DT_BF16:
		return max_present(max_present(NAN, &c->fp32), &c->tensor[RUNG_TC_BF16]);
	default:
		return max_present(max_present(NAN, &c->fp32), &c->tensor[RUNG_TC_INT8]);
	}
}

double rung_arith_intensity(double flops, double bytes)
{
	if (!(bytes > 0) || isnan(flops))
		return NAN;
	return flops / bytes;
}

double rung_attainable(double peak, double bw, double ai)
{
	if (isnan(ai) || !(peak > 0) || !(bw > 0))
		return NAN;
	double mem = ai * bw;
	return mem < peak ? mem : peak;
}

double rung_time_floor_ms(double flops, double bytes, double peak, double bw)
{
	double t = NAN;
	if (flops > 0 && peak > 0)
		t = flops / peak;
	if (bytes > 0 && bw > 0) {
		double tb = bytes / bw;
		if (isnan(t) || tb > t)
			t = tb;
	}
	return isnan(t) ? NAN : t * 1e3;
}

double rung_percent_of_roof(double flops, double bytes, double ms, double peak, double bw)
{
	if (!(ms > 0))
		return NAN;
	if (!(flops > 0)) /* pure data movement: percent of bandwidth */
		return bytes > 0 && bw > 0 ? 100.0 * (bytes / (ms * 1e-3)) / bw : NAN;
	double ai = rung_arith_intensity(flops, bytes);
	double roof = rung_attainable(peak, bw, ai);
	if (isnan(roof) && peak > 0) /* no byte count: compute roof only */
		roof = peak;
	if (isnan(roof) || !(ms > 0) || !(roof > 0))
		return NAN;
	return 100.0 * (flops / (ms * 1e-3)) / roof;
}

bool rung_roofline_impossible(double median_ms, double floor_ms, double tol)
{
	if (isnan(median_ms) || isnan(floor_ms) || !(floor_ms > 0))
		return false;
	return median_ms < floor_ms * (1.0 - tol);
}

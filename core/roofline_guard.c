#include "core/roofline_guard.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"

/* kHz from a recorded MHz; 0 (unknown) for a value that is none or does not fit */
static int khz_of(int mhz)
{
	return mhz > 0 && mhz <= INT_MAX / 1000 ? mhz * 1000 : 0;
}

int rung_env_device_attrs(rung_device_attrs *out, const rung_env *e)
{
	memset(out, 0, sizeof(*out));
	int major = 0, minor = 0;
	if (!e || !e->valid || sscanf(e->arch, "sm_%d", &major) != 1)
		return rung_error_set(RUNG_EINVAL, "roofline: no device environment");
	/* "sm_90" -> 90, "sm_100" -> 100: the last digit is the minor version. */
	minor = major % 10;
	major /= 10;
	out->sms = e->sms;
	out->sm_clock_khz = khz_of(e->sm_clock_mhz);
	out->mem_clock_khz = khz_of(e->mem_clock_mhz);
	out->bus_width_bits = e->bus_width;
	out->major = major;
	out->minor = minor;
	return 0;
}

static void take_higher(rung_ceiling *g, const rung_ceiling *m)
{
	if (m->src == RUNG_CEIL_NONE || !(m->value > 0))
		return;
	if (g->src == RUNG_CEIL_NONE || !(g->value > 0) || m->value > g->value)
		*g = *m;
}

void rung_ceilings_guard(rung_ceilings *out, const rung_env *e, const rung_ceilings *measured)
{
	rung_ceilings_init(out);
	rung_device_attrs a;
	if (rung_env_device_attrs(&a, e) == 0)
		rung_ceilings_datasheet(out, &a);
	rung_error_clear();
	if (!measured)
		return;
	take_higher(&out->fp32, &measured->fp32);
	take_higher(&out->fp64, &measured->fp64);
	take_higher(&out->dram, &measured->dram);
	take_higher(&out->l2, &measured->l2);
	take_higher(&out->l1, &measured->l1);
	for (int t = 0; t < RUNG_TC_COUNT; t++)
		take_higher(&out->tensor[t], &measured->tensor[t]);
}

double rung_ceilings_peak_for_dtypes(const rung_ceilings *c, const rung_dtype *dts, int n)
{
	double best = NAN;
	for (int i = 0; i < n; i++) {
		double v = rung_ceilings_peak_for(c, dts[i]);
		if (v > 0 && (isnan(best) || v > best))
			best = v;
	}
	return best;
}

void rung_result_judge_roofline(rung_result *r, double flops, double bytes, double peak, double bw, double tol)
{
	r->floor_ms = rung_time_floor_ms(flops, bytes, peak, bw);
	r->impossible = false;
	if (r->bench.valid && r->steps[RUNG_STEP_BENCH].status == RUNG_S_OK)
		r->impossible = rung_roofline_impossible(r->bench.median, r->floor_ms, tol);
	rung_result_sync_impossible(r);
}

double rung_result_roof_pct(const rung_result *r)
{
	if (!r || !r->bench.valid || !(r->bench.median > 0) || !(r->floor_ms > 0))
		return NAN;
	return 100.0 * r->floor_ms / r->bench.median;
}

const char *rung_result_perf(char *buf, size_t len, const rung_result *r)
{
	double fl = r && r->bench.valid ? r->bench.tflops : NAN, by = r && r->bench.valid ? r->bench.tbps : NAN;
	bool have_fl = isfinite(fl) && fl > 0, have_by = isfinite(by) && by > 0;
	bool bytes = have_by && !have_fl;
	if (have_fl && have_by) {
		rung_ceilings c;
		rung_ceilings_guard(&c, &r->env, NULL);
		double peak = rung_ceilings_peak_compute(&c), bw = c.dram.value;
		if (peak > 0 && bw > 0)
			bytes = by * 1e12 / bw > fl * 1e12 / peak;
	}
	if (bytes)
		snprintf(buf, len, "%.3g TB/s", by);
	else if (have_fl)
		snprintf(buf, len, "%.3g TFLOP/s", fl);
	else
		snprintf(buf, len, "-");
	return buf;
}

#include "tui/model/rowmetrics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/envcmp.h"
#include "core/roofline.h"
#include "core/roofline_fit.h"
#include "core/roofline_guard.h"

static double usable_median(const rung_result *r)
{
	if (!r || !r->bench.valid || r->steps[RUNG_STEP_CHECK].status == RUNG_S_FAILED)
		return NAN;
	return r->bench.median;
}

void rung_row_metrics_get(rung_row_metrics *o, const rung_model *m, int row, int base_row)
{
	o->median_ms = o->max_rel = o->delta = o->speedup = o->noise = o->intensity = o->flop_s = o->roof_pct = NAN;
	o->has_delta = o->impossible = o->suspect = o->has_regs = o->shared = o->delta_shared = false;
	o->shared_why[0] = 0;
	o->roof_name = "";
	o->roof_peak = NAN;
	o->cmp = RUNG_CMP_SAME;
	o->regs = 0;
	o->spills = o->smem = 0;
	if (row < 0 || row >= m->nrows)
		return;
	const rung_result *r = m->rows[row].result;
	if (!r)
		return;
	o->max_rel = rung_result_max_rel(r); /* the one max_rel (core/result.h) */
	o->median_ms = usable_median(r);
	if (!isnan(o->median_ms) && rung_bench_shared(&r->bench)) {
		o->shared = true;
		rung_gpu_procs_str(o->shared_why, sizeof(o->shared_why), &r->bench.shared);
	}
	if (r->compile.kernel.valid) {
		o->has_regs = true;
		o->regs = r->compile.kernel.regs;
		o->spills = r->compile.kernel.spill_stores + r->compile.kernel.spill_loads;
		o->smem = r->compile.kernel.smem;
	}
	/* the baseline's result of the same kind: live against live, recorded against recorded */
	const rung_result *b = base_row >= 0 && base_row < m->nrows
				       ? rung_model_row_result(&m->rows[base_row], rung_model_row_is_recorded(&m->rows[row]))
				       : NULL;
	double tb = usable_median(b);
	if (!isnan(o->median_ms) && !isnan(tb) && tb > 0 && base_row != row) {
		o->has_delta = true;
		o->delta = (o->median_ms - tb) / tb;
		o->speedup = rung_speedup(o->median_ms, tb);
		o->noise = rung_ratio_noise(r->bench.rse_median, b->bench.rse_median);
		double band = fmax(o->noise, RUNG_CMP_MIN_EFFECT);
		o->cmp = o->delta < -band ? RUNG_CMP_FASTER : o->delta > band ? RUNG_CMP_SLOWER : RUNG_CMP_SAME;
		/* a timing beside another process on the GPU gives no A/B verdict */
		o->delta_shared = o->shared || rung_bench_shared(&b->bench);
		if (o->delta_shared)
			o->cmp = RUNG_CMP_SAME;
		o->env_differs = rung_env_diff(o->env_why, sizeof(o->env_why), &r->env, &b->env) > 0;
	}
	bool fallback_impossible = false;
	if (!isnan(o->median_ms) && !isnan(r->bench.tflops) && r->bench.tflops > 0) {
		double s = o->median_ms * 1e-3;
		double flops = r->bench.tflops * 1e12 * s;
		double bytes = !isnan(r->bench.tbps) && r->bench.tbps > 0 ? r->bench.tbps * 1e12 * s : NAN;
		o->flop_s = r->bench.tflops * 1e12;
		o->intensity = rung_arith_intensity(flops, isnan(bytes) ? 0 : bytes);
		double peak = m->ceil.fp32_flop_s, bw = m->ceil.bw_bytes_s;
		/* the roof of its instruction mix: FP32 FMA unless it issues tensor
		 * instructions (then the guard's floor, whose tensor ceiling follows
		 * the arguments' dtypes: TF32 for f32) */
		if (m->rows[row].mma < 0 && !isnan(peak) && peak > 0) {
			double fl = rung_time_floor_ms(flops, bytes, peak, bw);
			o->roof_pct = 100.0 * fl / o->median_ms;
			o->roof_name = "FP32 FMA";
			o->roof_peak = peak;
		} else if (!isnan(r->floor_ms) && r->floor_ms > 0) {
			if (m->rows[row].mma > 0) {
				/* named as the roofline draws it: the tensor ceiling of the task's data type */
				static const char *const tname[RUNG_TC_COUNT] = {
					[RUNG_TC_F16] = "FP16 tensor", [RUNG_TC_BF16] = "BF16 tensor", [RUNG_TC_TF32] = "TF32 tensor",
					[RUNG_TC_FP8] = "FP8 tensor", [RUNG_TC_INT8] = "INT8 tensor", [RUNG_TC_F64] = "FP64 tensor"};
				o->roof_name = tname[rung_fit_tensor_type(m->goal_dtype, NULL)];
				o->roof_peak = flops / (r->floor_ms * 1e-3); /* the ceiling that floor implies */
			}
			/* the floor the speed-of-light guard used (the bench line's roof=, rung brief) */
			o->roof_pct = rung_result_roof_pct(r);
		} else if (!isnan(peak) && !isnan(bw) && !isnan(bytes)) {
			/* a result judged before the guard: the FP32 floor at the screen's
			 * ceilings, impossible by the guard's rule only when no tensor
			 * ceiling could explain it */
			double fl = rung_time_floor_ms(flops, bytes, peak, bw);
			o->roof_pct = 100.0 * fl / o->median_ms;
			fallback_impossible = isnan(m->ceil.tensor_flop_s) &&
					      rung_roofline_impossible(o->median_ms, fl, RUNG_ROOFLINE_TOL);
		}
	}
	o->impossible = r->impossible || fallback_impossible;
	o->suspect = r->nsuspects > 0 || o->impossible;
}

void rung_fmt_roof_of(char *buf, int len, const rung_row_metrics *mx, bool brief)
{
	if (!mx->roof_name[0] || isnan(mx->roof_peak)) {
		snprintf(buf, (size_t)len, "of roof");
		return;
	}
	if (brief) { /* "31% FP32", "19% tensor": the plot draws and names the roofs */
		snprintf(buf, (size_t)len, "%s", strcmp(mx->roof_name, "FP32 FMA") ? mx->roof_name : "FP32");
		return;
	}
	bool peta = mx->roof_peak >= 1e15;
	snprintf(buf, (size_t)len, "of the %s roof (%.3g %sFLOP/s)", mx->roof_name, mx->roof_peak / (peta ? 1e15 : 1e12),
		 peta ? "P" : "T");
}

void rung_fmt_ms(char *buf, int len, double ms)
{
	if (isnan(ms))
		snprintf(buf, (size_t)len, "-");
	else if (ms >= 1000)
		snprintf(buf, (size_t)len, "%.2fs", ms / 1000);
	else if (ms >= 100)
		snprintf(buf, (size_t)len, "%.1fms", ms);
	else if (ms >= 1)
		snprintf(buf, (size_t)len, "%.3fms", ms);
	else
		snprintf(buf, (size_t)len, "%.1fus", ms * 1000);
}

void rung_fmt_ms_unit(char *buf, int len, double ms, bool us)
{
	if (isnan(ms))
		snprintf(buf, (size_t)len, "-");
	else if (us)
		snprintf(buf, (size_t)len, "%.1fus", ms * 1000);
	else if (ms >= 1000)
		snprintf(buf, (size_t)len, "%.0fms", ms);
	else if (ms >= 100)
		snprintf(buf, (size_t)len, "%.1fms", ms);
	else if (ms >= 1)
		snprintf(buf, (size_t)len, "%.3fms", ms);
	else
		snprintf(buf, (size_t)len, "%.4fms", ms);
}

void rung_fmt_si(char *buf, int len, double v)
{
	static const char *const suf[] = {"", "K", "M", "G", "T", "P", "E"};
	int k = 0;
	while (fabs(v) >= 1000 && k < 6) {
		v /= 1000;
		k++;
	}
	if (fabs(v - round(v)) < 1e-9)
		snprintf(buf, (size_t)len, "%.0f%s", v, suf[k]);
	else
		snprintf(buf, (size_t)len, "%.3g%s", v, suf[k]);
}

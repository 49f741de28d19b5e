#include "core/roofline_fit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/profile.h"
#include "core/roofline_guard.h"

int rung_result_tensor(const rung_result *r)
{
	double hmma = rung_counter_get(r, "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active");
	double gmma = rung_counter_get(r, "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active");
	if (isnan(hmma) && isnan(gmma))
		return -1;
	return (!isnan(hmma) && hmma >= RUNG_TENSOR_ACTIVE_PCT) || (!isnan(gmma) && gmma >= RUNG_TENSOR_ACTIVE_PCT);
}

bool rung_mix_tensor(const rung_sass_mix *m)
{
	return m && (m->n[RUNG_MIX_HMMA] > 0 || m->n[RUNG_MIX_HGMMA] > 0);
}

static double present(const rung_ceiling *c)
{
	return c->src != RUNG_CEIL_NONE && c->value > 0 ? c->value : NAN;
}

rung_tc_type rung_fit_tensor_type(rung_dtype dt, const char **name)
{
	static const struct { rung_dtype dt; rung_tc_type tc; const char *name; } tc[] = {
		{ RUNG_DT_F32, RUNG_TC_TF32, "TF32" }, { RUNG_DT_F16, RUNG_TC_F16, "FP16" },
		{ RUNG_DT_BF16, RUNG_TC_BF16, "BF16" }, { RUNG_DT_F64, RUNG_TC_F64, "FP64" },
	};
	rung_tc_type t = RUNG_TC_INT8;
	const char *nm = "INT8";
	for (size_t i = 0; i < sizeof(tc) / sizeof(tc[0]); i++)
		if (tc[i].dt == dt)
			t = tc[i].tc, nm = tc[i].name;
	if (name)
		*name = nm;
	return t;
}

void rung_fit_roof_pick(rung_fit_roof *out, const rung_ceilings *c, rung_dtype dt, int tensor)
{
	memset(out, 0, sizeof(*out));
	out->bw = present(&c->dram);
	out->tensor = tensor > 0;
	if (!out->tensor) {
		bool f64 = dt == RUNG_DT_F64;
		out->flop_s = present(f64 ? &c->fp64 : &c->fp32);
		snprintf(out->name, sizeof(out->name), "%s", f64 ? "FP64" : "FP32");
		return;
	}
	const char *name;
	rung_tc_type t = rung_fit_tensor_type(dt, &name);
	out->flop_s = present(&c->tensor[t]);
	snprintf(out->name, sizeof(out->name), "%s tensor", name);
}

/* The floor under roof, and which of its terms binds. */
static double floor_of(rung_fit_roof *roof, double flops, double bytes)
{
	double fl = rung_time_floor_ms(flops, bytes, roof->flop_s, roof->bw);
	double mem = rung_time_floor_ms(NAN, bytes, NAN, roof->bw);
	snprintf(roof->bound, sizeof(roof->bound), "%s", mem > 0 && mem >= fl ? "DRAM" : roof->name);
	return fl;
}

double rung_result_fit_roof_pct(const rung_result *r, const rung_ceilings *measured, rung_dtype dt, int tensor,
				rung_fit_roof *roof)
{
	rung_fit_roof local;
	if (!roof)
		roof = &local;
	memset(roof, 0, sizeof(*roof));
	roof->flop_s = roof->bw = NAN;
	if (!r || !r->bench.valid || !(r->bench.median > 0))
		return NAN;
	double s = r->bench.median * 1e-3;
	double flops = r->bench.tflops > 0 ? r->bench.tflops * 1e12 * s : NAN;
	double bytes = r->bench.tbps > 0 ? r->bench.tbps * 1e12 * s : NAN;
	rung_ceilings c;
	rung_ceilings_guard(&c, &r->env, measured);
	rung_fit_roof_pick(roof, &c, dt, tensor);
	double floor = floor_of(roof, flops, bytes);
	double pct = floor > 0 ? 100.0 * floor / r->bench.median : NAN;
	if (tensor < 0 && pct > 100.0 * (1 + RUNG_ROOFLINE_TOL)) {
		/* faster than FP32 FMA allows: it runs on tensor cores */
		rung_fit_roof t;
		rung_fit_roof_pick(&t, &c, dt, 1);
		double ft = floor_of(&t, flops, bytes);
		if (ft > 0) {
			*roof = t;
			pct = 100.0 * ft / r->bench.median;
		}
	}
	return pct;
}

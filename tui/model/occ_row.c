/* Theoretical occupancy of a version (see tui/model/occ_row.h). */
#include "tui/model/occ_row.h"

#include <stdio.h>

#include "core/err.h"

int rung_row_occupancy(rung_occupancy *out, rung_model *m, int row)
{
	if (row < 0 || row >= m->nrows)
		return rung_error_set(RUNG_EINVAL, "no such version");
	const rung_model_row *r = &m->rows[row];
	const rung_result *res = r->result;
	if (!res || !res->compile.kernel.valid)
		return rung_error_set(RUNG_ENOTFOUND, "%.7s: no compile info", r->hash);
	const char *arch = res->compile.arch[0] ? res->compile.arch : res->env.arch;
	rung_geom g;
	int e = rung_model_launch(&g, m, r->hash);
	if (e < 0)
		return e;
	rung_occ_input in = {
		.threads = (int)(g.block[0] * g.block[1] * g.block[2]),
		.regs = res->compile.kernel.regs,
		.static_smem = res->compile.kernel.smem,
		.dynamic_smem = g.smem,
		.barriers = res->compile.kernel.barriers,
	};
	return rung_occupancy_calc(out, arch, &in);
}

static const char *short_limit(rung_occ_limit l)
{
	switch (l) {
	case RUNG_OCC_THREADS:
		return "thr";
	case RUNG_OCC_REGS:
		return "regs";
	case RUNG_OCC_SMEM:
		return "smem";
	case RUNG_OCC_BLOCKS:
		return "blocks";
	case RUNG_OCC_BARRIERS:
		return "bars";
	}
	return "?";
}

void rung_fmt_occupancy(char *buf, int len, const rung_occupancy *o)
{
	if (o->pct >= 100)
		snprintf(buf, (size_t)len, "%.3g%%", o->pct);
	else
		snprintf(buf, (size_t)len, "%.3g%% %s", o->pct, short_limit(o->limit));
}

#include "core/metric_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* one value function per metric, from the list's value expression */
#define RUNG_METRIC_VALUE(id, key, worst, expr, ...)                                                               \
	static double value_##id(const rung_check_metric *m)                                                       \
	{                                                                                                          \
		return (double)(expr);                                                                              \
	}
RUNG_METRIC_LIST(RUNG_METRIC_VALUE)
#undef RUNG_METRIC_VALUE

const rung_metric_info rung_metrics[RUNG_NMETRICS] = {
#define RUNG_METRIC_INFO(id, key, worst, expr, check, cfmt, log, lw, lfmt, csv, brief, bfmt, detail, dfmt)          \
	[RUNG_METRIC_##id] = {key, worst, value_##id, check, cfmt, log, lw, lfmt, csv, brief, bfmt, detail, dfmt},
	RUNG_METRIC_LIST(RUNG_METRIC_INFO)
#undef RUNG_METRIC_INFO
};

double rung_metric_worst(const rung_result *r, rung_metric_id id)
{
	const rung_metric_info *mi = &rung_metrics[id];
	double w = NAN;
	for (int i = 0; r && i < r->nmetrics; i++) {
		double v = mi->value(&r->metrics[i]);
		if (isnan(v)) /* absent for this output */
			continue;
		if (isnan(w) || (mi->worst == RUNG_WORST_MAX ? v > w : v < w))
			w = v;
	}
	return w;
}

const char *rung_metric_str(char *buf, size_t len, const char *fmt, double v, const char *nan_text)
{
	if (isnan(v)) {
		snprintf(buf, len, "%s", nan_text);
	} else if (isinf(v)) {
		snprintf(buf, len, "%s", v > 0 ? "inf" : "-inf");
	} else if (!strcmp(fmt, "e1")) {
		/* "1.2e-4" rather than C's "1.2e-04" */
		char t[32];
		snprintf(t, sizeof(t), "%.1e", v);
		char *e = strchr(t, 'e');
		if (e && (e[1] == '-' || e[1] == '+') && e[2] == '0' && e[3])
			memmove(e + 2, e + 3, strlen(e + 3) + 1);
		snprintf(buf, len, "%s", t);
	} else {
		snprintf(buf, len, fmt, v);
	}
	return buf;
}

/* The correctness metrics a result shows, one list (as tig lists its
 * requests): every place that shows a metric or takes a result's worst value
 * (rung check's line, rung log's table, CSV and JSON, rung brief, the store's
 * columns) iterates it, so a metric is added with one line here (and, when it
 * is computed from the others, its value function in core/metric_table.c).
 * How each is computed per output: core/metrics.c, docs/CHECKS.md. */
#ifndef RUNG_CORE_METRIC_TABLE_H
#define RUNG_CORE_METRIC_TABLE_H

#include <math.h>
#include <stddef.h>

#include "core/result.h"

/* Which value of a result's outputs (every output, shape, seed and input
 * distribution) is its worst: the largest (an error) or the smallest (a
 * similarity). The NaN rule is one for all: a NaN is a value that is absent
 * for that output (nothing finite to measure, or a result from before the
 * metric) and is skipped; the worst is NaN only when no output has one. */
typedef enum { RUNG_WORST_MAX, RUNG_WORST_MIN } rung_worst_rule;

/* The largest distance in ULPs of an output's elements from the reference's,
 * as the top of the highest bin of its ULP histogram that holds one (0, 1, 3,
 * 15, 255, 65535; inf past that or for a NaN/Inf mismatch): NaN for a
 * non-float output or a result from before the histogram. */
static inline double rung_metric_max_ulp(const rung_check_metric *m)
{
	static const double top[RUNG_ULP_BINS] = {0, 1, 3, 15, 255, 65535, INFINITY, INFINITY};
	for (int k = RUNG_ULP_BINS - 1; m->has_ulp && k >= 0; k--)
		if (m->ulp_hist[k])
			return top[k];
	return NAN;
}

/* _(ID, key, worst, value, check, check_fmt, log, log_width, log_fmt, csv, brief, brief_fmt, detail, detail_fmt)
 *   key:       JSON key of the worst value (rung log --json), CSV column, store column
 *   value:     the value of one output m (a const rung_check_metric *), NaN when absent
 *   check:     its name in `[check] ok ... NAME=VALUE` (NULL: not there)
 *   log:       its title in rung log's table (NULL: not in the table or JSON)
 *   csv:       1: a column of rung log --csv, whose columns are kept as they are
 *              for the spreadsheets that read them (a metric added later: 0)
 *   brief:     its name in rung brief's line of a version (NULL: not there)
 *   detail:    its name in the workbench's detail screen, on the line of each
 *              output (NULL: not there; absent from that output: left out)
 *   *_fmt:     printf format of a finite value ("e1": 1.2e-4, the short exponent);
 *              a NaN shows as "-" (log) or "nan" (check), inf as "inf", and the
 *              unit is part of the format ("%.1fdB").
 * The order is the order shown. */
#define RUNG_METRIC_LIST(_)                                                                                          \
	_(MAX_ABS, "max_abs", RUNG_WORST_MAX, m->max_abs, "max_abs", "e1", NULL, 0, NULL, 0, NULL, NULL, "max_abs", "%.2e")                \
	_(MAX_REL, "max_rel", RUNG_WORST_MAX, m->max_rel, "max_rel", "%.2e", "MAX_REL", 8, "%.2e", 1, "max_rel", "%.2e", "max_rel", "%.2e") \
	_(RMSE, "rmse", RUNG_WORST_MAX, m->rmse, "rmse", "e1", NULL, 0, NULL, 0, NULL, NULL, "rmse", "%.2e")                             \
	_(PSNR, "psnr", RUNG_WORST_MIN, m->psnr, "psnr", "%.1fdB", "PSNR", 6, "%.1f", 1, "PSNR", "%.1f dB", "psnr", "%.1f")              \
	_(COSSIM, "cossim", RUNG_WORST_MIN, m->cossim, "cos", "%.7f", "COSINE", 9, "%.6f", 1, "cosine", "%.6f", "cos", "%.6f")          \
	_(MAX_ULP, "max_ulp", RUNG_WORST_MAX, rung_metric_max_ulp(m), "max_ulp", "<=%.0f", "MAX_ULP", 7, "<=%.0f", 0,   \
	  "max ULP", "<=%.0f", "max_ulp", "<=%.0f")

typedef enum {
#define RUNG_METRIC_ENUM(id, ...) RUNG_METRIC_##id,
	RUNG_METRIC_LIST(RUNG_METRIC_ENUM)
#undef RUNG_METRIC_ENUM
	RUNG_NMETRICS
} rung_metric_id;

typedef struct {
	const char *key;
	rung_worst_rule worst;
	double (*value)(const rung_check_metric *m);
	const char *check, *check_fmt;
	const char *log;
	int log_width;
	const char *log_fmt;
	int csv;
	const char *brief, *brief_fmt;
	const char *detail, *detail_fmt;
} rung_metric_info;

extern const rung_metric_info rung_metrics[RUNG_NMETRICS];

/* The one worst value of metric id over r's outputs (the rule above); NaN
 * when r is NULL or no output has it. rung check, rung log, rung brief and
 * the store all take it here, so they agree on one result. */
double rung_metric_worst(const rung_result *r, rung_metric_id id);

/* v formatted with fmt (a *_fmt of the table) into buf; a NaN as nan_text. Returns buf. */
const char *rung_metric_str(char *buf, size_t len, const char *fmt, double v, const char *nan_text);

#endif

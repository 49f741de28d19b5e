#include "core/stall.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/sass_prof.h"

#define PREFIX "smsp__pcsamp_warps_issue_stalled_"

void rung_stall_clear(rung_stall *s)
{
	free(s->pc);
	free(s->counts);
	memset(s, 0, sizeof(*s));
	s->ms = NAN;
}

int rung_stall_reason(rung_stall *s, const char *name)
{
	if (!strncmp(name, PREFIX, sizeof(PREFIX) - 1))
		name += sizeof(PREFIX) - 1;
	for (int i = 0; i < s->nreasons; i++)
		if (!strcmp(s->reasons[i], name))
			return i;
	if (s->nreasons >= RUNG_STALL_MAX_REASONS)
		return rung_error_set(RUNG_EINVAL, "more than %d stall reasons", RUNG_STALL_MAX_REASONS);
	if (s->n) /* rows have nreasons columns: widen them */ {
		uint64_t *c = calloc((size_t)s->n * (size_t)(s->nreasons + 1), sizeof(*c));
		if (!c)
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		for (int r = 0; r < s->n; r++)
			memcpy(c + (size_t)r * (size_t)(s->nreasons + 1), s->counts + (size_t)r * (size_t)s->nreasons,
			       (size_t)s->nreasons * sizeof(*c));
		free(s->counts);
		s->counts = c;
	}
	snprintf(s->reasons[s->nreasons], sizeof(s->reasons[0]), "%s", name);
	return s->nreasons++;
}

int rung_stall_add(rung_stall *s, int64_t pc, int ri, uint64_t count)
{
	if (ri < 0 || ri >= s->nreasons)
		return rung_error_set(RUNG_EINVAL, "stall reason %d out of range", ri);
	int row = s->n && s->pc[s->n - 1] == pc ? s->n - 1 : -1;
	if (row < 0) {
		int64_t *p = realloc(s->pc, (size_t)(s->n + 1) * sizeof(*p));
		if (!p)
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		s->pc = p;
		uint64_t *c = realloc(s->counts, (size_t)(s->n + 1) * (size_t)s->nreasons * sizeof(*c));
		if (!c)
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		s->counts = c;
		memset(c + (size_t)s->n * (size_t)s->nreasons, 0, (size_t)s->nreasons * sizeof(*c));
		s->pc[s->n] = pc;
		row = s->n++;
	}
	s->counts[(size_t)row * (size_t)s->nreasons + (size_t)ri] += count;
	return 0;
}

int rung_stall_is_not_issued(const char *reason)
{
	size_t n = strlen(reason), k = strlen("_not_issued");
	return n > k && !strcmp(reason + n - k, "_not_issued");
}

uint64_t rung_stall_row_total(const rung_stall *s, int i)
{
	uint64_t t = 0;
	for (int r = 0; r < s->nreasons; r++)
		if (!rung_stall_is_not_issued(s->reasons[r]))
			t += s->counts[(size_t)i * (size_t)s->nreasons + (size_t)r];
	return t;
}

int rung_stall_row_top(const rung_stall *s, int i)
{
	int best = -1;
	uint64_t bv = 0;
	for (int r = 0; r < s->nreasons; r++) {
		uint64_t v = s->counts[(size_t)i * (size_t)s->nreasons + (size_t)r];
		if (!rung_stall_is_not_issued(s->reasons[r]) && v > bv) {
			bv = v;
			best = r;
		}
	}
	return best;
}

typedef struct {
	int64_t pc;
	int row;
} pc_row;

static int cmp_pc_row(const void *a, const void *b)
{
	const pc_row *x = a, *y = b;
	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return x->row - y->row;
}

int rung_stall_finish(rung_stall *s)
{
	s->total = 0;
	if (s->n == 0)
		return 0;
	size_t nr = (size_t)s->nreasons;
	pc_row *o = malloc((size_t)s->n * sizeof(*o));
	int64_t *pc = malloc((size_t)s->n * sizeof(*pc));
	uint64_t *c = calloc((size_t)s->n * (nr ? nr : 1), sizeof(*c));
	if (!o || !pc || !c) {
		free(o);
		free(pc);
		free(c);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	for (int i = 0; i < s->n; i++)
		o[i] = (pc_row){s->pc[i], i};
	qsort(o, (size_t)s->n, sizeof(*o), cmp_pc_row);
	int m = 0;
	for (int i = 0; i < s->n; i++) {
		if (!m || pc[m - 1] != o[i].pc)
			pc[m++] = o[i].pc;
		for (size_t r = 0; r < nr; r++)
			c[(size_t)(m - 1) * nr + r] += s->counts[(size_t)o[i].row * nr + r];
	}
	free(o);
	free(s->pc);
	free(s->counts);
	s->pc = pc;
	s->counts = c;
	s->n = m;
	for (int i = 0; i < m; i++)
		s->total += rung_stall_row_total(s, i);
	return 0;
}

int rung_stall_find(const rung_stall *s, int64_t pc)
{
	int lo = 0, hi = s->n - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (s->pc[mid] == pc)
			return mid;
		if (s->pc[mid] < pc)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

void rung_stall_label(char *buf, size_t len, const char *reason)
{
	static const struct {
		const char *name, *label;
	} known[] = {
		{"lg_throttle", "LG throttle"},   {"mio_throttle", "MIO throttle"}, {"imc_miss", "IMC miss"},
		{"no_instructions", "no instruction"}, {"selected", "selected (issued)"},
		{"membar", "memory barrier"},
		/* ncu's source page names the same reasons shorter (stall_long_sb, ...):
		 * given rung's labels, so that both panes say one thing (#28 D-20) */
		{"long_sb", "long scoreboard"}, {"short_sb", "short scoreboard"}, {"no_inst", "no instruction"},
		{"lg", "LG throttle"}, {"mio", "MIO throttle"}, {"math", "math pipe throttle"},
		{"tex", "tex throttle"}, {"imc", "IMC miss"}, {"dispatch", "dispatch stall"},
		{"sleep", "sleeping"},
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(reason, known[i].name)) {
			snprintf(buf, len, "%s", known[i].label);
			return;
		}
	snprintf(buf, len, "%s", reason);
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = ' ';
}

int rung_stall_top(int *idx, uint64_t *sum, int max, const rung_stall *s)
{
	int64_t tot[RUNG_STALL_MAX_REASONS] = {0};
	for (int i = 0; i < s->n; i++)
		for (int r = 0; r < s->nreasons; r++)
			if (!rung_stall_is_not_issued(s->reasons[r]))
				tot[r] += (int64_t)s->counts[(size_t)i * (size_t)s->nreasons + (size_t)r];
	int n = rung_top_indices(idx, max, tot, s->nreasons);
	for (int k = 0; k < n; k++)
		sum[k] = (uint64_t)tot[idx[k]];
	return n;
}

int rung_stall_top_rows(int *rows, int max, const rung_stall *s)
{
	int64_t *tot = malloc(sizeof(*tot) * (size_t)(s->n > 0 ? s->n : 1));
	if (!tot)
		return 0;
	for (int i = 0; i < s->n; i++)
		tot[i] = (int64_t)rung_stall_row_total(s, i);
	int n = rung_top_indices(rows, max, tot, s->n);
	free(tot);
	return n;
}

int rung_stall_annotate(int64_t *samples, int *top, const rung_sass *l, int func, const rung_stall *s)
{
	int n = 0;
	for (int i = 0; i < l->nlines; i++) {
		const rung_sass_line *ln = &l->lines[i];
		samples[i] = -1;
		if (top)
			top[i] = -1;
		if (ln->kind != RUNG_SASS_INST || ln->pc < 0 || (func >= 0 && ln->func != func))
			continue;
		int row = rung_stall_find(s, ln->pc);
		if (row < 0)
			continue;
		samples[i] = (int64_t)rung_stall_row_total(s, row);
		if (top)
			top[i] = rung_stall_row_top(s, row);
		n++;
	}
	return n;
}

json_t *rung_stall_to_json(const rung_stall *s)
{
	json_t *reasons = json_array(), *recs = json_array();
	for (int r = 0; r < s->nreasons; r++)
		json_array_append_new(reasons, json_string(s->reasons[r]));
	for (int i = 0; i < s->n; i++) {
		json_t *rec = json_array();
		json_array_append_new(rec, json_integer((json_int_t)s->pc[i]));
		for (int r = 0; r < s->nreasons; r++) {
			uint64_t v = s->counts[(size_t)i * (size_t)s->nreasons + (size_t)r];
			if (!v)
				continue;
			json_array_append_new(rec, json_integer(r));
			json_array_append_new(rec, json_integer((json_int_t)v));
		}
		json_array_append_new(recs, rec);
	}
	json_t *o = json_pack("{s:s,s:i,s:I,s:I,s:o,s:o}", "function", s->func, "period", s->period, "total",
			      (json_int_t)s->total, "dropped", (json_int_t)s->dropped, "reasons", reasons, "records", recs);
	if (o && !isnan(s->ms))
		json_object_set_new(o, "ms", json_real(s->ms));
	return o;
}

int rung_stall_from_json(rung_stall *s, const json_t *j)
{
	memset(s, 0, sizeof(*s));
	s->ms = NAN;
	const json_t *reasons = json_object_get(j, "reasons"), *recs = json_object_get(j, "records");
	if (!json_is_array(reasons) || !json_is_array(recs))
		return rung_error_set(RUNG_EINVAL, "stall samples JSON: no reasons or records array");
	const char *fn = json_string_value(json_object_get(j, "function"));
	snprintf(s->func, sizeof(s->func), "%s", fn ? fn : "");
	s->period = (int)json_integer_value(json_object_get(j, "period"));
	s->dropped = (uint64_t)json_integer_value(json_object_get(j, "dropped"));
	const json_t *ms = json_object_get(j, "ms");
	if (json_is_number(ms))
		s->ms = json_number_value(ms);
	size_t i;
	const json_t *e;
	json_array_foreach(reasons, i, e) {
		if (!json_is_string(e) || json_string_length(e) == 0 || json_string_length(e) >= sizeof(s->reasons[0]) ||
		    i >= RUNG_STALL_MAX_REASONS) {
			rung_stall_clear(s);
			return rung_error_set(RUNG_EINVAL, "stall samples JSON: reason %zu is not a short name", i);
		}
		snprintf(s->reasons[i], sizeof(s->reasons[0]), "%s", json_string_value(e));
		s->nreasons = (int)i + 1;
	}
	json_array_foreach(recs, i, e) {
		size_t len = json_array_size(e);
		if (!json_is_array(e) || len < 1 || len % 2 != 1 || !json_is_integer(json_array_get(e, 0))) {
			rung_stall_clear(s);
			return rung_error_set(RUNG_EINVAL, "stall samples JSON: record %zu is not [pc, reason, count, ...]", i);
		}
		int64_t pc = json_integer_value(json_array_get(e, 0));
		/* a pc with no samples still gets its row */
		if (len == 1 && s->nreasons && rung_stall_add(s, pc, 0, 0)) {
			rung_stall_clear(s);
			return RUNG_ENOMEM;
		}
		for (size_t k = 1; k + 1 < len; k += 2) {
			const json_t *ri = json_array_get(e, k), *cv = json_array_get(e, k + 1);
			if (!json_is_integer(ri) || !json_is_integer(cv) || json_integer_value(ri) < 0 ||
			    json_integer_value(ri) >= s->nreasons || json_integer_value(cv) < 0) {
				rung_stall_clear(s);
				return rung_error_set(RUNG_EINVAL, "stall samples JSON: record %zu: bad reason or count", i);
			}
			int rc = rung_stall_add(s, pc, (int)json_integer_value(ri), (uint64_t)json_integer_value(cv));
			if (rc) {
				rung_stall_clear(s);
				return rc;
			}
		}
	}
	int rc = rung_stall_finish(s);
	if (rc)
		rung_stall_clear(s);
	return rc;
}

void rung_stall_print_bars(FILE *f, const rung_stall *s, int max, int width)
{
	int idx[RUNG_STALL_MAX_REASONS];
	uint64_t sum[RUNG_STALL_MAX_REASONS];
	if (max > RUNG_STALL_MAX_REASONS)
		max = RUNG_STALL_MAX_REASONS;
	int n = rung_stall_top(idx, sum, max, s);
	for (int k = 0; k < n; k++) {
		char label[80];
		rung_stall_label(label, sizeof(label), s->reasons[idx[k]]);
		double share = s->total ? (double)sum[k] / (double)s->total : 0;
		int w = sum[0] ? (int)((double)width * (double)sum[k] / (double)sum[0] + 0.5) : 0;
		fprintf(f, "  %-20s %5.1f%%  ", label, 100 * share);
		for (int c = 0; c < w; c++)
			fputc('#', f);
		fputc('\n', f);
	}
}

void rung_stall_print_hot(FILE *f, const rung_sass *l, int func, const rung_stall *s, int max)
{
	int64_t *samples = malloc(((size_t)l->nlines + 1) * sizeof(*samples));
	int *top = malloc(((size_t)l->nlines + 1) * sizeof(*top));
	int *idx = malloc(((size_t)max + 1) * sizeof(*idx));
	if (samples && top && idx) {
		rung_stall_annotate(samples, top, l, func, s);
		int n = rung_sass_hot(idx, max, l, samples);
		fprintf(f, "  %-8s %9s %6s  %-26s %s\n", "pc", "samples", "share", "top stall (of the line)", "instruction");
		for (int k = 0; k < n; k++) {
			const rung_sass_line *ln = &l->lines[idx[k]];
			int row = rung_stall_find(s, ln->pc);
			char label[80] = "-", why[40] = "-";
			int tr = top[idx[k]];
			if (tr >= 0 && row >= 0) {
				rung_stall_label(label, sizeof(label), s->reasons[tr]);
				snprintf(why, sizeof(why), "%.20s %.0f%%", label,
					 100.0 * (double)s->counts[(size_t)row * (size_t)s->nreasons + (size_t)tr] /
						 (double)samples[idx[k]]);
			}
			fprintf(f, "  0x%04llx %9lld %5.1f%%  %-26s %s\n", (unsigned long long)ln->pc,
				(long long)samples[idx[k]], s->total ? 100.0 * (double)samples[idx[k]] / (double)s->total : 0.0,
				why, ln->text);
		}
	}
	free(samples);
	free(top);
	free(idx);
}

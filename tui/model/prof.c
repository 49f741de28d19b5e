#include "tui/model/prof.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "vcs/prof_store.h"

int rung_model_store_extra(char **out, rung_store *st, const rung_model_row *row, const char *kind)
{
	*out = NULL;
	/* the live result's, else the recorded one's (`rung import` stores both kinds by their key) */
	const rung_result *r = row ? rung_model_row_result(row, false) : NULL;
	if (row && !r)
		r = rung_model_row_result(row, true);
	if (!st || !r || !r->key[0])
		return rung_error_set(RUNG_ENOTFOUND, "no stored %s data for %.7s", kind, row ? row->hash : "?");
	return rung_store_get_extra(out, st, r->key, kind);
}

/* The stored JSON of (hash, kind), parsed. */
static int load_json(json_t **out, rung_model *m, const char *hash, const char *kind)
{
	*out = NULL;
	if (!m->ops || !m->ops->extra)
		return rung_error_set(RUNG_ENOTFOUND, "the %s backend keeps no profile data", m->ops ? m->ops->name : "?");
	char *text = NULL;
	int e = m->ops->extra(&text, m, hash, kind);
	if (e < 0)
		return e;
	json_error_t je;
	*out = json_loads(text, 0, &je);
	free(text);
	if (!*out)
		return rung_error_set(RUNG_EINVAL, "stored %s data of %.7s: line %d: %s", kind, hash, je.line, je.text);
	return 0;
}

int rung_model_sass_counts(rung_sass_counts *out, rung_model *m, const char *hash)
{
	memset(out, 0, sizeof(*out));
	json_t *j;
	int e = load_json(&j, m, hash, "sass");
	if (e < 0)
		return e;
	e = rung_sass_counts_from_json(out, j);
	json_decref(j);
	if (e == 0)
		rung_sass_counts_sort(out);
	return e;
}

/* rung_model_<name>(out, m, hash): the stored JSON of kind parsed by
 * from_json into *out (zeroed first, so always safe to clear). */
#define MODEL_LOADER(name, type, kind, from_json) \
	int rung_model_##name(type *out, rung_model *m, const char *hash) \
	{ \
		memset(out, 0, sizeof(*out)); \
		json_t *j = NULL; \
		int e = load_json(&j, m, hash, kind); \
		if (e < 0) \
			return e; \
		e = from_json(out, j); \
		json_decref(j); \
		return e; \
	}
MODEL_LOADER(ncu_details, rung_ncu_details, "ncu_sections", rung_ncu_details_from_json)
MODEL_LOADER(ncu_source, rung_ncu_source, "ncu_source", rung_ncu_source_from_json)
MODEL_LOADER(stall, rung_stall, "stall", rung_stall_from_json)
#undef MODEL_LOADER

int rung_model_trace(rung_trace *out, rung_model *m, const char *hash)
{
	rung_trace_init(out);
	json_t *j;
	int e = load_json(&j, m, hash, "trace");
	if (e < 0)
		return e;
	e = rung_trace_from_json(out, j);
	json_decref(j);
	return e;
}

static int cmp_desc(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

int rung_sass_mark_hot(bool *hot, const int64_t *inst, int n, int top)
{
	int nv = 0, nhot = 0;
	int64_t *v = malloc(sizeof(*v) * (size_t)(n > 0 ? n : 1));
	for (int i = 0; i < n; i++) {
		hot[i] = false;
		if (v && inst[i] > 0)
			v[nv++] = inst[i];
	}
	if (!v || nv == 0 || top <= 0) {
		free(v);
		return 0;
	}
	qsort(v, (size_t)nv, sizeof(*v), cmp_desc);
	int64_t threshold = v[(top < nv ? top : nv) - 1], min = v[nv - 1];
	free(v);
	for (int i = 0; i < n; i++)
		if (inst[i] > 0 && inst[i] >= threshold && inst[i] > min) {
			hot[i] = true;
			nhot++;
		}
	return nhot;
}

void rung_fmt_count(char *buf, int len, uint64_t n)
{
	if (n < 10000000ull) {
		snprintf(buf, (size_t)len, "%llu", (unsigned long long)n);
		return;
	}
	static const char unit[] = "MGTPE";
	double x = (double)n / 1e6;
	int u = 0;
	while (x >= 999.95 && u < 4) {
		x /= 1000;
		u++;
	}
	snprintf(buf, (size_t)len, x >= 99.95 ? "%.0f%c" : x >= 9.995 ? "%.1f%c" : "%.2f%c", x, unit[u]);
}

void rung_sass_annot_clear(rung_sass_annot *a)
{
	rung_sass_clear(&a->s);
	free(a->inst);
	free(a->hot);
	free(a->samples);
	free(a->stall_top);
	free(a->stall_hot);
	rung_stall_clear(&a->stall);
	memset(a, 0, sizeof(*a));
}

/* Attaches the stored counts of hash to an already normalized listing. */
static int annot_counts(rung_sass_annot *a, rung_model *m, const char *hash)
{
	int e;
	rung_sass_counts c;
	e = rung_model_sass_counts(&c, m, hash);
	if (e < 0) {
		if (e == RUNG_ENOTFOUND)
			snprintf(a->note, sizeof(a->note), "no stored SASS counts (rung profile --sass %.7s)", hash);
		else
			snprintf(a->note, sizeof(a->note), "SASS counts: %s", rung_error_last());
		rung_sass_counts_clear(&c);
		return 0;
	}
	int n = a->s.nlines;
	a->inst = malloc(sizeof(*a->inst) * (size_t)(n > 0 ? n : 1));
	a->hot = calloc((size_t)(n > 0 ? n : 1), sizeof(*a->hot));
	if (!a->inst || !a->hot) {
		rung_sass_counts_clear(&c);
		rung_sass_annot_clear(a);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	/* the counts name their kernel; a listing without it: match by pc alone */
	int func = c.func[0] ? rung_sass_find_func(&a->s, c.func) : -1;
	a->counted = rung_sass_annotate(a->inst, &a->s, func, &c);
	rung_sass_counts_clear(&c);
	for (int i = 0; i < n; i++)
		if (a->inst[i] > 0)
			a->total += (uint64_t)a->inst[i];
	if (a->counted == 0) {
		snprintf(a->note, sizeof(a->note), "the stored SASS counts match no instruction of this listing");
		free(a->inst);
		free(a->hot);
		a->inst = NULL;
		a->hot = NULL;
		return 0;
	}
	rung_sass_mark_hot(a->hot, a->inst, n, RUNG_SASS_HOT_TOP);
	return 0;
}

/* Attaches the stored stall samples of hash (a missing or unmatched set only
 * leaves a note). */
static int annot_stalls(rung_sass_annot *a, rung_model *m, const char *hash)
{
	int e = rung_model_stall(&a->stall, m, hash);
	if (e < 0) {
		if (e == RUNG_ENOTFOUND)
			snprintf(a->stall_note, sizeof(a->stall_note), "no stored stall samples (rung profile --stalls %.7s)", hash);
		else
			snprintf(a->stall_note, sizeof(a->stall_note), "stall samples: %s", rung_error_last());
		rung_stall_clear(&a->stall);
		rung_error_clear();
		return 0;
	}
	int n = a->s.nlines > 0 ? a->s.nlines : 1;
	a->samples = malloc(sizeof(*a->samples) * (size_t)n);
	a->stall_top = malloc(sizeof(*a->stall_top) * (size_t)n);
	a->stall_hot = calloc((size_t)n, sizeof(*a->stall_hot));
	if (!a->samples || !a->stall_top || !a->stall_hot)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	int func = a->stall.func[0] ? rung_sass_find_func(&a->s, a->stall.func) : -1;
	a->sampled = rung_stall_annotate(a->samples, a->stall_top, &a->s, func, &a->stall);
	if (a->sampled == 0) {
		snprintf(a->stall_note, sizeof(a->stall_note), "the stored stall samples match no instruction of this listing");
		free(a->samples);
		free(a->stall_top);
		free(a->stall_hot);
		a->samples = NULL;
		a->stall_top = NULL;
		a->stall_hot = NULL;
		return 0;
	}
	rung_sass_mark_hot(a->stall_hot, a->samples, a->s.nlines, RUNG_SASS_HOT_TOP);
	return 0;
}

int rung_sass_annot_load(rung_sass_annot *a, rung_model *m, const char *hash, unsigned flags)
{
	memset(a, 0, sizeof(*a));
	char *raw = NULL;
	int e = rung_model_text(&raw, m, hash, RUNG_TEXT_SASS);
	if (e < 0)
		return e;
	e = rung_sass_normalize(&a->s, raw, flags);
	free(raw);
	if (e < 0)
		return e;
	if ((e = annot_counts(a, m, hash)) < 0 || (e = annot_stalls(a, m, hash)) < 0)
		rung_sass_annot_clear(a);
	return e;
}

int rung_sass_annot_load_pair(rung_sass_annot *a, rung_sass_annot *b, rung_model *m, const char *ha, const char *hb,
			      unsigned flags)
{
	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	char *ra = NULL, *rb = NULL;
	int e = rung_model_text(&ra, m, ha, RUNG_TEXT_SASS);
	if (e < 0)
		return e;
	if ((e = rung_model_text(&rb, m, hb, RUNG_TEXT_SASS)) < 0) {
		free(ra);
		return e;
	}
	e = rung_sass_normalize_pair(&a->s, &b->s, ra, rb, flags);
	free(ra);
	free(rb);
	if (e < 0)
		return e;
	if ((e = annot_counts(a, m, ha)) < 0 || (e = annot_counts(b, m, hb)) < 0 || (e = annot_stalls(a, m, ha)) < 0 ||
	    (e = annot_stalls(b, m, hb)) < 0) {
		rung_sass_annot_clear(a);
		rung_sass_annot_clear(b);
		return e;
	}
	return 0;
}

#include "core/sass_prof.h"

#include <stdlib.h>
#include <string.h>

#include "core/err.h"

void rung_sass_counts_clear(rung_sass_counts *c)
{
	free(c->pcs);
	memset(c, 0, sizeof(*c));
}

int rung_sass_counts_add(rung_sass_counts *c, int64_t pc, uint64_t inst, uint64_t thread_inst)
{
	rung_sass_pc *p = realloc(c->pcs, (size_t)(c->n + 1) * sizeof(*p));
	if (!p)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	c->pcs = p;
	c->pcs[c->n++] = (rung_sass_pc){pc, inst, thread_inst};
	return 0;
}

static int cmp_pc(const void *a, const void *b)
{
	int64_t x = ((const rung_sass_pc *)a)->pc, y = ((const rung_sass_pc *)b)->pc;
	return x < y ? -1 : x > y;
}

void rung_sass_counts_sort(rung_sass_counts *c)
{
	if (c->n < 1)
		return;
	qsort(c->pcs, (size_t)c->n, sizeof(*c->pcs), cmp_pc);
	int m = 0;
	for (int i = 0; i < c->n; i++) {
		if (m && c->pcs[m - 1].pc == c->pcs[i].pc) {
			c->pcs[m - 1].inst += c->pcs[i].inst;
			c->pcs[m - 1].thread_inst += c->pcs[i].thread_inst;
		} else {
			c->pcs[m++] = c->pcs[i];
		}
	}
	c->n = m;
}

const rung_sass_pc *rung_sass_counts_at(const rung_sass_counts *c, int64_t pc)
{
	int lo = 0, hi = c->n - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (c->pcs[mid].pc == pc)
			return &c->pcs[mid];
		if (c->pcs[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

json_t *rung_sass_counts_to_json(const rung_sass_counts *c)
{
	json_t *recs = json_array();
	for (int i = 0; i < c->n; i++)
		json_array_append_new(recs, json_pack("[I,I,I]", (json_int_t)c->pcs[i].pc, (json_int_t)c->pcs[i].inst,
						      (json_int_t)c->pcs[i].thread_inst));
	return json_pack("{s:s,s:o}", "function", c->func, "records", recs);
}

int rung_sass_counts_from_json(rung_sass_counts *c, const json_t *j)
{
	memset(c, 0, sizeof(*c));
	const json_t *recs = json_object_get(j, "records");
	if (!json_is_array(recs))
		return rung_error_set(RUNG_EINVAL, "SASS counts JSON: no records array");
	const char *fn = json_string_value(json_object_get(j, "function"));
	snprintf(c->func, sizeof(c->func), "%s", fn ? fn : "");
	size_t i;
	const json_t *e;
	json_array_foreach(recs, i, e) {
		if (!json_is_array(e) || json_array_size(e) != 3 || !json_is_integer(json_array_get(e, 0))) {
			rung_sass_counts_clear(c);
			return rung_error_set(RUNG_EINVAL, "SASS counts JSON: record %zu is not [pc,inst,thread_inst]", i);
		}
		int rc = rung_sass_counts_add(c, json_integer_value(json_array_get(e, 0)),
					      (uint64_t)json_integer_value(json_array_get(e, 1)),
					      (uint64_t)json_integer_value(json_array_get(e, 2)));
		if (rc) {
			rung_sass_counts_clear(c);
			return rc;
		}
	}
	rung_sass_counts_sort(c);
	return 0;
}

int rung_sass_annotate(int64_t *inst, const rung_sass *s, int func, const rung_sass_counts *c)
{
	int n = 0;
	for (int i = 0; i < s->nlines; i++) {
		const rung_sass_line *l = &s->lines[i];
		inst[i] = -1;
		if (l->kind != RUNG_SASS_INST || l->pc < 0 || (func >= 0 && l->func != func))
			continue;
		const rung_sass_pc *p = rung_sass_counts_at(c, l->pc);
		if (p) {
			inst[i] = (int64_t)p->inst;
			n++;
		}
	}
	return n;
}

int rung_top_indices(int *idx, int max, const int64_t *v, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++) {
		if (v[i] <= 0)
			continue;
		/* insertion into the top list (max is small) */
		int at = k < max ? k : max;
		while (at > 0 && v[idx[at - 1]] < v[i])
			at--;
		if (at >= max)
			continue;
		int end = k < max ? k : max - 1;
		memmove(&idx[at + 1], &idx[at], (size_t)(end - at) * sizeof(*idx));
		idx[at] = i;
		if (k < max)
			k++;
	}
	return k;
}

int rung_sass_hot(int *idx, int max, const rung_sass *s, const int64_t *inst)
{
	return rung_top_indices(idx, max, inst, s->nlines);
}

void rung_sass_print_hot(FILE *f, const rung_sass *s, int func, const rung_sass_counts *c, int max)
{
	int64_t *inst = malloc(((size_t)s->nlines + 1) * sizeof(*inst));
	int *idx = malloc(((size_t)max + 1) * sizeof(*idx));
	if (!inst || !idx) {
		free(inst);
		free(idx);
		return;
	}
	rung_sass_annotate(inst, s, func, c);
	uint64_t total = 0;
	for (int i = 0; i < c->n; i++)
		total += c->pcs[i].inst;
	int n = rung_sass_hot(idx, max, s, inst);
	fprintf(f, "  %-8s %12s %14s %6s  %s\n", "pc", "warp_inst", "thread_inst", "share", "instruction");
	for (int k = 0; k < n; k++) {
		const rung_sass_line *l = &s->lines[idx[k]];
		const rung_sass_pc *p = rung_sass_counts_at(c, l->pc);
		fprintf(f, "  0x%04llx %12llu %14llu %5.1f%%  %s\n", (unsigned long long)l->pc, (unsigned long long)p->inst,
			(unsigned long long)p->thread_inst, total ? 100.0 * (double)p->inst / (double)total : 0.0, l->text);
	}
	free(inst);
	free(idx);
}

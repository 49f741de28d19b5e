#include "core/trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"

void rung_trace_init(rung_trace *t)
{
	memset(t, 0, sizeof(*t));
	t->kernel_us = NAN;
}

void rung_trace_clear(rung_trace *t)
{
	free(t->recs);
	free(t->regions);
	free(t->sms);
	rung_trace_init(t);
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int rung_trace_decode(rung_trace *t, const void *raw, size_t n)
{
	free(t->recs);
	t->recs = NULL;
	t->nrec = 0;
	if (n == 0)
		return 0;
	t->recs = malloc(n * sizeof(*t->recs));
	if (!t->recs)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	const unsigned char *p = raw;
	for (size_t i = 0; i < n; i++, p += RUNG_TRACE_REC_BYTES) {
		rung_trace_rec r = {le64(p), le64(p + 8), le32(p + 16), le32(p + 20), le32(p + 24)};
		if (r.t1 < r.t0 || r.t0 == 0)
			continue; /* torn or never written */
		t->recs[t->nrec++] = r;
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static int cmp_rec(const void *a, const void *b)
{
	const rung_trace_rec *x = a, *y = b;
	if (x->smid != y->smid)
		return x->smid < y->smid ? -1 : 1;
	if (x->block != y->block)
		return x->block < y->block ? -1 : 1;
	return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

/* Nearest rank: the ceil(q * n)-th smallest (1-based). */
static uint64_t rank(const uint64_t *v, int n, double q)
{
	int k = (int)ceil(q * n);
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return v[k - 1];
}

int rung_trace_stats(rung_trace *t)
{
	free(t->regions);
	free(t->sms);
	t->regions = NULL;
	t->sms = NULL;
	t->nregions = t->nsms = 0;
	t->origin = 0;
	if (t->nrec == 0)
		return 0;
	t->origin = t->recs[0].t0;
	for (int i = 1; i < t->nrec; i++)
		if (t->recs[i].t0 < t->origin)
			t->origin = t->recs[i].t0;
	/* Sort by (smid, block, t0): SM summary in one pass. */
	rung_trace_rec *s = malloc((size_t)t->nrec * sizeof(*s));
	uint64_t *d = malloc((size_t)t->nrec * sizeof(*d));
	uint32_t *ids = malloc((size_t)t->nrec * sizeof(*ids));
	t->sms = calloc((size_t)t->nrec, sizeof(*t->sms));
	t->regions = calloc((size_t)t->nrec, sizeof(*t->regions));
	if (!s || !d || !ids || !t->sms || !t->regions) {
		free(s);
		free(d);
		free(ids);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	memcpy(s, t->recs, (size_t)t->nrec * sizeof(*s));
	qsort(s, (size_t)t->nrec, sizeof(*s), cmp_rec);
	for (int i = 0; i < t->nrec; i++) {
		rung_trace_sm *m = t->nsms ? &t->sms[t->nsms - 1] : NULL;
		if (!m || m->smid != s[i].smid) {
			m = &t->sms[t->nsms++];
			m->smid = s[i].smid;
			m->first_us = (double)(s[i].t0 - t->origin) / 1e3;
			m->last_us = (double)(s[i].t1 - t->origin) / 1e3;
		}
		if (i == 0 || s[i].smid != s[i - 1].smid || s[i].block != s[i - 1].block)
			m->blocks++;
		double a = (double)(s[i].t0 - t->origin) / 1e3, b = (double)(s[i].t1 - t->origin) / 1e3;
		if (a < m->first_us)
			m->first_us = a;
		if (b > m->last_us)
			m->last_us = b;
	}
	/* Regions: distinct ids ascending. */
	int nid = 0;
	for (int i = 0; i < t->nrec; i++)
		ids[nid++] = t->recs[i].region;
	for (int i = 0; i < nid; i++)
		d[i] = ids[i];
	qsort(d, (size_t)nid, sizeof(*d), cmp_u64);
	int nu = 0;
	for (int i = 0; i < nid; i++)
		if (nu == 0 || d[nu - 1] != d[i])
			d[nu++] = d[i];
	for (int i = 0; i < nu; i++)
		ids[i] = (uint32_t)d[i];
	for (int r = 0; r < nu; r++) {
		int n = 0;
		for (int i = 0; i < t->nrec; i++)
			if (t->recs[i].region == ids[r])
				d[n++] = t->recs[i].t1 - t->recs[i].t0;
		qsort(d, (size_t)n, sizeof(*d), cmp_u64);
		rung_trace_region *g = &t->regions[t->nregions++];
		g->region = ids[r];
		g->count = n;
		g->median_us = (double)rank(d, n, 0.5) / 1e3;
		g->p90_us = (double)rank(d, n, 0.9) / 1e3;
		g->max_us = (double)d[n - 1] / 1e3;
		g->frac = t->kernel_us > 0 ? g->median_us / t->kernel_us : NAN;
	}
	free(s);
	free(d);
	free(ids);
	return 0;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *rung_trace_to_json(const rung_trace *t)
{
	json_t *o = json_object();
	json_object_set_new(o, "kernel_us", num(t->kernel_us));
	json_object_set_new(o, "written", json_integer((json_int_t)t->written));
	json_object_set_new(o, "origin_ns", json_integer((json_int_t)t->origin));
	json_t *recs = json_array();
	for (int i = 0; i < t->nrec; i++) {
		const rung_trace_rec *r = &t->recs[i];
		json_array_append_new(recs, json_pack("[I,I,I,I,I]", (json_int_t)r->region, (json_int_t)r->block,
						      (json_int_t)r->smid, (json_int_t)(r->t0 - t->origin),
						      (json_int_t)(r->t1 - t->origin)));
	}
	json_object_set_new(o, "records", recs);
	json_t *rg = json_array();
	for (int i = 0; i < t->nregions; i++) {
		const rung_trace_region *g = &t->regions[i];
		json_t *e = json_pack("{s:I,s:i}", "region", (json_int_t)g->region, "count", g->count);
		json_object_set_new(e, "median_us", num(g->median_us));
		json_object_set_new(e, "p90_us", num(g->p90_us));
		json_object_set_new(e, "max_us", num(g->max_us));
		json_object_set_new(e, "frac", num(g->frac));
		json_array_append_new(rg, e);
	}
	json_object_set_new(o, "regions", rg);
	json_t *sm = json_array();
	for (int i = 0; i < t->nsms; i++) {
		const rung_trace_sm *m = &t->sms[i];
		json_t *e = json_pack("{s:I,s:i}", "smid", (json_int_t)m->smid, "blocks", m->blocks);
		json_object_set_new(e, "first_us", num(m->first_us));
		json_object_set_new(e, "last_us", num(m->last_us));
		json_array_append_new(sm, e);
	}
	json_object_set_new(o, "sms", sm);
	return o;
}

int rung_trace_from_json(rung_trace *t, const json_t *j)
{
	rung_trace_clear(t);
	const json_t *recs = json_object_get(j, "records");
	if (!json_is_object(j) || !json_is_array(recs))
		return rung_error_set(RUNG_EINVAL, "trace JSON: no records array");
	const json_t *ku = json_object_get(j, "kernel_us");
	t->kernel_us = json_is_number(ku) ? json_number_value(ku) : NAN;
	t->written = (uint64_t)json_integer_value(json_object_get(j, "written"));
	uint64_t origin = (uint64_t)json_integer_value(json_object_get(j, "origin_ns"));
	size_t n = json_array_size(recs);
	if (n) {
		t->recs = malloc(n * sizeof(*t->recs));
		if (!t->recs)
			return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		const json_t *e = json_array_get(recs, i);
		if (!json_is_array(e) || json_array_size(e) != 5) {
			rung_trace_clear(t);
			return rung_error_set(RUNG_EINVAL, "trace JSON: record %zu is not [region,block,smid,t0,t1]", i);
		}
		rung_trace_rec r;
		r.region = (uint32_t)json_integer_value(json_array_get(e, 0));
		r.block = (uint32_t)json_integer_value(json_array_get(e, 1));
		r.smid = (uint32_t)json_integer_value(json_array_get(e, 2));
		r.t0 = origin + (uint64_t)json_integer_value(json_array_get(e, 3));
		r.t1 = origin + (uint64_t)json_integer_value(json_array_get(e, 4));
		t->recs[t->nrec++] = r;
	}
	return rung_trace_stats(t);
}

void rung_trace_print(FILE *f, const rung_trace *t, int max_sms)
{
	if (t->nrec == 0) {
		fprintf(f, "[trace] no records (the kernel reached no RUNG_TRACE_END in thread 0 of a block)\n");
		return;
	}
	fprintf(f, "[trace] %d records", t->nrec);
	if (t->written > (uint64_t)t->nrec)
		fprintf(f, " (%llu written: the buffer was full, later records dropped)", (unsigned long long)t->written);
	if (isfinite(t->kernel_us))
		fprintf(f, ", kernel %.1f us", t->kernel_us);
	fprintf(f, "\n");
	fprintf(f, "  %-8s %8s %11s %11s %11s %7s\n", "region", "count", "median_us", "p90_us", "max_us", "kernel");
	for (int i = 0; i < t->nregions; i++) {
		const rung_trace_region *g = &t->regions[i];
		char frac[16] = "-";
		if (isfinite(g->frac))
			snprintf(frac, sizeof(frac), "%.0f%%", 100 * g->frac);
		fprintf(f, "  %-8u %8d %11.2f %11.2f %11.2f %7s\n", g->region, g->count, g->median_us, g->p90_us,
			g->max_us, frac);
	}
	int minb = 0, maxb = 0;
	double last = 0;
	for (int i = 0; i < t->nsms; i++) {
		if (i == 0 || t->sms[i].blocks < minb)
			minb = t->sms[i].blocks;
		if (t->sms[i].blocks > maxb)
			maxb = t->sms[i].blocks;
		if (t->sms[i].last_us > last)
			last = t->sms[i].last_us;
	}
	fprintf(f, "[trace] %d SMs, %d..%d blocks per SM, last end %.2f us after the first start\n", t->nsms, minb, maxb,
		last);
	fprintf(f, "  %-5s %7s %10s %10s\n", "sm", "blocks", "first_us", "last_us");
	int shown = t->nsms < max_sms || max_sms < 0 ? t->nsms : max_sms;
	for (int i = 0; i < shown; i++)
		fprintf(f, "  %-5u %7d %10.2f %10.2f\n", t->sms[i].smid, t->sms[i].blocks, t->sms[i].first_us,
			t->sms[i].last_us);
	if (shown < t->nsms)
		fprintf(f, "  ... %d more SMs (--json has them all)\n", t->nsms - shown);
}

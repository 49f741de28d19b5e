/* Result records: init/clear/status and the JSON form (docs/RESULT-JSON.md).
 * Doubles: finite -> JSON number (17 significant digits, exact round trip),
 * NAN -> null, +-infinity -> "inf" / "-inf". 64-bit seeds -> decimal strings. */
#include "core/result.h"
#include "core/metric_table.h"

#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/err.h"
#include "core/inert.h"

const char *rung_step_name(rung_step_id s)
{
	static const char *names[] = {
#define RUNG_STEP_NAME(id, name) name,
		RUNG_STEP_LIST(RUNG_STEP_NAME)
#undef RUNG_STEP_NAME
	};
	return (unsigned)s < RUNG_NSTEPS ? names[s] : "?";
}

static const char *const cause_names[] = {
#define RUNG_CAUSE_NAME(id, name) name,
	RUNG_CAUSE_LIST(RUNG_CAUSE_NAME)
#undef RUNG_CAUSE_NAME
};

const char *rung_cause_name(rung_cause c)
{
	return (unsigned)c < RUNG_NCAUSES ? cause_names[c] : "none";
}

/* Absent or unknown (a newer writer): none. */
static rung_cause cause_parse(const char *s)
{
	for (int k = 0; s && k < RUNG_NCAUSES; k++)
		if (!strcmp(s, cause_names[k]))
			return (rung_cause)k;
	return RUNG_CAUSE_NONE;
}

const char *rung_status_name(rung_status s)
{
	switch (s) {
	case RUNG_S_NONE: return "none";
	case RUNG_S_PENDING: return "pending";
	case RUNG_S_RUNNING: return "running";
	case RUNG_S_OK: return "ok";
	case RUNG_S_FAILED: return "FAILED";
	case RUNG_S_SKIPPED: return "SKIPPED";
	}
	return "?";
}

static int status_parse(const char *s, rung_status *out)
{
	for (int k = RUNG_S_NONE; k <= RUNG_S_SKIPPED; k++) {
		if (strcasecmp(s, rung_status_name((rung_status)k)) == 0) {
			*out = (rung_status)k;
			return 0;
		}
	}
	return -1;
}

static void bench_init(rung_bench *b)
{
	memset(b, 0, sizeof *b);
	b->median = b->mean = b->min = b->max = b->q1 = b->q3 = b->stddev = NAN;
	b->rse_median = b->event_median = b->record_median = b->clock_mhz = b->tflops = b->tbps = NAN;
	b->verify_ms = b->record_offset = b->record_floor = b->profiler_floor = NAN;
}

void rung_result_init(rung_result *r)
{
	memset(r, 0, sizeof *r);
	for (int s = 0; s < RUNG_NSTEPS; s++)
		r->steps[s].wall_ms = NAN;
	r->compile.compile_ms = NAN;
	r->run_ms = NAN;
	bench_init(&r->bench);
	r->env.power_limit_w = NAN;
	r->floor_ms = NAN;
	r->gpu_busy_ms = NAN;
	r->nondet_elements = -1;
	r->nondet_max_abs = NAN;
}

int rung_result_runs(const rung_result *r)
{
	if (r->nshapes < 1)
		return 0;
	int checks = r->nshapes - 1, runs = checks * r->nseeds + 1;
	for (int d = 1; d < r->ninputs; d++)
		runs += checks > 0 ? checks : 1;
	return runs;
}

void rung_result_inputs_str(char *buf, size_t len, const rung_result *r)
{
	size_t used = 0;
	buf[0] = 0;
	if (r->ninputs < 1) {
		snprintf(buf, len, "%s", rung_dist_name(RUNG_DIST_NORMAL));
		return;
	}
	for (int k = 0; k < r->ninputs && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", k ? ", " : "", rung_dist_name(r->inputs[k]));
}

void rung_result_clear(rung_result *r)
{
	free(r->compile_log);
	free(r->metrics);
	free(r->bench.samples);
	free(r->counters);
	free(r->aux);
	free(r->output);
	rung_result_init(r);
}

rung_status rung_result_status(const rung_result *r)
{
	bool any = false;
	for (int s = 0; s < RUNG_NSTEPS; s++)
		if (r->steps[s].status == RUNG_S_FAILED)
			return RUNG_S_FAILED;
	for (int s = 0; s < RUNG_NSTEPS; s++) {
		rung_status st = r->steps[s].status;
		if (st == RUNG_S_NONE)
			continue;
		if (st != RUNG_S_OK)
			return st;
		any = true;
	}
	return any ? RUNG_S_OK : RUNG_S_NONE;
}

const rung_step *rung_result_step_or_cause(const rung_result *r, rung_step_id s)
{
	if (r->steps[s].status != RUNG_S_NONE)
		return &r->steps[s];
	for (int k = 0; k < (int)s; k++)
		if (r->steps[k].status == RUNG_S_SKIPPED || r->steps[k].status == RUNG_S_FAILED)
			return &r->steps[k];
	return &r->steps[s];
}

const char *rung_result_reason(const rung_result *r)
{
	static _Thread_local char buf[600];
	for (int s = 0; s < RUNG_NSTEPS; s++) {
		if (r->steps[s].status == RUNG_S_FAILED) {
			snprintf(buf, sizeof buf, "%s: %s", rung_step_name((rung_step_id)s), r->steps[s].reason);
			return buf;
		}
	}
	return "";
}

/* ---- JSON helpers --------------------------------------------------------- */

static json_t *jd(double v)
{
	if (isnan(v))
		return json_null();
	if (isinf(v))
		return json_string(v > 0 ? "inf" : "-inf");
	return json_real(v);
}

static double gd_val(const json_t *v, double dflt)
{
	if (!v)
		return dflt;
	if (json_is_null(v))
		return NAN;
	if (json_is_number(v))
		return json_number_value(v);
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		if (strcmp(s, "inf") == 0)
			return INFINITY;
		if (strcmp(s, "-inf") == 0)
			return -INFINITY;
		if (strcmp(s, "nan") == 0)
			return NAN;
	}
	return dflt;
}

static void pd(json_t *o, const char *k, double v) { json_object_set_new(o, k, jd(v)); }
static void pi(json_t *o, const char *k, int64_t v) { json_object_set_new(o, k, json_integer((json_int_t)v)); }
static void pb(json_t *o, const char *k, bool v) { json_object_set_new(o, k, json_boolean(v)); }
static void ps(json_t *o, const char *k, const char *v) { json_object_set_new(o, k, v ? json_string(v) : json_null()); }
static void pu64(json_t *o, const char *k, uint64_t v)
{
	char b[24];
	snprintf(b, sizeof b, "%" PRIu64, v);
	json_object_set_new(o, k, json_string(b));
}

static void gd(const json_t *o, const char *k, double *out) { *out = gd_val(json_object_get(o, k), *out); }
static void gi64(const json_t *o, const char *k, int64_t *out)
{
	json_t *v = json_object_get(o, k);
	if (json_is_integer(v))
		*out = (int64_t)json_integer_value(v);
}
static void gint(const json_t *o, const char *k, int *out)
{
	json_t *v = json_object_get(o, k);
	if (json_is_integer(v))
		*out = (int)json_integer_value(v);
}
static void gb(const json_t *o, const char *k, bool *out)
{
	json_t *v = json_object_get(o, k);
	if (json_is_boolean(v))
		*out = json_is_true(v);
}
static void gs(const json_t *o, const char *k, char *buf, size_t len)
{
	json_t *v = json_object_get(o, k);
	if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
}
static void gu64(const json_t *o, const char *k, uint64_t *out)
{
	json_t *v = json_object_get(o, k);
	if (json_is_string(v))
		*out = strtoull(json_string_value(v), NULL, 10);
	else if (json_is_integer(v))
		*out = (uint64_t)json_integer_value(v);
}

static json_t *dims_to(const rung_dimset *ds)
{
	json_t *o = json_object();
	for (int k = 0; k < ds->n; k++)
		json_object_set_new(o, ds->d[k].name, json_integer((json_int_t)ds->d[k].value));
	return o;
}

static void dims_from(rung_dimset *ds, const json_t *o)
{
	const char *key;
	json_t *v;
	if (!json_is_object(o))
		return;
	ds->n = 0;
	json_object_foreach((json_t *)o, key, v) {
		if (ds->n >= RUNG_MAX_DIMS || !json_is_integer(v))
			continue;
		snprintf(ds->d[ds->n].name, sizeof ds->d[ds->n].name, "%s", key);
		ds->d[ds->n].value = (int64_t)json_integer_value(v);
		ds->n++;
	}
}

static json_t *kinfo_to(const rung_kinfo *k)
{
	json_t *o = json_object();
	pb(o, "valid", k->valid);
	ps(o, "name", k->name);
	pi(o, "regs", k->regs);
	pi(o, "barriers", k->barriers);
	pi(o, "stack", k->stack);
	pi(o, "smem", k->smem);
	pi(o, "cmem", k->cmem);
	pi(o, "spill_stores", k->spill_stores);
	pi(o, "spill_loads", k->spill_loads);
	pi(o, "stack_frame", k->stack_frame);
	return o;
}

static void kinfo_from(rung_kinfo *k, const json_t *o)
{
	if (!json_is_object(o))
		return;
	gb(o, "valid", &k->valid);
	gs(o, "name", k->name, sizeof k->name);
	gint(o, "regs", &k->regs);
	gint(o, "barriers", &k->barriers);
	gi64(o, "stack", &k->stack);
	gi64(o, "smem", &k->smem);
	gi64(o, "cmem", &k->cmem);
	gi64(o, "spill_stores", &k->spill_stores);
	gi64(o, "spill_loads", &k->spill_loads);
	gi64(o, "stack_frame", &k->stack_frame);
}

/* A distribution's name into *out; false (out untouched) when j is not one. */
static bool dist_from(rung_dist *out, const json_t *j)
{
	for (int d = 0; json_is_string(j) && d < RUNG_NDISTS; d++) {
		if (strcmp(json_string_value(j), rung_dist_name((rung_dist)d)) == 0) {
			*out = (rung_dist)d;
			return true;
		}
	}
	return false;
}

static json_t *metric_to(const rung_check_metric *m)
{
	json_t *o = json_object();
	ps(o, "output", m->output);
	json_object_set_new(o, "dims", dims_to(&m->dims));
	pu64(o, "seed", m->seed);
	if (m->inputs != RUNG_DIST_NORMAL) /* absent: normal (rows of results without [check] inputs are unchanged) */
		ps(o, "inputs", rung_dist_name(m->inputs));
	pi(o, "n", m->n);
	pd(o, "max_abs", m->max_abs);
	pd(o, "max_rel", m->max_rel);
	pd(o, "mae", m->mae);
	pd(o, "mse", m->mse);
	pd(o, "rmse", m->rmse);
	pd(o, "psnr", m->psnr);
	pd(o, "cossim", m->cossim);
	pd(o, "peak", m->peak);
	pi(o, "nan_count", m->nan_count);
	pi(o, "inf_count", m->inf_count);
	pi(o, "mismatches", m->mismatches);
	pi(o, "unwritten", m->unwritten);
	pi(o, "bad_rank", m->bad_rank);
	json_t *bad = json_array();
	for (int k = 0; k < m->nbad && k < RUNG_MAX_BAD; k++) {
		json_t *b = json_object();
		pi(b, "index", m->bad_index[k]);
		json_t *c = json_array();
		for (int d = 0; d < m->bad_rank && d < RUNG_MAX_RANK; d++)
			json_array_append_new(c, json_integer((json_int_t)m->bad_coord[k][d]));
		json_object_set_new(b, "coord", c);
		pd(b, "got", m->bad_got[k]);
		pd(b, "expected", m->bad_expected[k]);
		json_array_append_new(bad, b);
	}
	json_object_set_new(o, "bad", bad);
	if (m->has_ulp) {
		json_t *h = json_array();
		for (int k = 0; k < RUNG_ULP_BINS; k++)
			json_array_append_new(h, json_integer((json_int_t)m->ulp_hist[k]));
		json_object_set_new(o, "ulp_hist", h);
	} else {
		json_object_set_new(o, "ulp_hist", json_null());
	}
	pb(o, "pass", m->pass);
	ps(o, "reason", m->reason);
	if (m->map.g.rows > 0) {
		char lv[RUNG_MAP_TEXT_MAX];
		rung_err_map_encode(lv, sizeof lv, &m->map);
		json_object_set_new(o, "map", json_pack("{s:i,s:i,s:I,s:I,s:[I,I],s:s}", "rows", m->map.g.rows, "cols",
							m->map.g.cols, "h", (json_int_t)m->map.g.h, "w", (json_int_t)m->map.g.w,
							"tile", (json_int_t)m->map.g.th, (json_int_t)m->map.g.tw, "levels", lv));
	}
	return o;
}

/* The map of a metric row; absent (a result from before it) or malformed: none. */
static void map_from(rung_err_map *m, const json_t *o)
{
	memset(m, 0, sizeof *m);
	json_t *tile = json_object_get(o, "tile");
	if (!json_is_object(o) || !json_is_array(tile) || json_array_size(tile) != 2)
		return;
	const json_t *v[6] = {json_object_get(o, "rows"), json_object_get(o, "cols"), json_object_get(o, "h"),
			      json_object_get(o, "w"), json_array_get(tile, 0), json_array_get(tile, 1)};
	for (int k = 0; k < 6; k++)
		if (!json_is_integer(v[k]) || json_integer_value(v[k]) <= 0 || json_integer_value(v[k]) > INT64_MAX / 2)
			return;
	if (json_integer_value(v[0]) > RUNG_MAP_SIDE || json_integer_value(v[1]) > RUNG_MAP_SIDE)
		return;
	rung_err_map_geom g = {(int)json_integer_value(v[0]), (int)json_integer_value(v[1]), json_integer_value(v[2]),
			       json_integer_value(v[3]), json_integer_value(v[4]), json_integer_value(v[5])};
	rung_error_state st; /* a bad map is dropped, not an error of the record */
	rung_error_save(&st);
	if (rung_err_map_decode(m, &g, json_string_value(json_object_get(o, "levels"))) < 0)
		memset(m, 0, sizeof *m);
	rung_error_restore(&st);
}

static void metric_from(rung_check_metric *m, const json_t *o)
{
	memset(m, 0, sizeof *m);
	m->max_abs = m->max_rel = m->mae = m->mse = m->rmse = m->psnr = m->cossim = m->peak = NAN;
	if (!json_is_object(o))
		return;
	gs(o, "output", m->output, sizeof m->output);
	dims_from(&m->dims, json_object_get(o, "dims"));
	gu64(o, "seed", &m->seed);
	dist_from(&m->inputs, json_object_get(o, "inputs")); /* absent or unknown: normal */
	gi64(o, "n", &m->n);
	gd(o, "max_abs", &m->max_abs);
	gd(o, "max_rel", &m->max_rel);
	gd(o, "mae", &m->mae);
	gd(o, "mse", &m->mse);
	gd(o, "rmse", &m->rmse);
	gd(o, "psnr", &m->psnr);
	gd(o, "cossim", &m->cossim);
	gd(o, "peak", &m->peak);
	gi64(o, "nan_count", &m->nan_count);
	gi64(o, "inf_count", &m->inf_count);
	gi64(o, "mismatches", &m->mismatches);
	gi64(o, "unwritten", &m->unwritten);
	gint(o, "bad_rank", &m->bad_rank);
	if (m->bad_rank < 0 || m->bad_rank > RUNG_MAX_RANK)
		m->bad_rank = 0;
	json_t *bad = json_object_get(o, "bad");
	size_t i;
	json_t *b;
	json_array_foreach(bad, i, b) {
		if (m->nbad >= RUNG_MAX_BAD)
			break;
		int k = m->nbad++;
		m->bad_got[k] = m->bad_expected[k] = NAN;
		gi64(b, "index", &m->bad_index[k]);
		json_t *c = json_object_get(b, "coord");
		for (int d = 0; d < m->bad_rank && d < (int)json_array_size(c); d++)
			m->bad_coord[k][d] = (int64_t)json_integer_value(json_array_get(c, (size_t)d));
		gd(b, "got", &m->bad_got[k]);
		gd(b, "expected", &m->bad_expected[k]);
	}
	json_t *h = json_object_get(o, "ulp_hist");
	if (json_is_array(h)) {
		m->has_ulp = true;
		for (int k = 0; k < RUNG_ULP_BINS && k < (int)json_array_size(h); k++)
			m->ulp_hist[k] = (uint64_t)json_integer_value(json_array_get(h, (size_t)k));
	}
	gb(o, "pass", &m->pass);
	gs(o, "reason", m->reason, sizeof m->reason);
	map_from(&m->map, json_object_get(o, "map"));
}

static json_t *bench_to(const rung_bench *b)
{
	json_t *o = json_object();
	pb(o, "valid", b->valid);
	pd(o, "median", b->median);
	pd(o, "mean", b->mean);
	pd(o, "min", b->min);
	pd(o, "max", b->max);
	pd(o, "q1", b->q1);
	pd(o, "q3", b->q3);
	pd(o, "stddev", b->stddev);
	pd(o, "rse_median", b->rse_median);
	pb(o, "noise_ok", b->noise_ok);
	pi(o, "n", b->n);
	pi(o, "dropped", b->dropped);
	json_t *s = json_array();
	for (int k = 0; b->samples && k < b->n; k++)
		json_array_append_new(s, jd(b->samples[k]));
	json_object_set_new(o, "samples", s);
	pd(o, "event_median", b->event_median);
	if (!isnan(b->record_median))
		pd(o, "record_median", b->record_median);
	if (!isnan(b->record_offset) || b->calibration[0]) {
		pd(o, "record_offset", b->record_offset);
		pd(o, "record_floor", b->record_floor);
		pd(o, "profiler_floor", b->profiler_floor);
		ps(o, "calibration", b->calibration);
	}
	pd(o, "clock_mhz", b->clock_mhz);
	pd(o, "tflops", b->tflops);
	pd(o, "tbps", b->tbps);
	ps(o, "method", b->method);
	pi(o, "verified", b->verified);
	pi(o, "sets", b->sets);
	pd(o, "verify_ms", b->verify_ms);
	json_object_set_new(o, "shared", rung_gpu_procs_to_json(&b->shared));
	return o;
}

static int bench_from(rung_bench *b, const json_t *o)
{
	if (!json_is_object(o))
		return 0;
	gb(o, "valid", &b->valid);
	gd(o, "median", &b->median);
	gd(o, "mean", &b->mean);
	gd(o, "min", &b->min);
	gd(o, "max", &b->max);
	gd(o, "q1", &b->q1);
	gd(o, "q3", &b->q3);
	gd(o, "stddev", &b->stddev);
	gd(o, "rse_median", &b->rse_median);
	gb(o, "noise_ok", &b->noise_ok);
	gint(o, "dropped", &b->dropped);
	json_t *s = json_object_get(o, "samples");
	size_t ns = json_array_size(s);
	b->n = 0;
	if (ns > 0) {
		b->samples = malloc(sizeof *b->samples * ns);
		if (!b->samples)
			return rung_error_set(RUNG_ENOMEM, "result JSON: out of memory");
		for (size_t k = 0; k < ns; k++)
			b->samples[k] = gd_val(json_array_get(s, k), NAN);
		b->n = (int)ns;
	}
	gd(o, "event_median", &b->event_median);
	gd(o, "record_median", &b->record_median);
	gd(o, "record_offset", &b->record_offset);
	gd(o, "record_floor", &b->record_floor);
	gd(o, "profiler_floor", &b->profiler_floor);
	gs(o, "calibration", b->calibration, sizeof b->calibration);
	gd(o, "clock_mhz", &b->clock_mhz);
	gd(o, "tflops", &b->tflops);
	gd(o, "tbps", &b->tbps);
	gs(o, "method", b->method, sizeof b->method);
	gint(o, "verified", &b->verified);
	gint(o, "sets", &b->sets);
	gd(o, "verify_ms", &b->verify_ms);
	rung_gpu_procs_from_json(&b->shared, json_object_get(o, "shared"));
	return 0;
}

void rung_gpu_procs_add(rung_gpu_procs *s, int pid, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (s->p[i].pid == pid)
			return;
	if (s->n >= RUNG_MAX_GPU_PROCS) {
		if (s->more < 1000000)
			s->more++;
		return;
	}
	rung_gpu_proc *p = &s->p[s->n++];
	p->pid = pid;
	size_t k = 0;
	for (const char *c = name ? name : ""; *c && k + 1 < sizeof(p->name); c++)
		p->name[k++] = *c >= 0x20 && *c < 0x7f ? *c : '?';
	p->name[k] = 0;
}

bool rung_gpu_procs_any(const rung_gpu_procs *s)
{
	return s && (s->n > 0 || s->more > 0);
}

void rung_gpu_procs_str(char *buf, size_t len, const rung_gpu_procs *s)
{
	if (!len)
		return;
	buf[0] = 0;
	if (!rung_gpu_procs_any(s))
		return;
	size_t o = (size_t)snprintf(buf, len, "shared GPU:");
	for (int i = 0; i < s->n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s pid %d %s", i ? "," : "", s->p[i].pid,
				      s->p[i].name[0] ? s->p[i].name : "?");
	if (s->more > 0 && o < len)
		snprintf(buf + o, len - o, " (+%d more)", s->more);
}

bool rung_bench_shared(const rung_bench *b)
{
	return b && rung_gpu_procs_any(&b->shared);
}

json_t *rung_gpu_procs_to_json(const rung_gpu_procs *s)
{
	json_t *a = json_array();
	for (int k = 0; k < s->n; k++)
		json_array_append_new(a, json_pack("{s:i,s:s}", "pid", s->p[k].pid, "name", s->p[k].name));
	return json_pack("{s:b,s:o,s:i}", "read", s->read, "procs", a, "more", s->more);
}

void rung_gpu_procs_from_json(rung_gpu_procs *s, const json_t *o)
{
	memset(s, 0, sizeof(*s));
	if (!json_is_object(o))
		return;
	s->read = json_is_true(json_object_get(o, "read"));
	const json_t *a = json_object_get(o, "procs");
	for (size_t k = 0; k < json_array_size(a); k++) {
		const json_t *e = json_array_get(a, k);
		const json_t *pid = json_object_get(e, "pid");
		if (!json_is_integer(pid) || json_integer_value(pid) <= 0 || json_integer_value(pid) > INT32_MAX)
			continue;
		rung_gpu_procs_add(s, (int)json_integer_value(pid), json_string_value(json_object_get(e, "name")));
	}
	const json_t *m = json_object_get(o, "more");
	if (json_is_integer(m) && json_integer_value(m) > 0)
		s->more += json_integer_value(m) > 1000000 ? 1000000 : (int)json_integer_value(m);
}

static json_t *env_to(const rung_env *e)
{
	json_t *o = json_object();
	pb(o, "valid", e->valid);
	ps(o, "gpu", e->gpu);
	ps(o, "uuid", e->uuid);
	ps(o, "driver", e->driver);
	ps(o, "cuda", e->cuda);
	ps(o, "arch", e->arch);
	pi(o, "sms", e->sms);
	pi(o, "sm_clock_mhz", e->sm_clock_mhz);
	pi(o, "mem_clock_mhz", e->mem_clock_mhz);
	pi(o, "bus_width", e->bus_width);
	pi(o, "l2_bytes", e->l2_bytes);
	pi(o, "persisting_l2_limit", e->persisting_l2_limit);
	pd(o, "power_limit_w", e->power_limit_w);
	ps(o, "host", e->host);
	return o;
}

static void env_from(rung_env *e, const json_t *o)
{
	if (!json_is_object(o))
		return;
	gb(o, "valid", &e->valid);
	gs(o, "gpu", e->gpu, sizeof e->gpu);
	gs(o, "uuid", e->uuid, sizeof e->uuid);
	gs(o, "driver", e->driver, sizeof e->driver);
	gs(o, "cuda", e->cuda, sizeof e->cuda);
	gs(o, "arch", e->arch, sizeof e->arch);
	gint(o, "sms", &e->sms);
	gint(o, "sm_clock_mhz", &e->sm_clock_mhz);
	gint(o, "mem_clock_mhz", &e->mem_clock_mhz);
	gint(o, "bus_width", &e->bus_width);
	gi64(o, "l2_bytes", &e->l2_bytes);
	gi64(o, "persisting_l2_limit", &e->persisting_l2_limit);
	gd(o, "power_limit_w", &e->power_limit_w);
	gs(o, "host", e->host, sizeof e->host);
}

static const char *const suspect_names[] = {
#define RUNG_SUSPECT_NAME(id, name) name,
	RUNG_SUSPECT_LIST(RUNG_SUSPECT_NAME)
#undef RUNG_SUSPECT_NAME
};

const char *rung_suspect_name(rung_suspect_kind k)
{
	return k >= 0 && k < RUNG_NSUSPECT_KINDS ? suspect_names[k] : "?";
}

int rung_suspect_parse(rung_suspect_kind *out, const char *name)
{
	for (int k = 0; k < RUNG_NSUSPECT_KINDS; k++) {
		if (name && strcmp(name, suspect_names[k]) == 0) {
			*out = (rung_suspect_kind)k;
			return 0;
		}
	}
	return RUNG_EINVAL;
}

void rung_result_add_suspect(rung_result *r, rung_suspect_kind k, const char *fmt, ...)
{
	if (rung_result_suspect(r, k) || r->nsuspects >= RUNG_MAX_SUSPECTS)
		return;
	rung_suspect *s = &r->suspects[r->nsuspects++];
	s->kind = k;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->reason, sizeof s->reason, fmt, ap);
	va_end(ap);
}

const rung_suspect *rung_result_suspect(const rung_result *r, rung_suspect_kind k)
{
	for (int i = 0; i < r->nsuspects; i++)
		if (r->suspects[i].kind == k)
			return &r->suspects[i];
	return NULL;
}

void rung_result_drop_suspect(rung_result *r, rung_suspect_kind k)
{
	int o = 0;
	for (int i = 0; i < r->nsuspects; i++)
		if (r->suspects[i].kind != k)
			r->suspects[o++] = r->suspects[i];
	r->nsuspects = o;
}

void rung_result_sync_impossible(rung_result *r)
{
	if (!r->impossible) {
		rung_result_drop_suspect(r, RUNG_SUSPECT_IMPOSSIBLE);
		return;
	}
	if (rung_result_suspect(r, RUNG_SUSPECT_IMPOSSIBLE))
		return;
	if (r->bench.valid && r->bench.median > 0 && r->floor_ms > 0)
		rung_result_add_suspect(r, RUNG_SUSPECT_IMPOSSIBLE,
					"median %.4gms is below the speed-of-light floor %.4gms (%.0f%% of it): the timing "
					"is wrong or the kernel skips work that [roofline] says it must do",
					r->bench.median, r->floor_ms, 100 * r->bench.median / r->floor_ms);
	else
		rung_result_add_suspect(r, RUNG_SUSPECT_IMPOSSIBLE, "faster than the speed-of-light floor");
}

char *rung_result_to_json(const rung_result *r)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	pi(o, "format", 1);
	ps(o, "key", r->key);
	ps(o, "rev", r->rev);
	ps(o, "label", r->label);
	pu64(o, "base_seed", r->base_seed);
	pi(o, "created", r->created);
	pb(o, "cached", r->cached);
	pb(o, "recorded", r->recorded);
	ps(o, "recorded_note", r->recorded_note);
	if (r->noop_of[0])
		ps(o, "noop_of", r->noop_of);
	if (r->worker[0])
		ps(o, "worker", r->worker);
	ps(o, "status", rung_status_name(rung_result_status(r)));

	json_t *steps = json_object();
	for (int s = 0; s < RUNG_NSTEPS; s++) {
		json_t *st = json_object();
		ps(st, "status", rung_status_name(r->steps[s].status));
		ps(st, "reason", r->steps[s].reason);
		pd(st, "wall_ms", r->steps[s].wall_ms);
		if (r->steps[s].cause != RUNG_CAUSE_NONE) /* absent: none (records stay as they were) */
			ps(st, "cause", rung_cause_name(r->steps[s].cause));
		json_object_set_new(steps, rung_step_name((rung_step_id)s), st);
	}
	json_object_set_new(o, "steps", steps);

	json_t *c = json_object();
	json_object_set_new(c, "kernel", kinfo_to(&r->compile.kernel));
	json_object_set_new(c, "reference", kinfo_to(&r->compile.reference));
	pi(c, "ptx_bytes", r->compile.ptx_bytes);
	pi(c, "cubin_bytes", r->compile.cubin_bytes);
	pd(c, "compile_ms", r->compile.compile_ms);
	if (r->compile.cached)
		pb(c, "cubin_cached", true);
	ps(c, "arch", r->compile.arch);
	ps(c, "lowered_name", r->compile.lowered_name);
	json_object_set_new(o, "compile", c);
	ps(o, "compile_log", r->compile_log);

	json_object_set_new(o, "run_dims", dims_to(&r->run_dims));
	pd(o, "run_ms", r->run_ms);
	pi(o, "nondet_elements", r->nondet_elements);
	pd(o, "nondet_max_abs", r->nondet_max_abs);
	pb(o, "run_finite", r->run_finite);

	json_t *ms = json_array();
	for (int k = 0; r->metrics && k < r->nmetrics; k++)
		json_array_append_new(ms, metric_to(&r->metrics[k]));
	json_object_set_new(o, "metrics", ms);
	pi(o, "nshapes", r->nshapes);
	pi(o, "nseeds", r->nseeds);
	if (r->ninputs > 1) {
		json_t *in = json_array();
		for (int k = 0; k < r->ninputs && k < RUNG_NDISTS; k++)
			json_array_append_new(in, json_string(rung_dist_name(r->inputs[k])));
		json_object_set_new(o, "inputs", in);
	}

	json_object_set_new(o, "bench", bench_to(&r->bench));
	json_object_set_new(o, "env", env_to(&r->env));
	pb(o, "impossible", r->impossible);
	pd(o, "floor_ms", r->floor_ms);
	if (r->gpu_kernels > 0) {
		pd(o, "gpu_busy_ms", r->gpu_busy_ms);
		pi(o, "gpu_kernels", r->gpu_kernels);
	}
	json_t *sus = json_array();
	for (int k = 0; k < r->nsuspects; k++) {
		json_t *e = json_object();
		ps(e, "kind", rung_suspect_name(r->suspects[k].kind));
		ps(e, "reason", r->suspects[k].reason);
		json_array_append_new(sus, e);
	}
	json_object_set_new(o, "suspects", sus);
	if (r->sanitize_tools) { /* the sanitize rung ran (docs/RESULT-JSON.md) */
		json_t *tools = json_array();
		for (int t = 0; t < RUNG_NSAN_TOOLS; t++)
			if (r->sanitize_tools & RUNG_SAN_BIT(t))
				json_array_append_new(tools, json_string(rung_san_tool_name((rung_san_tool)t)));
		json_object_set_new(o, "sanitize_tools", tools);
		json_t *fs = json_array();
		for (int k = 0; k < r->nsanitize && k < RUNG_SAN_MAX_FINDINGS; k++) {
			const rung_san_finding *f = &r->sanitize[k];
			json_t *e = json_object();
			ps(e, "tool", rung_san_tool_name(f->tool));
			ps(e, "kind", rung_san_kind_name(f->kind));
			ps(e, "where", rung_san_where_name(f->where));
			ps(e, "kernel", f->kernel);
			ps(e, "file", f->file);
			pi(e, "line", f->line);
			pi(e, "count", f->count);
			ps(e, "message", f->message);
			json_array_append_new(fs, e);
		}
		json_object_set_new(o, "sanitize", fs);
		/* what each tool cost and whether it reached the benchmark shape */
		json_t *cost = json_object();
		json_t *per = json_array();
		for (int t = 0; t < RUNG_NSAN_TOOLS; t++) {
			if (!(r->sanitize_tools & RUNG_SAN_BIT(t)))
				continue;
			json_t *e = json_object();
			ps(e, "tool", rung_san_tool_name((rung_san_tool)t));
			pd(e, "check_ms", r->sanitize_ms[t] > 0 ? r->sanitize_ms[t] : NAN);
			pd(e, "bench_ms", r->sanitize_bench_ms[t] > 0 ? r->sanitize_bench_ms[t] : NAN);
			ps(e, "bench", rung_san_bench_name(r->sanitize_bench[t]));
			json_array_append_new(per, e);
		}
		pd(cost, "bench_limit_s", r->sanitize_bench_limit_s > 0 ? r->sanitize_bench_limit_s : NAN);
		json_object_set_new(cost, "tools", per);
		json_object_set_new(o, "sanitize_cost", cost);
	}

	json_t *cs = json_array();
	for (int k = 0; r->counters && k < r->ncounters; k++) {
		json_t *e = json_object();
		ps(e, "name", r->counters[k].name);
		pd(e, "value", r->counters[k].value);
		json_array_append_new(cs, e);
	}
	json_object_set_new(o, "counters", cs);
	if (r->aux) { /* profile side data (transport only) */
		json_t *aux = json_loads(r->aux, 0, NULL);
		if (aux)
			json_object_set_new(o, "aux", aux);
	}

	if (r->output || r->output_bytes) { /* kernel output: only when it printed */
		json_t *out = json_object();
		/* valid UTF-8 whatever the field holds: jansson drops a string that is not */
		char *text = rung_inert_utf8(r->output ? r->output : "", r->output ? strlen(r->output) : 0);
		ps(out, "text", text ? text : "");
		free(text);
		pi(out, "bytes", r->output_bytes);
		pi(out, "dropped", r->output_dropped);
		json_object_set_new(o, "output", out);
	}

	char *s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
	json_decref(o);
	return s;
}

int rung_result_from_json(rung_result *out, const char *text)
{
	json_error_t jerr;
	rung_result_init(out);
	json_t *o = json_loads(text ? text : "", 0, &jerr);
	if (!o)
		return rung_error_set(RUNG_EINVAL, "result JSON:%d:%d: %s", jerr.line, jerr.column, jerr.text);
	if (!json_is_object(o)) {
		json_decref(o);
		return rung_error_set(RUNG_EINVAL, "result JSON: not an object");
	}
	int rc = 0;
	gs(o, "key", out->key, sizeof out->key);
	gs(o, "rev", out->rev, sizeof out->rev);
	gs(o, "label", out->label, sizeof out->label);
	gu64(o, "base_seed", &out->base_seed);
	gi64(o, "created", &out->created);
	gb(o, "cached", &out->cached);
	gb(o, "recorded", &out->recorded);
	gs(o, "recorded_note", out->recorded_note, sizeof out->recorded_note);
	gs(o, "noop_of", out->noop_of, sizeof out->noop_of);
	gs(o, "worker", out->worker, sizeof out->worker);

	json_t *steps = json_object_get(o, "steps");
	for (int s = 0; s < RUNG_NSTEPS; s++) {
		json_t *st = json_object_get(steps, rung_step_name((rung_step_id)s));
		if (!json_is_object(st))
			continue;
		json_t *sv = json_object_get(st, "status");
		if (json_is_string(sv) && status_parse(json_string_value(sv), &out->steps[s].status) < 0) {
			rc = rung_error_set(RUNG_EINVAL, "result JSON: step %s: unknown status '%s'",
					    rung_step_name((rung_step_id)s), json_string_value(sv));
			goto done;
		}
		gs(st, "reason", out->steps[s].reason, sizeof out->steps[s].reason);
		gd(st, "wall_ms", &out->steps[s].wall_ms);
		out->steps[s].cause = cause_parse(json_string_value(json_object_get(st, "cause")));
	}

	json_t *c = json_object_get(o, "compile");
	if (json_is_object(c)) {
		kinfo_from(&out->compile.kernel, json_object_get(c, "kernel"));
		kinfo_from(&out->compile.reference, json_object_get(c, "reference"));
		gi64(c, "ptx_bytes", &out->compile.ptx_bytes);
		gi64(c, "cubin_bytes", &out->compile.cubin_bytes);
		gd(c, "compile_ms", &out->compile.compile_ms);
		gb(c, "cubin_cached", &out->compile.cached);
		gs(c, "arch", out->compile.arch, sizeof out->compile.arch);
		gs(c, "lowered_name", out->compile.lowered_name, sizeof out->compile.lowered_name);
	}
	json_t *log = json_object_get(o, "compile_log");
	if (json_is_string(log)) {
		out->compile_log = strdup(json_string_value(log));
		if (!out->compile_log) {
			rc = rung_error_set(RUNG_ENOMEM, "result JSON: out of memory");
			goto done;
		}
	}

	dims_from(&out->run_dims, json_object_get(o, "run_dims"));
	gd(o, "run_ms", &out->run_ms);
	gi64(o, "nondet_elements", &out->nondet_elements);
	gd(o, "nondet_max_abs", &out->nondet_max_abs);
	gb(o, "run_finite", &out->run_finite);

	json_t *ms = json_object_get(o, "metrics");
	size_t nm = json_array_size(ms);
	if (nm > 0) {
		out->metrics = calloc(nm, sizeof *out->metrics);
		if (!out->metrics) {
			rc = rung_error_set(RUNG_ENOMEM, "result JSON: out of memory");
			goto done;
		}
		for (size_t k = 0; k < nm; k++)
			metric_from(&out->metrics[k], json_array_get(ms, k));
		out->nmetrics = (int)nm;
	}
	gint(o, "nshapes", &out->nshapes);
	gint(o, "nseeds", &out->nseeds);
	const json_t *ins = json_object_get(o, "inputs");
	for (size_t k = 0; json_is_array(ins) && k < json_array_size(ins) && out->ninputs < RUNG_NDISTS; k++) {
		rung_dist d = RUNG_NDISTS;
		if (dist_from(&d, json_array_get(ins, k)))
			out->inputs[out->ninputs++] = d;
	}

	rc = bench_from(&out->bench, json_object_get(o, "bench"));
	if (rc < 0)
		goto done;
	env_from(&out->env, json_object_get(o, "env"));
	gb(o, "impossible", &out->impossible);
	gd(o, "floor_ms", &out->floor_ms);
	gd(o, "gpu_busy_ms", &out->gpu_busy_ms);
	gi64(o, "gpu_kernels", &out->gpu_kernels);
	json_t *sus = json_object_get(o, "suspects");
	for (size_t k = 0; k < json_array_size(sus); k++) {
		json_t *e = json_array_get(sus, k);
		json_t *kv = json_object_get(e, "kind");
		rung_suspect_kind kind;
		if (!json_is_string(kv) || rung_suspect_parse(&kind, json_string_value(kv)) < 0)
			continue; /* a kind from a newer rung: not ours to show */
		char why[256] = "";
		gs(e, "reason", why, sizeof why);
		rung_result_add_suspect(out, kind, "%s", why);
	}
	if (out->impossible) /* a record of an older rung: the flag without its suspect */
		rung_result_sync_impossible(out);
	json_t *tools = json_object_get(o, "sanitize_tools");
	for (size_t k = 0; k < json_array_size(tools); k++) {
		rung_san_tool t;
		if (rung_san_tool_parse(&t, json_string_value(json_array_get(tools, k))) == 0)
			out->sanitize_tools |= RUNG_SAN_BIT(t);
	}
	json_t *fs = json_object_get(o, "sanitize");
	for (size_t k = 0; k < json_array_size(fs) && out->nsanitize < RUNG_SAN_MAX_FINDINGS; k++) {
		json_t *e = json_array_get(fs, k);
		rung_san_finding *f = &out->sanitize[out->nsanitize];
		memset(f, 0, sizeof(*f));
		char name[32] = "";
		gs(e, "tool", name, sizeof name);
		if (rung_san_tool_parse(&f->tool, name) < 0)
			continue; /* a tool from a newer rung: not ours to show */
		gs(e, "kind", name, sizeof name);
		if (rung_san_kind_parse(&f->kind, name) < 0)
			f->kind = RUNG_SANK_OTHER;
		gs(e, "where", name, sizeof name);
		if (rung_san_where_parse(&f->where, name) < 0)
			f->where = RUNG_SANW_CANDIDATE;
		gs(e, "kernel", f->kernel, sizeof f->kernel);
		gs(e, "file", f->file, sizeof f->file);
		gint(e, "line", &f->line);
		gi64(e, "count", &f->count);
		gs(e, "message", f->message, sizeof f->message);
		out->nsanitize++;
	}

	const json_t *cost = json_object_get(o, "sanitize_cost");
	if (json_is_object(cost)) {
		double lim = NAN;
		gd(cost, "bench_limit_s", &lim);
		out->sanitize_bench_limit_s = isfinite(lim) && lim > 0 ? lim : 0;
		const json_t *per = json_object_get(cost, "tools");
		for (size_t k = 0; k < json_array_size(per); k++) {
			const json_t *e = json_array_get(per, k);
			rung_san_tool t;
			rung_san_bench b;
			if (rung_san_tool_parse(&t, json_string_value(json_object_get(e, "tool"))) < 0)
				continue; /* a tool from a newer rung */
			double ms = NAN, bms = NAN;
			gd(e, "check_ms", &ms);
			gd(e, "bench_ms", &bms);
			out->sanitize_ms[t] = isfinite(ms) && ms > 0 ? ms : 0;
			out->sanitize_bench_ms[t] = isfinite(bms) && bms > 0 ? bms : 0;
			out->sanitize_bench[t] =
				rung_san_bench_parse(&b, json_string_value(json_object_get(e, "bench"))) == 0 ? b : RUNG_SANB_NONE;
		}
	}

	json_t *cs = json_object_get(o, "counters");
	size_t nc = json_array_size(cs);
	if (nc > 0) {
		out->counters = calloc(nc, sizeof *out->counters);
		if (!out->counters) {
			rc = rung_error_set(RUNG_ENOMEM, "result JSON: out of memory");
			goto done;
		}
		for (size_t k = 0; k < nc; k++) {
			json_t *e = json_array_get(cs, k);
			out->counters[k].value = NAN;
			gs(e, "name", out->counters[k].name, sizeof out->counters[k].name);
			gd(e, "value", &out->counters[k].value);
		}
		out->ncounters = (int)nc;
	}
	json_t *aux = json_object_get(o, "aux");
	if (json_is_object(aux)) {
		out->aux = json_dumps(aux, JSON_COMPACT | JSON_REAL_PRECISION(17));
		if (!out->aux) {
			rc = rung_error_set(RUNG_ENOMEM, "result JSON: out of memory");
			goto done;
		}
	}
	json_t *kout = json_object_get(o, "output");
	if (json_is_object(kout)) {
		json_t *text = json_object_get(kout, "text");
		if (json_is_string(text)) {
			/* the writer's text is valid UTF-8 without NUL; keep it so */
			out->output = rung_inert_utf8(json_string_value(text), strlen(json_string_value(text)));
			if (!out->output) {
				rc = rung_error_set(RUNG_ENOMEM, "result JSON: out of memory");
				goto done;
			}
		}
		gi64(kout, "bytes", &out->output_bytes);
		gi64(kout, "dropped", &out->output_dropped);
	}
done:
	json_decref(o);
	if (rc < 0)
		rung_result_clear(out);
	return rc;
}

double rung_result_max_rel(const rung_result *r)
{
	return rung_metric_worst(r, RUNG_METRIC_MAX_REL);
}

const char *rung_fmt_max_rel(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (isinf(v))
		snprintf(buf, len, "%s", v > 0 ? "inf" : "-inf");
	else
		snprintf(buf, len, "%.2e", v);
	return buf;
}

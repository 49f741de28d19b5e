/* In-memory model backend: rows added by hand or generated, texts kept in a
 * small table. Used by tests/test_tui.c and bench/bench_tui.c. */
#include "tui/model/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "tui/model/prof.h"
#include "tui/model/synth.h"

typedef struct {
	char hash[41];
	rung_text_kind kind;
	char *text;
} mem_text;

/* profile side data (rung_model_mem_set_extra) */
typedef struct {
	char hash[41];
	char kind[16];
	char *json;
} mem_extra;

/* launch geometry (rung_model_mem_set_launch) */
typedef struct {
	char hash[41];
	rung_geom g;
} mem_launch;

typedef struct {
	mem_text *texts;
	int ntexts;
	mem_launch *launches;
	int nlaunches;
	mem_extra *extras;
	int nextras;
	bool demo; /* synthesize texts for rows without one */
	int nnotes_written;
} mem_impl;

static int mem_refresh(rung_model *m)
{
	(void)m;
	return 0;
}

static int mem_text_get(char **out, rung_model *m, const char *hash, rung_text_kind kind)
{
	mem_impl *im = m->impl;
	for (int i = 0; i < im->ntexts; i++)
		if (im->texts[i].kind == kind && !strcmp(im->texts[i].hash, hash)) {
			*out = strdup(im->texts[i].text);
			return *out ? 0 : rung_error_set(RUNG_ENOMEM, "out of memory");
		}
	int row = rung_model_find(m, hash);
	if (im->demo && row >= 0) {
		/* older versions have a lower "generation" of the kernel */
		int gen = m->nrows - 1 - row;
		*out = kind == RUNG_TEXT_SASS ? rung_synth_sass(400, (unsigned)gen / 2, gen)
		     : kind == RUNG_TEXT_PTX ? rung_synth_ptx(gen)
					     : rung_synth_source(gen);
		return *out ? 0 : rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	return rung_error_set(RUNG_ENOTFOUND, "no %s for %.7s", rung_text_kind_name(kind), hash);
}

static int mem_extra_get(char **out, rung_model *m, const char *hash, const char *kind)
{
	mem_impl *im = m->impl;
	*out = NULL;
	for (int i = im->nextras - 1; i >= 0; i--)
		if (!strcmp(im->extras[i].kind, kind) && !strcmp(im->extras[i].hash, hash)) {
			*out = strdup(im->extras[i].json);
			return *out ? 0 : rung_error_set(RUNG_ENOMEM, "out of memory");
		}
	return rung_error_set(RUNG_ENOTFOUND, "no stored %s data for %.7s", kind, hash);
}

static int mem_launch_get(rung_geom *out, rung_model *m, const char *hash)
{
	mem_impl *im = m->impl;
	for (int i = im->nlaunches - 1; i >= 0; i--)
		if (!strcmp(im->launches[i].hash, hash)) {
			*out = im->launches[i].g;
			return 0;
		}
	if (im->demo && rung_model_find(m, hash) >= 0) {
		/* the synthetic sgemm: 16x16 threads per block over 4096x4096 */
		memset(out, 0, sizeof(*out));
		out->grid[0] = out->grid[1] = 256;
		out->block[0] = out->block[1] = 16;
		out->grid[2] = out->block[2] = 1;
		return 0;
	}
	return rung_error_set(RUNG_ENOTFOUND, "no launch geometry for %.7s", hash);
}

static int mem_evaluate(rung_model *m, const char *hash)
{
	rung_model_event ev = {.kind = RUNG_EV_QUEUED};
	snprintf(ev.hash, sizeof(ev.hash), "%s", hash);
	return rung_model_post(m, &ev);
}

/* A directive's id here: 8 hex digits of FNV-1a over the version, its rank and text. */
static void mem_directive_id(char out[9], const char *hash, int k, const char *text)
{
	uint32_t h = 2166136261u;
	for (const char *s = hash; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	h = (h ^ (unsigned)k) * 16777619u;
	for (const char *s = text; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	snprintf(out, 9, "%08x", (unsigned)h);
}

/* A directive written appends an open one to the row (the note's first line). */
static int mem_set_note(rung_model *m, const char *hash, rung_verdict v, const char *text)
{
	mem_impl *im = m->impl;
	(void)v;
	im->nnotes_written++;
	int i = rung_model_find(m, hash);
	if (i < 0 || !text || !text[0])
		return 0;
	rung_model_row *r = &m->rows[i];
	rung_model_directive *nd = realloc(r->dirs, (size_t)(r->ndirs + 1) * sizeof(*nd));
	if (!nd)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	r->dirs = nd;
	rung_model_directive *d = &nd[r->ndirs];
	memset(d, 0, sizeof(*d));
	const char *eol = strchr(text, '\n');
	snprintf(d->text, sizeof(d->text), "%.*s", eol ? (int)(eol - text) : (int)strlen(text), text);
	mem_directive_id(d->id, r->hash, r->ndirs, d->text);
	r->ndirs++;
	return 0;
}

static int mem_close_directive(rung_model *m, const char *hash, const char *id, const char *reason)
{
	int i = rung_model_find(m, hash);
	rung_model_row *r = i >= 0 ? &m->rows[i] : NULL;
	for (int k = 0; r && k < r->ndirs; k++)
		if (!strcmp(r->dirs[k].id, id)) {
			rung_model_directive *d = &r->dirs[k];
			d->status = RUNG_DIR_CLOSED;
			snprintf(d->who, sizeof(d->who), "you");
			snprintf(d->by, sizeof(d->by), "%s", m->rows[0].hash);
			snprintf(d->reason, sizeof(d->reason), "%s", reason);
			return 0;
		}
	return rung_error_set(RUNG_ENOTFOUND, "no directive %s on %.7s", id, hash);
}

static void mem_free(rung_model *m)
{
	mem_impl *im = m->impl;
	if (!im)
		return;
	for (int i = 0; i < im->ntexts; i++)
		free(im->texts[i].text);
	free(im->texts);
	for (int i = 0; i < im->nextras; i++)
		free(im->extras[i].json);
	free(im->extras);
	free(im->launches);
	free(im);
}

static const rung_model_ops mem_ops = {
	.name = "memory",
	.refresh = mem_refresh,
	.text = mem_text_get,
	.evaluate = mem_evaluate,
	.set_note = mem_set_note,
	.close_directive = mem_close_directive,
	.free = mem_free,
	.extra = mem_extra_get,
	.launch = mem_launch_get,
};

int rung_model_mem_new(rung_model **out)
{
	*out = NULL;
	rung_model *m = calloc(1, sizeof(*m));
	mem_impl *im = calloc(1, sizeof(*im));
	if (!m || !im) {
		free(m);
		free(im);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	int err = rung_model_init(m, &mem_ops, im);
	if (err < 0) {
		free(m);
		free(im);
		return err;
	}
	snprintf(m->title, sizeof(m->title), "memory");
	*out = m;
	return 0;
}

int rung_model_mem_add(rung_model *m, const rung_model_row *row)
{
	rung_model_row *rows = realloc(m->rows, (size_t)(m->nrows + 1) * sizeof(*rows));
	if (!rows)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	m->rows = rows;
	rows[m->nrows] = *row;
	if ((row->result || row->recorded) && row->step[0] == RUNG_S_NONE)
		rung_model_row_sync_steps(&rows[m->nrows]);
	m->nrows++;
	m->generation++;
	return 0;
}

int rung_model_mem_set_text(rung_model *m, const char *hash, rung_text_kind kind, const char *text)
{
	mem_impl *im = m->impl;
	mem_text *t = realloc(im->texts, (size_t)(im->ntexts + 1) * sizeof(*t));
	if (!t)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	im->texts = t;
	t += im->ntexts;
	snprintf(t->hash, sizeof(t->hash), "%s", hash);
	t->kind = kind;
	t->text = strdup(text);
	if (!t->text)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	im->ntexts++;
	return 0;
}

int rung_model_mem_set_extra(rung_model *m, const char *hash, const char *kind, const char *json)
{
	if (!m->ops || m->ops->extra != mem_extra_get)
		return rung_error_set(RUNG_EINVAL, "not an in-memory model");
	mem_impl *im = m->impl;
	mem_extra *x = realloc(im->extras, (size_t)(im->nextras + 1) * sizeof(*x));
	if (!x)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	im->extras = x;
	x += im->nextras;
	snprintf(x->hash, sizeof(x->hash), "%s", hash);
	snprintf(x->kind, sizeof(x->kind), "%s", kind);
	x->json = strdup(json);
	if (!x->json)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	im->nextras++;
	m->generation++;
	return 0;
}

int rung_model_mem_set_launch(rung_model *m, const char *hash, const rung_geom *g)
{
	if (!m->ops || m->ops->launch != mem_launch_get)
		return rung_error_set(RUNG_EINVAL, "not an in-memory model");
	mem_impl *im = m->impl;
	mem_launch *l = realloc(im->launches, (size_t)(im->nlaunches + 1) * sizeof(*l));
	if (!l)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	im->launches = l;
	l += im->nlaunches++;
	snprintf(l->hash, sizeof(l->hash), "%s", hash);
	l->g = *g;
	m->generation++;
	return 0;
}

/* xorshift: deterministic across platforms */
static unsigned next_rand(unsigned *s)
{
	unsigned x = *s ? *s : 2463534242u;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

static double unif(unsigned *s)
{
	return (next_rand(s) >> 8) / 16777216.0;
}

rung_result *rung_model_fake_result(const char *hash, double median_ms, double max_rel, bool check_ok, unsigned seed)
{
	rung_result *r = malloc(sizeof(*r));
	if (!r)
		return NULL;
	rung_result_init(r);
	unsigned s = seed * 2654435761u + 1;
	snprintf(r->rev, sizeof(r->rev), "%s", hash);
	for (int i = 0; i < RUNG_STEP_SANITIZE; i++) { /* the sanitize rung: not in the synthetic data */
		r->steps[i].status = RUNG_S_OK;
		r->steps[i].wall_ms = 5 + 40 * unif(&s);
	}
	r->steps[RUNG_STEP_PROFILE].status = RUNG_S_NONE;
	r->compile.kernel.valid = true;
	snprintf(r->compile.kernel.name, sizeof(r->compile.kernel.name), "_Z5sgemmiiiPKfS0_Pf");
	r->compile.kernel.regs = 32 + (int)(next_rand(&s) % 6) * 16;
	r->compile.kernel.smem = (int64_t)(next_rand(&s) % 5) * 8192;
	r->compile.kernel.spill_stores = r->compile.kernel.regs > 100 ? 16 : 0;
	r->compile.kernel.spill_loads = r->compile.kernel.spill_stores;
	r->compile.compile_ms = 120 + 80 * unif(&s);
	snprintf(r->compile.arch, sizeof(r->compile.arch), "sm_90");
	rung_dimset_set(&r->run_dims, "M", 4096);
	rung_dimset_set(&r->run_dims, "N", 4096);
	rung_dimset_set(&r->run_dims, "K", 4096);
	r->nshapes = 2;
	r->nseeds = 2;
	r->nmetrics = 4;
	r->metrics = calloc(4, sizeof(*r->metrics));
	for (int i = 0; r->metrics && i < 4; i++) {
		rung_check_metric *cm = &r->metrics[i];
		snprintf(cm->output, sizeof(cm->output), "C");
		int64_t d = i < 2 ? 127 : 256;
		rung_dimset_set(&cm->dims, "M", d);
		rung_dimset_set(&cm->dims, "N", d + 1);
		rung_dimset_set(&cm->dims, "K", d - 1);
		cm->seed = 1000 + (uint64_t)(i % 2);
		cm->n = d * (d + 1);
		cm->max_rel = max_rel * (0.5 + unif(&s));
		cm->max_abs = cm->max_rel * 3.0;
		cm->mae = cm->max_abs / 20;
		cm->mse = cm->mae * cm->mae;
		cm->rmse = sqrt(cm->mse);
		cm->psnr = 20 * log10(4.0 / cm->rmse);
		cm->cossim = 1 - cm->mse;
		cm->peak = 4.0;
		cm->pass = check_ok || i != 3;
		if (!cm->pass) {
			cm->max_rel = 3.1e-2;
			cm->nbad = 2;
			cm->bad_rank = 2;
			cm->mismatches = 17;
			cm->bad_index[0] = 127 * 257 + 4;
			cm->bad_coord[0][0] = 127, cm->bad_coord[0][1] = 4;
			cm->bad_got[0] = 1.5, cm->bad_expected[0] = 1.4535;
			cm->bad_index[1] = 128 * 257 + 4;
			cm->bad_coord[1][0] = 128, cm->bad_coord[1][1] = 4;
			cm->bad_got[1] = 0, cm->bad_expected[1] = 2.25;
			snprintf(cm->reason, sizeof(cm->reason), "%s", "worst at (127,4): got 1.5 expected 1.4535, 3.2x its tolerance; 17 of 65792 elements of C outside atol 0.0001 + rtol 1.0e-02*|ref|");
		}
	}
	if (!check_ok) {
		r->steps[RUNG_STEP_CHECK].status = RUNG_S_FAILED;
		snprintf(r->steps[RUNG_STEP_CHECK].reason, sizeof(r->steps[0].reason), "C: %s at M=256,N=257,K=255 seed 2/2",
			 r->metrics ? r->metrics[3].reason : "");
		r->steps[RUNG_STEP_BENCH].status = RUNG_S_SKIPPED;
		snprintf(r->steps[RUNG_STEP_BENCH].reason, sizeof(r->steps[0].reason), "check failed");
		return r;
	}
	rung_bench *b = &r->bench;
	b->valid = true;
	b->n = 60;
	b->samples = malloc(sizeof(double) * (size_t)b->n);
	double sum = 0, mn = INFINITY, mx = -INFINITY;
	for (int i = 0; b->samples && i < b->n; i++) {
		double u = unif(&s) + unif(&s) + unif(&s) - 1.5; /* ~ normal, sd 0.5 */
		double v = median_ms * (1 + 0.01 * u);
		b->samples[i] = v;
		sum += v;
		mn = fmin(mn, v);
		mx = fmax(mx, v);
	}
	b->median = median_ms;
	b->mean = sum / b->n;
	b->min = mn;
	b->max = mx;
	b->q1 = median_ms * 0.996;
	b->q3 = median_ms * 1.004;
	b->stddev = median_ms * 0.005;
	b->rse_median = 0.002 + 0.003 * unif(&s);
	b->noise_ok = true;
	b->event_median = median_ms * 1.01;
	b->clock_mhz = 1980;
	double flops = 2.0 * 4096.0 * 4096.0 * 4096.0;
	b->tflops = flops / (median_ms * 1e-3) / 1e12;
	snprintf(b->method, sizeof(b->method), "cupti-activity");
	r->env.valid = true;
	snprintf(r->env.gpu, sizeof(r->env.gpu), "NVIDIA H200");
	snprintf(r->env.driver, sizeof(r->env.driver), "580.95");
	snprintf(r->env.cuda, sizeof(r->env.cuda), "13.0");
	snprintf(r->env.arch, sizeof(r->env.arch), "sm_90");
	r->env.sms = 132;
	r->env.sm_clock_mhz = 1980;
	r->env.mem_clock_mhz = 3201;
	r->env.bus_width = 6144;
	r->env.l2_bytes = 50331648;
	r->env.power_limit_w = 700;
	snprintf(r->env.host, sizeof(r->env.host), "gpu-box");
	return r;
}

static const char *const demo_subjects[] = {
	"naive sgemm, one thread per output",
	"coalesce loads of A and B",
	"shared-memory tiling 32x32",
	"1D blocktiling, 8 results per thread",
	"2D blocktiling 8x8",
	"vectorize global loads with float4",
	"transpose A in shared memory",
	"warptiling 64x64",
	"double-buffer the shared tiles",
	"swizzle smem to avoid bank conflicts",
	"try 256 threads per block",
	"unroll K loop by 16",
};
#define NSUBJECTS (int)(sizeof(demo_subjects) / sizeof(demo_subjects[0]))

int rung_model_mem_demo(rung_model *m, int n, unsigned seed)
{
	mem_impl *im = m->impl;
	im->demo = true;
	unsigned s = seed ? seed : 1;
	snprintf(m->title, sizeof(m->title), "sgemm");
	m->ceil.bw_bytes_s = 4.8e12;
	m->ceil.fp32_flop_s = 67e12;
	m->ceil.tensor_flop_s = 494e12;
	snprintf(m->ceil.source, sizeof(m->ceil.source), "datasheet");
	rung_model_row *rows = calloc((size_t)(n > 0 ? n : 1), sizeof(*rows));
	if (!rows)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	double t = 180.0;
	for (int k = 0; k < n; k++) {
		/* k counts from the oldest; rows are newest first */
		rung_model_row *r = &rows[n - 1 - k];
		unsigned a = next_rand(&s), b = next_rand(&s), c = next_rand(&s), d = next_rand(&s), e = next_rand(&s);
		snprintf(r->hash, sizeof(r->hash), "%08x%08x%08x%08x%08x", a, b, c, d, e);
		if (k < NSUBJECTS)
			snprintf(r->subject, sizeof(r->subject), "%s", demo_subjects[k]);
		else
			snprintf(r->subject, sizeof(r->subject), "%s (variant %d)", demo_subjects[k % NSUBJECTS], k / NSUBJECTS);
		snprintf(r->author, sizeof(r->author), k % 3 ? "agent" : "ada");
		r->date = 1767225600 + (int64_t)k * 1800;
		bool evaluated = k < n - 2 || n <= 3;
		bool wrong = k % 7 == 5;
		double factor = k % 5 == 4 ? 1.08 : 0.55 + 0.3 * unif(&s);
		if (k > 0 && !wrong)
			t = fmax(t * factor, 2.3);
		if (evaluated) {
			r->result = rung_model_fake_result(r->hash, t, 2e-6 * (1 + k % 3), !wrong, (unsigned)k + 1);
			if (!r->result) {
				rung_model_rows_free(rows, n);
				return rung_error_set(RUNG_ENOMEM, "out of memory");
			}
			/* intensity rises as reuse improves */
			double inten = fmin(2.0 * pow(1.9, k), 600);
			if (r->result->bench.valid)
				r->result->bench.tbps = r->result->bench.tflops / inten;
			r->result->cached = k % 2 == 0;
			if (k == 6) { /* a version that does not compile */
				rung_result *cr = r->result;
				rung_result_clear(cr);
				snprintf(cr->rev, sizeof(cr->rev), "%s", r->hash);
				cr->steps[RUNG_STEP_COMPILE].status = RUNG_S_FAILED;
				snprintf(cr->steps[RUNG_STEP_COMPILE].reason, sizeof(cr->steps[0].reason),
					 "sgemm.cu:14: identifier \"As\" is undefined");
				cr->compile_log = strdup("sgemm.cu(14): error: identifier \"As\" is undefined\n"
							 "sgemm.cu(9): warning #177-D: variable \"acc\" was declared but never referenced\n\n"
							 "1 error detected in the compilation of \"sgemm.cu\".\n");
				snprintf(cr->compile.arch, sizeof(cr->compile.arch), "sm_90");
			}
			rung_model_row_sync_steps(r);
		}
		if (k == 0) {
			r->verdict = RUNG_VERDICT_BASELINE;
			snprintf(r->note, sizeof(r->note), "reference point: naive kernel");
		} else if (wrong) {
			r->verdict = RUNG_VERDICT_REJECT;
			snprintf(r->note, sizeof(r->note), "wrong at the M tail; fix bounds check");
		} else if (k == 4) {
			r->verdict = RUNG_VERDICT_KEEP;
			snprintf(r->note, sizeof(r->note), "good step; try float4 next");
		}
	}
	rung_model_set_rows(m, rows, n);
	return 0;
}

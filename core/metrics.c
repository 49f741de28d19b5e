/* Element-wise comparison of got against ref. Two passes: the first finds the
 * reference's peak |value| (for PSNR and the peak-scaled default atol), the
 * second does everything else. Sums are accumulated per block of 4096 finite
 * elements in double and the block sums are added with Neumaier compensation.
 * The second pass runs over chunks of RUNG_METRICS_CHUNK elements, each into its
 * own partial accumulator, merged in chunk order (metrics.h): the whole-array
 * call and the worker's parallel streaming give the same bits. */
#include "core/metrics.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/guard.h"
#include "core/half.h"
#include "core/par.h"
#include "core/rng.h"

void rung_tolerance_default(rung_dtype dt, double *atol, double *rtol)
{
	double a = 0, r = 0;
	switch (dt) {
	case RUNG_DT_F64: a = 1e-10; r = 1e-8; break;
	case RUNG_DT_F32: a = 1e-5; r = 1e-5; break;
	case RUNG_DT_F16: a = 1e-3; r = 2e-3; break;
	case RUNG_DT_BF16: a = 1e-2; r = 1.6e-2; break;
	default: a = 0; r = 0; break;
	}
	if (atol)
		*atol = a;
	if (rtol)
		*rtol = r;
}

void rung_check_opts_default(rung_check_opts *o, rung_dtype dt)
{
	memset(o, 0, sizeof *o);
	rung_tolerance_default(dt, &o->atol, &o->rtol);
	o->atol_scaled = o->atol > 0;
	o->check_poison = true;
	o->poison_variant = 0;
}

void rung_check_opts_from_spec(rung_check_opts *o, const rung_spec *s, rung_dtype dt)
{
	rung_check_opts_default(o, dt);
	if (!s)
		return;
	if (s->has_atol) {
		o->atol = s->atol;
		o->atol_scaled = false;
	}
	if (s->has_rtol)
		o->rtol = s->rtol;
	o->has_min_psnr = s->has_min_psnr;
	o->min_psnr = s->min_psnr;
	o->has_min_cossim = s->has_min_cossim;
	o->min_cossim = s->min_cossim;
}

void rung_check_opts_inputs(rung_check_opts *o, rung_dist d)
{
	if (d != RUNG_DIST_INTS)
		return;
	o->atol = o->rtol = 0;
	o->atol_scaled = false;
}

void rung_check_opts_lenient(rung_check_opts *o)
{
	o->atol = 1e-2;
	o->atol_scaled = true;
	if (!(o->rtol >= 1e-2))
		o->rtol = 1e-2;
	o->has_min_psnr = o->has_min_cossim = false;
}

void rung_to_double(double *out, const void *buf, rung_dtype dt, int64_t n)
{
	for (int64_t i = 0; i < n; i++)
		out[i] = rung_load_double(buf, dt, i);
}

const char *rung_fmt_double(char *buf, size_t len, double v, int digits)
{
	if (isnan(v))
		snprintf(buf, len, "nan");
	else if (isinf(v))
		snprintf(buf, len, v > 0 ? "inf" : "-inf");
	else
		snprintf(buf, len, "%.*g", digits, v);
	return buf;
}

void rung_fmt_coord(char *buf, size_t len, const int64_t *c, int rank)
{
	size_t k = (size_t)snprintf(buf, len, "(");
	for (int d = 0; d < rank && k < len; d++)
		k += (size_t)snprintf(buf + k, len - k, "%s%" PRId64, d ? "," : "", c[d]);
	if (k < len)
		snprintf(buf + k, len - k, ")");
}

int rung_unflatten(int64_t *coord, int64_t i, int rank, const int64_t *shape, int64_t n)
{
	int64_t prod = 1;
	bool ok = rank > 0 && rank <= RUNG_MAX_RANK && shape;
	for (int d = 0; ok && d < rank; d++) {
		if (shape[d] <= 0)
			ok = false;
		else
			prod *= shape[d];
	}
	if (!ok || prod != n) {
		coord[0] = i;
		return 1;
	}
	for (int d = rank - 1; d >= 0; d--) {
		coord[d] = i % shape[d];
		i /= shape[d];
	}
	return rank;
}

int rung_ulp_bin(uint64_t u)
{
	return rung_hd_ulp_bin(u);
}

_Static_assert(RUNG_HD_MAX_BAD == RUNG_MAX_BAD && RUNG_HD_ULP_BINS == RUNG_ULP_BINS, "core/metrics_hd.h sizes");
_Static_assert(RUNG_HD_MAP_TILES == RUNG_MAP_TILES && RUNG_HD_MAP_EXCESS_MAX == RUNG_MAP_EXCESS_MAX &&
		       RUNG_HD_MAP_INF == RUNG_MAP_INF && RUNG_HD_MAP_NAN == RUNG_MAP_NAN &&
		       RUNG_HD_MAP_UNWRITTEN == RUNG_MAP_UNWRITTEN,
	       "core/metrics_hd.h error map levels");


/* the reason is truncated to its field when long (names are user-chosen) */
__attribute__((format(printf, 2, 3))) static void reasonf(rung_check_metric *m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m->reason, sizeof m->reason, fmt, ap);
	va_end(ap);
}

static bool dt_is_float(rung_dtype dt)
{
	return dt == RUNG_DT_F64 || dt == RUNG_DT_F32 || dt == RUNG_DT_F16 || dt == RUNG_DT_BF16;
}

double rung_metrics_peak(const void *ref, rung_dtype dt, int64_t n)
{
	double peak = 0;
	for (int64_t i = 0; i < n; i++) {
		double r = fabs(rung_load_double(ref, dt, i));
		if (r > peak && r != INFINITY)
			peak = r;
	}
	return peak;
}

int rung_metrics_begin(rung_metrics_ctx *c, const char *output, rung_dtype dt, int64_t n, int rank,
		       const int64_t *shape, const rung_check_opts *o, double peak)
{
	memset(c, 0, sizeof *c);
	if (rung_dt_size(dt) == 0)
		return rung_error_set(RUNG_EINVAL, "check %s: unknown dtype %d", output ? output : "?", (int)dt);
	if (n < 0)
		return rung_error_set(RUNG_EINVAL, "check %s: bad buffers", output ? output : "?");
	if (o)
		c->o = *o;
	else
		rung_check_opts_default(&c->o, dt);
	snprintf(c->name, sizeof c->name, "%s", output ? output : "output");
	c->dt = dt;
	c->n = n;
	c->rank = rank;
	if (shape && rank > 0 && rank <= RUNG_MAX_RANK) {
		memcpy(c->shape, shape, (size_t)rank * sizeof(int64_t));
		c->has_shape = true;
	}
	c->peak = peak;
	c->atol = c->o.atol_scaled ? c->o.atol * peak : c->o.atol;
	c->rtol = c->o.rtol;
	uint8_t pat[8] = { 0 };
	rung_poison_bits(pat, dt, c->o.poison_variant);
	c->f = (rung_hd_feed){ .dt = (int32_t)dt, .es = (int32_t)rung_dt_size(dt), .is_float = dt_is_float(dt),
			       .check_poison = c->o.check_poison, .atol = c->atol, .rtol = c->rtol };
	memcpy(&c->f.poison, pat, rung_dt_size(dt)); /* little-endian, as the loads */
	rung_err_map_geom g;
	rung_err_map_geom_init(&g, n, rank, c->has_shape ? c->shape : NULL);
	c->f.map_rows = g.rows;
	c->f.map_cols = g.cols;
	c->f.map_h = g.h;
	c->f.map_w = g.w;
	c->f.map_th = g.th;
	c->f.map_tw = g.tw;
	return 0;
}

void rung_metrics_acc_init(rung_metrics_acc *a, int64_t start)
{
	rung_hd_acc_init(a, start);
}

void rung_metrics_feed(const rung_metrics_ctx *c, rung_metrics_acc *a, const void *got, const void *ref,
		       int64_t count)
{
	rung_hd_feed_span(&c->f, a, got, ref, count);
}

void rung_metrics_merge(rung_metrics_acc *d, const rung_metrics_acc *src)
{
	rung_hd_merge(d, src);
}

void rung_metrics_fold_init(rung_metrics_fold *f)
{
	f->n = 0;
	rung_metrics_acc_init(&f->total, 0);
	rung_metrics_acc_init(&f->group, 0);
}

static void fold_push(rung_metrics_fold *f)
{
	if (f->n <= RUNG_METRICS_GROUP) /* the first group */
		f->total = f->group;
	else
		rung_metrics_merge(&f->total, &f->group);
}

void rung_metrics_fold_add(rung_metrics_fold *f, const rung_metrics_acc *a)
{
	if (f->n % RUNG_METRICS_GROUP == 0) {
		if (f->n > 0)
			fold_push(f);
		f->group = *a;
	} else {
		rung_metrics_merge(&f->group, a);
	}
	f->n++;
}

void rung_metrics_fold_end(rung_metrics_fold *f, rung_metrics_acc *out)
{
	if (f->n == 0) {
		rung_metrics_acc_init(out, 0);
		return;
	}
	fold_push(f);
	*out = f->total;
}

void rung_metrics_end(const rung_metrics_ctx *c, const rung_metrics_acc *acc, rung_check_metric *m)
{
	rung_metrics_acc a = *acc;
	rung_hd_acc_close(&a);
	const char *name = c->name;
	const int64_t *shape = c->has_shape ? c->shape : NULL;
	int rank = c->rank;
	int64_t n = c->n;
	const rung_check_opts *o = &c->o;

	rung_dimset dims = m->dims;
	uint64_t seed = m->seed;
	memset(m, 0, sizeof *m);
	m->dims = dims;
	m->seed = seed;
	snprintf(m->output, sizeof m->output, "%s", name);
	m->n = n;
	m->has_ulp = dt_is_float(c->dt);
	m->peak = c->peak;
	m->unwritten = a.unwritten;
	m->nan_count = a.nan_count;
	m->inf_count = a.inf_count;
	m->mismatches = a.mismatches;
	for (int k = 0; k < RUNG_ULP_BINS; k++)
		m->ulp_hist[k] = a.ulp_hist[k];
	m->map.g = (rung_err_map_geom){ c->f.map_rows, c->f.map_cols, c->f.map_h, c->f.map_w, c->f.map_th, c->f.map_tw };
	if (a.map_any)
		memcpy(m->map.lv, a.map, sizeof m->map.lv);
	m->nbad = a.nbad;
	for (int k = 0; k < a.nbad; k++) {
		m->bad_index[k] = a.bad_index[k];
		m->bad_rank = rung_unflatten(m->bad_coord[k], a.bad_index[k], rank, shape, n);
		m->bad_got[k] = a.bad_got[k];
		m->bad_expected[k] = a.bad_expected[k];
	}
	double sum_abs = a.s_abs.sum + a.s_abs.c, sum_sq = a.s_sq.sum + a.s_sq.c;
	double dot = a.s_dot.sum + a.s_dot.c, gg = a.s_gg.sum + a.s_gg.c, rr = a.s_rr.sum + a.s_rr.c;
	double peak = c->peak, atol = c->atol, rtol = c->rtol;

	if (a.nfinite > 0) {
		m->max_abs = a.max_abs;
		m->max_rel = a.max_rel;
		m->mae = sum_abs / (double)a.nfinite;
		m->mse = sum_sq / (double)a.nfinite;
		m->rmse = sqrt(m->mse);
		if (m->mse == 0)
			m->psnr = INFINITY;
		else
			m->psnr = 10.0 * log10(peak * peak / m->mse); /* -inf when peak == 0 */
		if (gg == 0 && rr == 0)
			m->cossim = 1.0;
		else if (gg == 0 || rr == 0)
			m->cossim = 0.0;
		else {
			double cs = dot / (sqrt(gg) * sqrt(rr));
			m->cossim = cs > 1 ? 1 : cs < -1 ? -1 : cs;
		}
	} else {
		m->max_abs = m->max_rel = m->mae = m->mse = m->rmse = m->psnr = m->cossim = NAN;
	}

	/* verdict: the first failure in a fixed order */
	char c1[96], v1[32], v2[32], v3[32];
	int64_t coord[RUNG_MAX_RANK];
	int crank;
	m->pass = true;
	if (m->unwritten > 0) {
		crank = rung_unflatten(coord, a.first_unwritten, rank, shape, n);
		rung_fmt_coord(c1, sizeof c1, coord, crank);
		reasonf(m, "unwritten %" PRId64 " elements of %s (poison left), first at %s",
			 m->unwritten, name, c1);
		m->pass = false;
	} else if (a.bad_nan > 0) {
		crank = rung_unflatten(coord, a.first_nan, rank, shape, n);
		rung_fmt_coord(c1, sizeof c1, coord, crank);
		reasonf(m, "%" PRId64 " NaN in %s, first at %s", a.bad_nan, name, c1);
		m->pass = false;
	} else if (a.bad_inf > 0) {
		crank = rung_unflatten(coord, a.first_inf, rank, shape, n);
		rung_fmt_coord(c1, sizeof c1, coord, crank);
		reasonf(m, "%" PRId64 " Inf in %s, first at %s: expected %s", a.bad_inf, name, c1,
			 rung_fmt_double(v1, sizeof v1, a.first_inf_ref, 6));
		m->pass = false;
	} else if (m->mismatches > 0) {
		int64_t at = a.worst >= 0 ? a.worst : a.bad_index[0];
		crank = rung_unflatten(coord, at, rank, shape, n);
		rung_fmt_coord(c1, sizeof c1, coord, crank);
		rung_fmt_double(v1, sizeof v1, a.worst >= 0 ? a.worst_got : a.bad_got[0], 6);
		rung_fmt_double(v2, sizeof v2, a.worst >= 0 ? a.worst_ref : a.bad_expected[0], 6);
		rung_fmt_double(v3, sizeof v3, atol, 2);
		/* the element furthest outside its tolerance (by |got - ref| / tolerance),
		 * which need not be the one with the largest relative error: its relative
		 * error is not called max_rel here (max_rel is m->max_rel, one number) */
		char ex[48] = ""; /* a zero tolerance (exact compare) has no ratio */
		if (a.worst >= 0 && isfinite(a.worst_excess))
			snprintf(ex, sizeof ex, ", %.2gx its tolerance", a.worst_excess);
		if (a.worst >= 0)
			reasonf(m, "worst at %s: got %s expected %s%s; %" PRId64 " of %" PRId64
				 " elements of %s outside atol %s + rtol %.1e*|ref|", c1, v1, v2, ex, m->mismatches, n, name, v3,
				 rtol);
		else
			reasonf(m, "%" PRId64 " mismatches in %s, first at %s: got %s expected %s",
				 m->mismatches, name, c1, v1, v2);
		m->pass = false;
	} else if (o->has_min_psnr && !(m->psnr >= o->min_psnr)) {
		reasonf(m, "psnr %.1fdB < %gdB in %s", m->psnr, o->min_psnr, name);
		m->pass = false;
	} else if (o->has_min_cossim && !(m->cossim >= o->min_cossim)) {
		reasonf(m, "cossim %.6f < %g in %s", m->cossim, o->min_cossim, name);
		m->pass = false;
	}
}

/* --- whole arrays: the same chunks, in parallel, merged in order ----------- */

typedef struct {
	const rung_metrics_ctx *c;
	const char *got, *ref;
	rung_metrics_acc *acc;
	double *peaks;
	int64_t n;
	size_t es;
	rung_dtype dt;
	int64_t k0; /* whole_feed: the window's first chunk */
} whole_job;

static void whole_peak(void *ud, int64_t k)
{
	whole_job *w = ud;
	int64_t s = k * RUNG_METRICS_CHUNK, e = s + RUNG_METRICS_CHUNK < w->n ? s + RUNG_METRICS_CHUNK : w->n;
	w->peaks[k] = rung_metrics_peak(w->ref + (size_t)s * w->es, w->dt, e - s);
}

static void whole_feed(void *ud, int64_t t)
{
	whole_job *w = ud;
	int64_t k = w->k0 + t;
	int64_t s = k * RUNG_METRICS_CHUNK, e = s + RUNG_METRICS_CHUNK < w->n ? s + RUNG_METRICS_CHUNK : w->n;
	rung_metrics_acc_init(&w->acc[t], s);
	rung_metrics_feed(w->c, &w->acc[t], w->got + (size_t)s * w->es, w->ref + (size_t)s * w->es, e - s);
}

int rung_metrics_compute(rung_check_metric *m, const char *output, const void *got, const void *ref,
			 rung_dtype dt, int64_t n, int rank, const int64_t *shape, const rung_check_opts *o)
{
	if (rung_dt_size(dt) == 0)
		return rung_error_set(RUNG_EINVAL, "check %s: unknown dtype %d", output ? output : "?", (int)dt);
	if (n < 0 || (n > 0 && (!got || !ref)))
		return rung_error_set(RUNG_EINVAL, "check %s: bad buffers", output ? output : "?");
	int64_t nchunks = (n + RUNG_METRICS_CHUNK - 1) / RUNG_METRICS_CHUNK;
	rung_metrics_ctx c;
	rung_metrics_acc total;
	rung_metrics_acc_init(&total, 0);
	if (nchunks <= 1) {
		int rc = rung_metrics_begin(&c, output, dt, n, rank, shape, o, rung_metrics_peak(ref, dt, n));
		if (rc)
			return rc;
		rung_metrics_feed(&c, &total, got, ref, n);
		rung_metrics_end(&c, &total, m);
		return 0;
	}
	/* the accumulators in windows of WINDOW chunks (each holds its error map):
	 * fed in parallel, merged in chunk order */
	enum { WINDOW = 1024 };
	int64_t win = nchunks < WINDOW ? nchunks : WINDOW;
	rung_metrics_acc *acc = malloc((size_t)win * sizeof(*acc));
	double *peaks = malloc((size_t)nchunks * sizeof(double));
	if (!acc || !peaks) {
		free(acc);
		free(peaks);
		return rung_error_set(RUNG_ENOMEM, "check %s: out of memory", output ? output : "?");
	}
	whole_job w = { &c, got, ref, acc, peaks, n, rung_dt_size(dt), dt, 0 };
	rung_par_for(nchunks, whole_peak, &w);
	double peak = 0;
	for (int64_t k = 0; k < nchunks; k++)
		peak = peaks[k] > peak ? peaks[k] : peak;
	int rc = rung_metrics_begin(&c, output, dt, n, rank, shape, o, peak);
	if (rc == 0) {
		rung_metrics_fold *f = malloc(sizeof(*f)); /* big (error maps): off the stack */
		if (!f) {
			free(acc);
			free(peaks);
			return rung_error_set(RUNG_ENOMEM, "check %s: out of memory", output ? output : "?");
		}
		rung_metrics_fold_init(f);
		for (int64_t k0 = 0; k0 < nchunks; k0 += win) {
			int64_t cw = nchunks - k0 < win ? nchunks - k0 : win;
			w.k0 = k0;
			rung_par_for(cw, whole_feed, &w);
			for (int64_t k = 0; k < cw; k++)
				rung_metrics_fold_add(f, &acc[k]);
		}
		rung_metrics_fold_end(f, &total);
		free(f);
		rung_metrics_end(&c, &total, m);
	}
	free(acc);
	free(peaks);
	return rc;
}

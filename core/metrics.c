/* Element-wise comparison of got against ref. Two passes: the first finds the
 * reference's peak |value| (for PSNR and the peak-scaled default atol), the
 * second does everything else. Sums are accumulated per block of 4096 elements
 * in double and the block sums are added with Neumaier compensation. */
#include "core/metrics.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "core/guard.h"
#include "core/half.h"
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
	if (u == 0) return 0;
	if (u == 1) return 1;
	if (u < 4) return 2;
	if (u < 16) return 3;
	if (u < 256) return 4;
	if (u < 65536) return 5;
	return 6;
}

/* sign and magnitude bits of a float element */
static void fbits(const void *buf, rung_dtype dt, int64_t i, int *sign, uint64_t *mag)
{
	uint64_t b = 0;
	switch (dt) {
	case RUNG_DT_F64: memcpy(&b, (const uint64_t *)buf + i, 8); *sign = (int)(b >> 63); *mag = b & ~(UINT64_C(1) << 63); return;
	case RUNG_DT_F32: { uint32_t w; memcpy(&w, (const uint32_t *)buf + i, 4); *sign = (int)(w >> 31); *mag = w & 0x7fffffffu; return; }
	default: { uint16_t h = ((const uint16_t *)buf)[i]; *sign = h >> 15; *mag = h & 0x7fffu; return; }
	}
}

static uint64_t ulp_dist(const void *g, const void *r, rung_dtype dt, int64_t i)
{
	int sg, sr;
	uint64_t mg, mr;
	fbits(g, dt, i, &sg, &mg);
	fbits(r, dt, i, &sr, &mr);
	if (sg == sr)
		return mg > mr ? mg - mr : mr - mg;
	return mg + mr; /* across zero; < 2^64 since each magnitude < 2^63 */
}

typedef struct {
	double sum, c;
} neum;

static void neum_add(neum *a, double v)
{
	double t = a->sum + v;
	if (fabs(a->sum) >= fabs(v))
		a->c += (a->sum - t) + v;
	else
		a->c += (v - t) + a->sum;
	a->sum = t;
}

#define BLOCK 4096

/* the reason is truncated to its field when long (names are user-chosen) */
__attribute__((format(printf, 2, 3))) static void reasonf(rung_check_metric *m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m->reason, sizeof m->reason, fmt, ap);
	va_end(ap);
}

int rung_metrics_compute(rung_check_metric *m, const char *output, const void *got, const void *ref,
			 rung_dtype dt, int64_t n, int rank, const int64_t *shape, const rung_check_opts *o)
{
	rung_check_opts def;
	if (rung_dt_size(dt) == 0)
		return rung_error_set(RUNG_EINVAL, "check %s: unknown dtype %d", output ? output : "?", (int)dt);
	if (n < 0 || (n > 0 && (!got || !ref)))
		return rung_error_set(RUNG_EINVAL, "check %s: bad buffers", output ? output : "?");
	if (!o) {
		rung_check_opts_default(&def, dt);
		o = &def;
	}
	const char *name = output ? output : "output";
	bool is_float = dt == RUNG_DT_F64 || dt == RUNG_DT_F32 || dt == RUNG_DT_F16 || dt == RUNG_DT_BF16;
	bool is_int = !is_float;

	rung_dimset dims = m->dims;
	uint64_t seed = m->seed;
	memset(m, 0, sizeof *m);
	m->dims = dims;
	m->seed = seed;
	snprintf(m->output, sizeof m->output, "%s", name);
	m->n = n;
	m->has_ulp = is_float;

	/* pass 1: peak |ref| over finite values */
	double peak = 0;
	for (int64_t i = 0; i < n; i++) {
		double r = fabs(rung_load_double(ref, dt, i));
		if (r > peak && r != INFINITY)
			peak = r;
	}
	m->peak = peak;
	double atol = o->atol_scaled ? o->atol * peak : o->atol;
	double rtol = o->rtol;

	size_t es = rung_dt_size(dt);
	uint8_t pat[8];
	rung_poison_bits(pat, dt, o->poison_variant);

	int64_t nfinite = 0, bad_nan = 0, bad_inf = 0, first_unwritten = -1, first_nan = -1, first_inf = -1;
	int64_t worst = -1;
	double worst_excess = -1, worst_rel = 0;
	double max_abs = 0, max_rel = 0;
	neum s_abs = { 0, 0 }, s_sq = { 0, 0 }, s_dot = { 0, 0 }, s_gg = { 0, 0 }, s_rr = { 0, 0 };
	double b_abs = 0, b_sq = 0, b_dot = 0, b_gg = 0, b_rr = 0;
	int inblock = 0;

	for (int64_t i = 0; i < n; i++) {
		double g = rung_load_double(got, dt, i);
		double r = rung_load_double(ref, dt, i);
		bool mismatch = false;
		int ubin = -1;

		if (o->check_poison && memcmp((const char *)got + (size_t)i * es, pat, es) == 0 &&
		    memcmp((const char *)ref + (size_t)i * es, pat, es) != 0) {
			m->unwritten++;
			if (first_unwritten < 0)
				first_unwritten = i;
			mismatch = true;
			ubin = RUNG_ULP_BINS - 1;
		} else if (isnan(g) || isnan(r) || isinf(g) || isinf(r)) {
			if (isnan(g))
				m->nan_count++;
			else if (isinf(g))
				m->inf_count++;
			bool equal = (isnan(g) && isnan(r)) || (!isnan(g) && g == r);
			if (!equal) {
				mismatch = true;
				if (isnan(g)) {
					bad_nan++;
					if (first_nan < 0)
						first_nan = i;
				} else if (isinf(g)) {
					bad_inf++;
					if (first_inf < 0)
						first_inf = i;
				}
			}
			ubin = equal ? 0 : RUNG_ULP_BINS - 1;
		} else {
			double d = fabs(g - r), ar = fabs(r);
			nfinite++;
			b_abs += d;
			b_sq += d * d;
			b_dot += g * r;
			b_gg += g * g;
			b_rr += r * r;
			if (++inblock == BLOCK) {
				neum_add(&s_abs, b_abs); neum_add(&s_sq, b_sq); neum_add(&s_dot, b_dot);
				neum_add(&s_gg, b_gg); neum_add(&s_rr, b_rr);
				b_abs = b_sq = b_dot = b_gg = b_rr = 0;
				inblock = 0;
			}
			if (d > max_abs)
				max_abs = d;
			double den = ar > atol ? ar : atol;
			double rel = den > 0 ? d / den : (d > 0 ? INFINITY : 0);
			if (rel > max_rel)
				max_rel = rel;
			if (is_int && atol == 0 && rtol == 0) {
				/* exact compare on the raw integers (i64 beyond 2^53) */
				mismatch = memcmp((const char *)got + (size_t)i * es, (const char *)ref + (size_t)i * es, es) != 0;
			} else {
				mismatch = d > atol + rtol * ar;
			}
			if (mismatch) {
				double tol = atol + rtol * ar;
				double ex = tol > 0 ? d / tol : INFINITY;
				if (ex > worst_excess) {
					worst_excess = ex;
					worst = i;
					worst_rel = rel;
				}
			}
		}
		if (is_float) {
			if (ubin < 0)
				ubin = rung_ulp_bin(ulp_dist(got, ref, dt, i));
			m->ulp_hist[ubin]++;
		}
		if (mismatch) {
			if (m->nbad < RUNG_MAX_BAD) {
				int k = m->nbad++;
				m->bad_index[k] = i;
				m->bad_rank = rung_unflatten(m->bad_coord[k], i, rank, shape, n);
				m->bad_got[k] = g;
				m->bad_expected[k] = r;
			}
			m->mismatches++;
		}
	}
	neum_add(&s_abs, b_abs); neum_add(&s_sq, b_sq); neum_add(&s_dot, b_dot);
	neum_add(&s_gg, b_gg); neum_add(&s_rr, b_rr);
	double sum_abs = s_abs.sum + s_abs.c, sum_sq = s_sq.sum + s_sq.c;
	double dot = s_dot.sum + s_dot.c, gg = s_gg.sum + s_gg.c, rr = s_rr.sum + s_rr.c;

	if (nfinite > 0) {
		m->max_abs = max_abs;
		m->max_rel = max_rel;
		m->mae = sum_abs / (double)nfinite;
		m->mse = sum_sq / (double)nfinite;
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
			double c = dot / (sqrt(gg) * sqrt(rr));
			m->cossim = c > 1 ? 1 : c < -1 ? -1 : c;
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
		crank = rung_unflatten(coord, first_unwritten, rank, shape, n);
		rung_fmt_coord(c1, sizeof c1, coord, crank);
		reasonf(m, "unwritten %" PRId64 " elements of %s (poison left), first at %s",
			 m->unwritten, name, c1);
		m->pass = false;
	} else if (bad_nan > 0) {
		crank = rung_unflatten(coord, first_nan, rank, shape, n);
		rung_fmt_coord(c1, sizeof c1, coord, crank);
		reasonf(m, "%" PRId64 " NaN in %s, first at %s", bad_nan, name, c1);
		m->pass = false;
	} else if (bad_inf > 0) {
		crank = rung_unflatten(coord, first_inf, rank, shape, n);
		rung_fmt_coord(c1, sizeof c1, coord, crank);
		reasonf(m, "%" PRId64 " Inf in %s, first at %s: expected %s", bad_inf, name, c1,
			 rung_fmt_double(v1, sizeof v1, rung_load_double(ref, dt, first_inf), 6));
		m->pass = false;
	} else if (m->mismatches > 0) {
		int64_t at = worst >= 0 ? worst : m->bad_index[0];
		crank = rung_unflatten(coord, at, rank, shape, n);
		rung_fmt_coord(c1, sizeof c1, coord, crank);
		rung_fmt_double(v1, sizeof v1, rung_load_double(got, dt, at), 6);
		rung_fmt_double(v2, sizeof v2, rung_load_double(ref, dt, at), 6);
		rung_fmt_double(v3, sizeof v3, atol, 2);
		if (worst >= 0)
			reasonf(m, "max_rel %.1e at %s: got %s expected %s; %" PRId64 " of %" PRId64
				 " elements of %s outside atol %s + rtol %.1e*|ref|", worst_rel, c1, v1, v2, m->mismatches, n,
				 name, v3, rtol);
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
	return 0;
}

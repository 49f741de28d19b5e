/* The streaming comparison's per-element and per-chunk code (core/metrics.h),
 * shared by the host (core/metrics.c) and rung's device metrics kernel
 * (gpu/kernels/check.cu, one thread per chunk of RUNG_METRICS_CHUNK elements,
 * merged in chunk order on the device): the same source and the same order of
 * operations in IEEE double with no contraction (core/hd.h), so the device's
 * accumulator has the host's bits. Anything added to the accumulator goes into
 * rung_hd_feed_one / rung_hd_merge here, so it runs on both sides. */
#ifndef RUNG_CORE_METRICS_HD_H
#define RUNG_CORE_METRICS_HD_H

#include "core/half_hd.h"
#include "core/hd.h"
#include "core/rng_hd.h"

/* core/result.h's RUNG_MAX_BAD and RUNG_ULP_BINS (checked in core/metrics.c) */
#define RUNG_HD_MAX_BAD 5
#define RUNG_HD_ULP_BINS 8
#define RUNG_HD_BLOCK 4096 /* finite elements per block of plain sums */
/* core/errmap.h's tiles and levels (checked in core/metrics.c) */
#define RUNG_HD_MAP_TILES 4096
#define RUNG_HD_MAP_EXCESS_MAX 9
#define RUNG_HD_MAP_INF 10
#define RUNG_HD_MAP_NAN 11
#define RUNG_HD_MAP_UNWRITTEN 12

typedef struct {
	double sum, c;
} rung_neum;

/* What the feed needs of a comparison (rung_metrics_begin fills it). */
typedef struct {
	int32_t dt, es, is_float, check_poison; /* check_poison: got holding `poison` (ref not) is unwritten */
	double atol, rtol;                      /* atol: effective (peak-scaled when the default) */
	uint64_t poison;                        /* the poison's bits (es bytes, zero-extended) */
	/* the error map's grid (core/errmap.h rung_err_map_geom): map_rows x map_cols
	 * tiles of map_th x map_tw over a map_h x map_w plane; map_rows 0: none */
	int32_t map_rows, map_cols;
	int64_t map_h, map_w, map_th, map_tw;
} rung_hd_feed;

/* Partial results over elements [start, end). */
typedef struct {
	int64_t start, end;
	int64_t nfinite, unwritten, nan_count, inf_count, bad_nan, bad_inf, mismatches;
	int64_t first_unwritten, first_nan, first_inf, worst;
	double first_inf_ref, worst_excess, worst_got, worst_ref; /* worst: furthest outside its tolerance */
	double max_abs, max_rel;
	double b_abs, b_sq, b_dot, b_gg, b_rr; /* the block being summed */
	int32_t inblock, nbad;
	rung_neum s_abs, s_sq, s_dot, s_gg, s_rr;
	uint64_t ulp_hist[RUNG_HD_ULP_BINS];
	int64_t bad_index[RUNG_HD_MAX_BAD];
	double bad_got[RUNG_HD_MAX_BAD], bad_expected[RUNG_HD_MAX_BAD];
	/* the error map of these elements: the largest level per tile (a max, so
	 * merging in any order gives the same map); map_any when one is not 0 */
	int32_t map_any;
	uint8_t map[RUNG_HD_MAP_TILES];
} rung_metrics_acc;

RUNG_HD double rung_hd_bits_to_double(int dt, uint64_t b)
{
	switch (dt) {
	case RUNG_HD_F64: return rung_hd_bitsd(b);
	case RUNG_HD_F32: return (double)rung_hd_bitsf((uint32_t)b);
	case RUNG_HD_F16: return (double)rung_hd_f16_to_f32((uint16_t)b);
	case RUNG_HD_BF16: return (double)rung_hd_bf16_to_f32((uint16_t)b);
	case RUNG_HD_I64: return (double)(int64_t)b;
	case RUNG_HD_I32: return (double)(int32_t)(uint32_t)b;
	default: return (double)(uint8_t)b;
	}
}

/* ULP histogram bin of a distance (0..RUNG_HD_ULP_BINS-2); the last bin is nan/inf mismatch. */
RUNG_HD int rung_hd_ulp_bin(uint64_t u)
{
	if (u == 0) return 0;
	if (u == 1) return 1;
	if (u < 4) return 2;
	if (u < 16) return 3;
	if (u < 256) return 4;
	if (u < 65536) return 5;
	return 6;
}

/* Distance in ulps of two float elements' bits (sign and magnitude). */
RUNG_HD uint64_t rung_hd_ulp_dist(int es, uint64_t g, uint64_t r)
{
	int sh = 8 * es - 1;
	uint64_t mask = (UINT64_C(1) << sh) - 1;
	uint64_t sg = g >> sh, sr = r >> sh, mg = g & mask, mr = r & mask;
	if (sg == sr)
		return mg > mr ? mg - mr : mr - mg;
	return mg + mr; /* across zero; < 2^64 since each magnitude < 2^63 */
}

RUNG_HD void rung_hd_neum_add(rung_neum *a, double v)
{
	double t = a->sum + v;
	if (fabs(a->sum) >= fabs(v))
		a->c += (a->sum - t) + v;
	else
		a->c += (v - t) + a->sum;
	a->sum = t;
}

/* The number of the accumulator's bytes before its map: what
 * rung_hd_acc_init_head clears and the device's feed keeps in fast local
 * memory (gpu/kernels/check.cu), the map being written where it is kept. */
RUNG_HD unsigned rung_hd_acc_head(const rung_metrics_acc *a)
{
	return (unsigned)((const char *)a->map - (const char *)a);
}

/* a's fields but its map (left as they are) cleared, for elements from start */
RUNG_HD void rung_hd_acc_init_head(rung_metrics_acc *a, int64_t start)
{
	char *p = (char *)a;
	for (unsigned k = 0, n = rung_hd_acc_head(a); k < n; k++)
		p[k] = 0;
	a->start = a->end = start;
	a->first_unwritten = a->first_nan = a->first_inf = a->worst = -1;
	a->worst_excess = -1;
}

/* a cleared whole, padding included, for elements from start */
RUNG_HD void rung_hd_acc_init(rung_metrics_acc *a, int64_t start)
{
	char *p = (char *)a;
	for (unsigned k = 0; k < sizeof *a; k++)
		p[k] = 0;
	rung_hd_acc_init_head(a, start);
}

/* The error map level of a finite mismatch of the given excess (> 1): k for
 * (10^(k-1), 10^k], 9 beyond and for inf or NaN (core/errmap.h). */
RUNG_HD int rung_hd_map_level(double excess)
{
	int lv = 1;
	double t = 10;
	if (rung_hd_isnan(excess))
		return RUNG_HD_MAP_EXCESS_MAX;
	while (lv < RUNG_HD_MAP_EXCESS_MAX && excess > t) {
		lv++;
		t *= 10;
	}
	return lv;
}

/* Element i (global index) with bits gb of got and rb of ref. Returns its
 * error map level (0 when within tolerance). */
RUNG_HD int rung_hd_feed_one(const rung_hd_feed *f, rung_metrics_acc *a, int64_t i, uint64_t gb, uint64_t rb)
{
	int dt = f->dt;
	double atol = f->atol, rtol = f->rtol;
	double g = rung_hd_bits_to_double(dt, gb), r = rung_hd_bits_to_double(dt, rb);
	int mismatch = 0, ubin = -1, level = 0;

	if (f->check_poison && gb == f->poison && rb != f->poison) {
		a->unwritten++;
		if (a->first_unwritten < 0)
			a->first_unwritten = i;
		mismatch = 1;
		ubin = RUNG_HD_ULP_BINS - 1;
		level = RUNG_HD_MAP_UNWRITTEN;
	} else if (rung_hd_isnan(g) || rung_hd_isnan(r) || rung_hd_isinf(g) || rung_hd_isinf(r)) {
		if (rung_hd_isnan(g))
			a->nan_count++;
		else if (rung_hd_isinf(g))
			a->inf_count++;
		int equal = (rung_hd_isnan(g) && rung_hd_isnan(r)) || (!rung_hd_isnan(g) && g == r);
		if (!equal) {
			mismatch = 1;
			level = rung_hd_isnan(g) ? RUNG_HD_MAP_NAN : rung_hd_isinf(g) ? RUNG_HD_MAP_INF : RUNG_HD_MAP_EXCESS_MAX;
			if (rung_hd_isnan(g)) {
				a->bad_nan++;
				if (a->first_nan < 0)
					a->first_nan = i;
			} else if (rung_hd_isinf(g)) {
				a->bad_inf++;
				if (a->first_inf < 0) {
					a->first_inf = i;
					a->first_inf_ref = r;
				}
			}
		}
		ubin = equal ? 0 : RUNG_HD_ULP_BINS - 1;
	} else {
		double d = fabs(g - r), ar = fabs(r);
		a->nfinite++;
		a->b_abs += d;
		a->b_sq += d * d;
		a->b_dot += g * r;
		a->b_gg += g * g;
		a->b_rr += r * r;
		if (++a->inblock == RUNG_HD_BLOCK) {
			rung_hd_neum_add(&a->s_abs, a->b_abs); rung_hd_neum_add(&a->s_sq, a->b_sq);
			rung_hd_neum_add(&a->s_dot, a->b_dot); rung_hd_neum_add(&a->s_gg, a->b_gg);
			rung_hd_neum_add(&a->s_rr, a->b_rr);
			a->b_abs = a->b_sq = a->b_dot = a->b_gg = a->b_rr = 0;
			a->inblock = 0;
		}
		if (d > a->max_abs)
			a->max_abs = d;
		double den = ar > atol ? ar : atol;
		double rel = den > 0 ? d / den : (d > 0 ? rung_hd_inf() : 0);
		if (rel > a->max_rel)
			a->max_rel = rel;
		if (!f->is_float && atol == 0 && rtol == 0)
			mismatch = gb != rb; /* exact compare on the raw integers (i64 beyond 2^53) */
		else
			mismatch = d > atol + rtol * ar;
		if (mismatch) {
			double tol = atol + rtol * ar;
			double ex = tol > 0 ? d / tol : rung_hd_inf();
			level = rung_hd_map_level(ex);
			if (ex > a->worst_excess) {
				a->worst_excess = ex;
				a->worst = i;
				a->worst_got = g;
				a->worst_ref = r;
			}
		}
	}
	if (f->is_float) {
		if (ubin < 0)
			ubin = rung_hd_ulp_bin(rung_hd_ulp_dist(f->es, gb, rb));
		a->ulp_hist[ubin]++;
	}
	if (mismatch) {
		if (a->nbad < RUNG_HD_MAX_BAD) {
			int k = a->nbad++;
			a->bad_index[k] = i;
			a->bad_got[k] = g;
			a->bad_expected[k] = r;
		}
		a->mismatches++;
	}
	return level;
}

/* count elements: got[0] and ref[0] are element a->end; advances a->end. The
 * element's place on the map's plane is advanced element by element (two
 * counters), and a tile is touched only for an element out of tolerance. The
 * tiles are map's (a's own, or one kept elsewhere: the device's feed writes its
 * chunk's map in place); a->map is not touched. */
RUNG_HD void rung_hd_feed_span_map(const rung_hd_feed *f, rung_metrics_acc *a, uint8_t *map, const void *got,
				   const void *ref, int64_t count)
{
	int mapped = f->map_rows > 0;
	int64_t col = mapped ? a->end % f->map_w : 0, row = mapped ? a->end / f->map_w % f->map_h : 0;
	for (int64_t j = 0; j < count; j++) {
		int lv = rung_hd_feed_one(f, a, a->end + j, rung_hd_load_bits(got, f->es, j), rung_hd_load_bits(ref, f->es, j));
		if (!mapped)
			continue;
		if (lv > 0) {
			uint8_t *t = &map[(row / f->map_th) * f->map_cols + col / f->map_tw];
			if (lv > *t)
				*t = (uint8_t)lv;
			a->map_any = 1;
		}
		if (++col == f->map_w) {
			col = 0;
			if (++row == f->map_h)
				row = 0;
		}
	}
	a->end += count;
}

/* The same, with a's own map. */
RUNG_HD void rung_hd_feed_span(const rung_hd_feed *f, rung_metrics_acc *a, const void *got, const void *ref,
			  int64_t count)
{
	rung_hd_feed_span_map(f, a, a->map, got, ref, count);
}

/* Adds the pending block into the compensated sums. */
RUNG_HD void rung_hd_acc_close(rung_metrics_acc *a)
{
	rung_hd_neum_add(&a->s_abs, a->b_abs); rung_hd_neum_add(&a->s_sq, a->b_sq); rung_hd_neum_add(&a->s_dot, a->b_dot);
	rung_hd_neum_add(&a->s_gg, a->b_gg); rung_hd_neum_add(&a->s_rr, a->b_rr);
	a->b_abs = a->b_sq = a->b_dot = a->b_gg = a->b_rr = 0;
	a->inblock = 0;
}

RUNG_HD void rung_hd_neum_merge(rung_neum *d, const rung_neum *s)
{
	rung_hd_neum_add(d, s->sum);
	d->c += s->c;
}

/* Adds src, which covers the elements right after d's, into d. */
RUNG_HD void rung_hd_merge(rung_metrics_acc *d, const rung_metrics_acc *src)
{
	/* s: src but its map, which is read from src (the device's one merging
	 * thread would copy 4 KiB per chunk for nothing) */
	rung_metrics_acc s;
	const char *from = (const char *)src;
	char *to = (char *)&s;
	for (unsigned k = 0, len = (unsigned)((const char *)&src->map_any - from); k < len; k++)
		to[k] = from[k];
	rung_hd_acc_close(d);
	rung_hd_acc_close(&s);
	rung_hd_neum_merge(&d->s_abs, &s.s_abs); rung_hd_neum_merge(&d->s_sq, &s.s_sq);
	rung_hd_neum_merge(&d->s_dot, &s.s_dot); rung_hd_neum_merge(&d->s_gg, &s.s_gg);
	rung_hd_neum_merge(&d->s_rr, &s.s_rr);
	d->nfinite += s.nfinite;
	d->unwritten += s.unwritten;
	d->nan_count += s.nan_count;
	d->inf_count += s.inf_count;
	d->bad_nan += s.bad_nan;
	d->bad_inf += s.bad_inf;
	d->mismatches += s.mismatches;
	if (d->first_unwritten < 0)
		d->first_unwritten = s.first_unwritten;
	if (d->first_nan < 0)
		d->first_nan = s.first_nan;
	if (d->first_inf < 0) {
		d->first_inf = s.first_inf;
		d->first_inf_ref = s.first_inf_ref;
	}
	if (s.worst_excess > d->worst_excess) { /* ties keep the earlier element, as a single pass does */
		d->worst_excess = s.worst_excess;
		d->worst = s.worst;
		d->worst_got = s.worst_got;
		d->worst_ref = s.worst_ref;
	}
	if (s.max_abs > d->max_abs)
		d->max_abs = s.max_abs;
	if (s.max_rel > d->max_rel)
		d->max_rel = s.max_rel;
	for (int k = 0; k < RUNG_HD_ULP_BINS; k++)
		d->ulp_hist[k] += s.ulp_hist[k];
	if (src->map_any) {
		for (int k = 0; k < RUNG_HD_MAP_TILES; k++)
			if (src->map[k] > d->map[k])
				d->map[k] = src->map[k];
		d->map_any = 1;
	}
	for (int k = 0; k < s.nbad && d->nbad < RUNG_HD_MAX_BAD; k++) {
		d->bad_index[d->nbad] = s.bad_index[k];
		d->bad_got[d->nbad] = s.bad_got[k];
		d->bad_expected[d->nbad] = s.bad_expected[k];
		d->nbad++;
	}
	d->end = s.end;
}

/* A 64-bit hash of one chunk of len bytes, as a sum: the 8-byte little-endian
 * words w_k (the last zero-padded) each mixed with their position, added modulo
 * 2^64, then mixed with len. Any order of the additions gives the same value, so
 * the device sums a chunk with many threads; one changed word always changes it
 * (mix64 is a bijection). */
RUNG_HD uint64_t rung_hd_hash_term(uint64_t k, uint64_t w)
{
	return rung_hd_mix64(w + (k + 1) * UINT64_C(0xD1B54A32D192ED03));
}

RUNG_HD uint64_t rung_hd_hash_final(uint64_t sum, uint64_t len)
{
	return rung_hd_mix64(sum ^ rung_hd_mix64(len + UINT64_C(0x6a09e667f3bcc909)));
}

#endif

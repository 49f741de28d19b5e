/* The element function of rung's input streams (core/rng.h), shared by the host
 * fill (core/rng.c) and the device fill (gpu/kernels/check.cu): element i of a
 * stream is a pure function of (key, i), computed with integer arithmetic and
 * correctly rounded double operations only (core/hd.h), so the host and the
 * device give the same bytes. randn's Box-Muller needs a log and a sine/cosine:
 * rung's own (rung_hd_log, rung_hd_sincos_turn: range reduction and a
 * polynomial, within a few ulps of the true value), not libm's or libdevice's,
 * which differ in the last bits. */
#ifndef RUNG_CORE_RNG_HD_H
#define RUNG_CORE_RNG_HD_H

#include "core/half_hd.h"
#include "core/hd.h"

#define RUNG_HD_GOLDEN UINT64_C(0x9E3779B97F4A7C15)

/* rung_init_kind's codes (core/spec.h; checked in core/rng.c) */
enum { RUNG_HD_RANDN, RUNG_HD_UNIFORM, RUNG_HD_ONES, RUNG_HD_ZEROS, RUNG_HD_ARANGE, RUNG_HD_NPY, RUNG_HD_WIDE,
       RUNG_HD_CONSTANT, RUNG_HD_INTS, RUNG_HD_SPECIAL };
#define RUNG_HD_WIDE_BLOCK 4096
#define RUNG_HD_INTS_MAX 8
/* special: blocks of this many elements, one kind of block each (rung_hd_special) */
#define RUNG_HD_SPECIAL_BLOCK 256
/* the special values, bit k of a mask (core/rng.h RUNG_SPECIAL_LIST has the names) */
enum { RUNG_HD_SP_NEG_INF, RUNG_HD_SP_POS_INF, RUNG_HD_SP_NAN, RUNG_HD_SP_NEG_ZERO, RUNG_HD_SP_SUBNORMAL, RUNG_HD_SP_MAX,
       RUNG_HD_SP_COUNT };

RUNG_HD uint64_t rung_hd_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

RUNG_HD uint64_t rung_hd_u64(uint64_t key, uint64_t i)
{
	return rung_hd_mix64(key + (i + 1) * RUNG_HD_GOLDEN);
}

RUNG_HD double rung_hd_uniform(uint64_t key, uint64_t i)
{
	return (double)(rung_hd_u64(key, i) >> 11) * 0x1.0p-53;
}

/* Natural log of a finite normal x > 0: x = 2^E m with m in [sqrt(1/2), sqrt(2)),
 * log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.1716, by its series to s^23;
 * E ln 2 with ln 2 split in two (E * ln2_hi is exact). Within 2 ulps. */
RUNG_HD double rung_hd_log(double x)
{
	uint64_t u = rung_hd_dbits(x);
	int E = (int)((u >> 52) & 0x7ff) - 1023;
	double m = rung_hd_bitsd((u & ((UINT64_C(1) << 52) - 1)) | UINT64_C(0x3ff0000000000000));
	if (m > 0x1.6a09e667f3bcdp+0) {
		m = m * 0.5;
		E++;
	}
	double s = (m - 1.0) / (m + 1.0), z = s * s;
	double p = 0x1.642c8590b2164p-5;
	p = 0x1.8618618618618p-5 + z * p;
	p = 0x1.af286bca1af28p-5 + z * p;
	p = 0x1.e1e1e1e1e1e1ep-5 + z * p;
	p = 0x1.1111111111111p-4 + z * p;
	p = 0x1.3b13b13b13b14p-4 + z * p;
	p = 0x1.745d1745d1746p-4 + z * p;
	p = 0x1.c71c71c71c71cp-4 + z * p;
	p = 0x1.2492492492492p-3 + z * p;
	p = 0x1.999999999999ap-3 + z * p;
	p = 0x1.5555555555555p-2 + z * p;
	double lm = 2.0 * s + (2.0 * s) * (z * p);
	double e = (double)E;
	return e * 0x1.62e42fee00000p-1 + (e * 0x1.a39ef35793c76p-33 + lm);
}

/* sin and cos of 2 pi u for u in [0, 1) a multiple of 2^-53: 4u = q + f exactly
 * (q the quadrant, f in [-1/2, 1/2)), r = f * pi/2 (|r| <= pi/4), Taylor
 * polynomials of sin to r^19 and cos to r^18, then the quadrant's signs. */
RUNG_HD void rung_hd_sincos_turn(double u, double *sn, double *cs)
{
	double q4 = 4.0 * u, qf = floor(q4), f = q4 - qf;
	int q = (int)qf;
	if (f >= 0.5) {
		f = f - 1.0;
		q++;
	}
	double r = f * 0x1.921fb54442d18p+0, z = r * r;
	double ps = -0x1.2f49b46814157p-57;
	ps = 0x1.952c77030ad4ap-49 + z * ps;
	ps = -0x1.ae7f3e733b81fp-41 + z * ps;
	ps = 0x1.6124613a86d09p-33 + z * ps;
	ps = -0x1.ae64567f544e4p-26 + z * ps;
	ps = 0x1.71de3a556c734p-19 + z * ps;
	ps = -0x1.a01a01a01a01ap-13 + z * ps;
	ps = 0x1.1111111111111p-7 + z * ps;
	ps = -0x1.5555555555555p-3 + z * ps;
	double s = r + (r * z) * ps;
	double pc = -0x1.6827863b97d97p-53;
	pc = 0x1.ae7f3e733b81fp-45 + z * pc;
	pc = -0x1.93974a8c07c9dp-37 + z * pc;
	pc = 0x1.1eed8eff8d898p-29 + z * pc;
	pc = -0x1.27e4fb7789f5cp-22 + z * pc;
	pc = 0x1.a01a01a01a01ap-16 + z * pc;
	pc = -0x1.6c16c16c16c17p-10 + z * pc;
	pc = 0x1.5555555555555p-5 + z * pc;
	pc = -0.5 + z * pc;
	double c = 1.0 + z * pc;
	switch (q & 3) {
	case 0: *sn = s; *cs = c; break;
	case 1: *sn = c; *cs = -s; break;
	case 2: *sn = -s; *cs = -c; break;
	default: *sn = -c; *cs = s; break;
	}
}

/* Box-Muller on the pair p: elements 2p (cosine branch) and 2p + 1 (sine). */
RUNG_HD void rung_hd_normal_pair(uint64_t key, uint64_t p, double *z0, double *z1)
{
	/* u1 in (0, 1] so the log is finite */
	double u1 = (double)((rung_hd_u64(key, 2 * p) >> 11) + 1) * 0x1.0p-53;
	double u2 = rung_hd_uniform(key, 2 * p + 1);
	double r = sqrt(-2.0 * rung_hd_log(u1));
	double s, c;
	rung_hd_sincos_turn(u2, &s, &c);
	*z0 = r * c;
	*z1 = r * s;
}

/* A double stored as dtype dt (rung_store_double): RNE to the float formats;
 * integers truncate, saturate, NaN to 0 (u8: to [0, 255]). */
RUNG_HD uint64_t rung_hd_to_bits(int dt, double v)
{
	switch (dt) {
	case RUNG_HD_F64: return rung_hd_dbits(v);
	case RUNG_HD_F32: return rung_hd_fbits((float)v);
	case RUNG_HD_F16: return rung_hd_narrow(v, 5, 10);
	case RUNG_HD_BF16: return rung_hd_narrow(v, 8, 7);
	case RUNG_HD_I64:
		return (uint64_t)(v != v ? 0 : v >= 0x1p63 ? INT64_C(0x7fffffffffffffff) : v <= -0x1p63 ? -INT64_C(0x7fffffffffffffff) - 1 : (int64_t)v);
	case RUNG_HD_I32:
		return (uint32_t)(v != v ? 0 : v >= 2147483647.0 ? 2147483647 : v <= -2147483648.0 ? -2147483647 - 1 : (int32_t)v);
	case RUNG_HD_U8: return v != v || v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)v;
	default: return 0;
	}
}

/* randn-like values (randn, wide, constant, ints) into dt: integers round to nearest first. */
RUNG_HD uint64_t rung_hd_to_bits_rn(int dt, double v)
{
	if (!rung_hd_is_float(dt))
		v = rint(v);
	return rung_hd_to_bits(dt, v);
}

/* One stream's parameters (core/rng.c rung_gen_params makes them). */
typedef struct {
	int32_t dt, init;
	double a, b; /* uniform's bounds */
	double w;    /* wide: the offset W (rung_wide_offset) */
	double c;    /* constant: the value of every element */
	uint64_t key;
	uint32_t special; /* special: the mask of values it may draw (bit RUNG_HD_SP_*) */
	uint32_t pad;
} rung_hd_gen;

/* The mantissa bits of a float dtype (the exponent is above them, the sign on top). */
RUNG_HD int rung_hd_mant_bits(int dt)
{
	return dt == RUNG_HD_F64 ? 52 : dt == RUNG_HD_F32 ? 23 : dt == RUNG_HD_F16 ? 10 : 7;
}

/* Element i of the special distribution (float dtypes), given z, its randn value.
 * The elements are cut into blocks of RUNG_HD_SPECIAL_BLOCK (whole rows of a row
 * length that is a multiple of it, tiles of others); a draw per block keeps 3 in
 * 4 blocks randn and makes the others one kind each, among the kinds the mask
 * allows (none: every block randn):
 *   -inf      the first k elements of the block -inf (k from 1 to the whole block:
 *             a masked row head, or a masked tile), the rest randn;
 *   +inf, nan one element of the block +inf or a quiet NaN, the rest randn;
 *   -0        every element -0;
 *   subnormal every element a subnormal of the dtype (random sign and mantissa);
 *   max       one element +-the largest finite value of the dtype, the rest randn. */
RUNG_HD uint64_t rung_hd_special(const rung_hd_gen *g, uint64_t i, double z)
{
	int dt = g->dt, mb = rung_hd_mant_bits(dt), top = 8 * rung_hd_dt_size(dt) - 1;
	uint64_t sign = UINT64_C(1) << top, mant = (UINT64_C(1) << mb) - 1;
	uint64_t expo = (sign - 1) & ~mant; /* all ones */
	uint64_t blk = i / RUNG_HD_SPECIAL_BLOCK, q = i % RUNG_HD_SPECIAL_BLOCK;
	uint64_t h = rung_hd_u64(g->key ^ UINT64_C(0x7370656369616c), blk); /* "special" */
	int n = 0;
	for (int k = 0; k < RUNG_HD_SP_COUNT; k++)
		n += (int)((g->special >> k) & 1);
	if ((h & 3) != 0 || n == 0)
		return rung_hd_to_bits_rn(dt, z);
	int pick = (int)((h >> 8) % (uint64_t)n), kind = 0;
	for (int k = 0; k < RUNG_HD_SP_COUNT; k++)
		if ((g->special >> k) & 1 && pick-- == 0) {
			kind = k;
			break;
		}
	uint64_t at = (h >> 32) % RUNG_HD_SPECIAL_BLOCK; /* the element, or the head's length - 1 */
	uint64_t e = rung_hd_u64(g->key ^ UINT64_C(0x7370656369616d), i); /* per element */
	switch (kind) {
	case RUNG_HD_SP_NEG_INF: return q <= at ? sign | expo : rung_hd_to_bits_rn(dt, z);
	case RUNG_HD_SP_POS_INF: return q == at ? expo : rung_hd_to_bits_rn(dt, z);
	case RUNG_HD_SP_NAN: return q == at ? expo | (UINT64_C(1) << (mb - 1)) : rung_hd_to_bits_rn(dt, z);
	case RUNG_HD_SP_NEG_ZERO: return sign;
	case RUNG_HD_SP_SUBNORMAL: {
		uint64_t m = e & mant;
		return (e >> 63 ? sign : 0) | (m ? m : 1);
	}
	default: /* max */
		return q == at ? ((h >> 31) & 1 ? sign : 0) | (expo - (UINT64_C(1) << mb)) | mant : rung_hd_to_bits_rn(dt, z);
	}
}

/* Element i's bits, given z, its randn value (used by randn and wide only). */
RUNG_HD uint64_t rung_hd_gen_elem(const rung_hd_gen *g, uint64_t i, double z)
{
	int dt = g->dt;
	switch (g->init) {
	case RUNG_HD_ZEROS: return 0;
	case RUNG_HD_ONES: return rung_hd_to_bits(dt, 1.0);
	case RUNG_HD_ARANGE:
		if (dt == RUNG_HD_U8)
			return i & 0xff;
		if (dt == RUNG_HD_I64)
			return i;
		return rung_hd_to_bits(dt, (double)(int64_t)i);
	case RUNG_HD_UNIFORM: {
		double v = g->a + (g->b - g->a) * rung_hd_uniform(g->key, i);
		if (!rung_hd_is_float(dt)) {
			v = floor(v);
			if (v >= g->b && g->b > g->a) /* rounding of a + (b-a)u can reach b */
				v = ceil(g->b) - 1;
		}
		return rung_hd_to_bits(dt, v);
	}
	case RUNG_HD_RANDN: return rung_hd_to_bits_rn(dt, z);
	case RUNG_HD_WIDE: {
		double v = g->w + (g->w / 10) * z;
		return rung_hd_to_bits_rn(dt, ((i / RUNG_HD_WIDE_BLOCK) & 1) ? -v : v);
	}
	case RUNG_HD_CONSTANT: return rung_hd_to_bits_rn(dt, g->c);
	case RUNG_HD_SPECIAL: return rung_hd_special(g, i, z);
	case RUNG_HD_INTS: {
		/* the top 32 bits scaled to [0, 2 * INTS_MAX + 1) (multiply-shift, no rounding) */
		uint64_t hi = rung_hd_u64(g->key, i) >> 32;
		int64_t k = (int64_t)((hi * (2 * RUNG_HD_INTS_MAX + 1)) >> 32);
		return rung_hd_to_bits_rn(dt, (double)(k - RUNG_HD_INTS_MAX));
	}
	default: return 0;
	}
}

/* Elements 2p and 2p + 1 (one Box-Muller pair for randn and wide). */
RUNG_HD void rung_hd_gen_pair(const rung_hd_gen *g, uint64_t p, uint64_t *b0, uint64_t *b1)
{
	double z0 = 0, z1 = 0;
	if (g->init == RUNG_HD_RANDN || g->init == RUNG_HD_WIDE || g->init == RUNG_HD_SPECIAL)
		rung_hd_normal_pair(g->key, p, &z0, &z1);
	*b0 = rung_hd_gen_elem(g, 2 * p, z0);
	*b1 = rung_hd_gen_elem(g, 2 * p + 1, z1);
}

#endif

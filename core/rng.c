/* Counter-based RNG and buffer fill (see rng.h for the stream definition). */
#include "core/rng.h"

#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "core/half.h"
#include "core/par.h"
#include "core/rng_hd.h"

/* the codes of core/hd.h and core/rng_hd.h are rung_dtype's and rung_init_kind's */
#define SAME(x, y) _Static_assert((int)(x) == (int)(y), #x)
SAME(RUNG_DT_F64, RUNG_HD_F64); SAME(RUNG_DT_F32, RUNG_HD_F32); SAME(RUNG_DT_F16, RUNG_HD_F16);
SAME(RUNG_DT_BF16, RUNG_HD_BF16); SAME(RUNG_DT_I64, RUNG_HD_I64); SAME(RUNG_DT_I32, RUNG_HD_I32);
SAME(RUNG_DT_U8, RUNG_HD_U8);
SAME(RUNG_INIT_RANDN, RUNG_HD_RANDN); SAME(RUNG_INIT_UNIFORM, RUNG_HD_UNIFORM); SAME(RUNG_INIT_ONES, RUNG_HD_ONES);
SAME(RUNG_INIT_ZEROS, RUNG_HD_ZEROS); SAME(RUNG_INIT_ARANGE, RUNG_HD_ARANGE); SAME(RUNG_INIT_NPY, RUNG_HD_NPY);
SAME(RUNG_INIT_WIDE, RUNG_HD_WIDE); SAME(RUNG_INIT_CONSTANT, RUNG_HD_CONSTANT); SAME(RUNG_INIT_INTS, RUNG_HD_INTS);
SAME(RUNG_WIDE_BLOCK, RUNG_HD_WIDE_BLOCK); SAME(RUNG_INTS_MAX, RUNG_HD_INTS_MAX);
SAME(RUNG_INIT_SPECIAL, RUNG_HD_SPECIAL); SAME(RUNG_NSPECIAL, RUNG_HD_SP_COUNT);
SAME(RUNG_SPECIAL_NEG_INF, RUNG_HD_SP_NEG_INF); SAME(RUNG_SPECIAL_POS_INF, RUNG_HD_SP_POS_INF);
SAME(RUNG_SPECIAL_NAN, RUNG_HD_SP_NAN); SAME(RUNG_SPECIAL_NEG_ZERO, RUNG_HD_SP_NEG_ZERO);
SAME(RUNG_SPECIAL_SUBNORMAL, RUNG_HD_SP_SUBNORMAL); SAME(RUNG_SPECIAL_MAX, RUNG_HD_SP_MAX);
#undef SAME

#define GOLDEN RUNG_HD_GOLDEN

uint64_t rung_hash_str(const char *s)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	if (!s)
		return h;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

uint64_t rung_mix64(uint64_t z)
{
	return rung_hd_mix64(z);
}

uint64_t rung_rng_key(uint64_t seed, const char *argname)
{
	return rung_mix64(seed ^ rung_hash_str(argname));
}

uint64_t rung_rng_u64(uint64_t key, uint64_t i)
{
	return rung_hd_u64(key, i);
}

double rung_rng_uniform(uint64_t key, uint64_t i)
{
	return rung_hd_uniform(key, i);
}

double rung_rng_normal(uint64_t key, uint64_t i)
{
	double z0, z1;
	rung_hd_normal_pair(key, i >> 1, &z0, &z1);
	return (i & 1) ? z1 : z0;
}

double rung_rng_log(double x)
{
	return rung_hd_log(x);
}

void rung_rng_sincos_turn(double u, double *s, double *c)
{
	rung_hd_sincos_turn(u, s, c);
}

size_t rung_dt_size(rung_dtype dt)
{
	switch (dt) {
	case RUNG_DT_F64: case RUNG_DT_I64: return 8;
	case RUNG_DT_F32: case RUNG_DT_I32: return 4;
	case RUNG_DT_F16: case RUNG_DT_BF16: return 2;
	case RUNG_DT_U8: return 1;
	default: return 0;
	}
}

void rung_store_double(void *buf, rung_dtype dt, int64_t i, double v)
{
	if (rung_dt_size(dt))
		rung_hd_store_bits(buf, (int)rung_dt_size(dt), i, rung_hd_to_bits((int)dt, v));
}

double rung_load_double(const void *buf, rung_dtype dt, int64_t i)
{
	switch (dt) {
	case RUNG_DT_F64: return ((const double *)buf)[i];
	case RUNG_DT_F32: return ((const float *)buf)[i];
	case RUNG_DT_F16: return rung_f16_to_f64(((const uint16_t *)buf)[i]);
	case RUNG_DT_BF16: return rung_bf16_to_f64(((const uint16_t *)buf)[i]);
	case RUNG_DT_I64: return (double)((const int64_t *)buf)[i];
	case RUNG_DT_I32: return ((const int32_t *)buf)[i];
	case RUNG_DT_U8: return ((const uint8_t *)buf)[i];
	default: return NAN;
	}
}

static int is_int(rung_dtype dt)
{
	return dt == RUNG_DT_I64 || dt == RUNG_DT_I32 || dt == RUNG_DT_U8;
}

double rung_wide_offset(rung_dtype dt)
{
	return dt == RUNG_DT_F16 ? 100.0 : 1000.0;
}

static uint32_t special_mask = RUNG_SPECIAL_ALL;

void rung_special_mask_set(uint32_t mask)
{
	special_mask = mask & RUNG_SPECIAL_ALL;
}

uint32_t rung_special_mask(void)
{
	return special_mask;
}

void rung_gen_params(rung_hd_gen *g, rung_dtype dt, rung_init_kind init, double a, double b, uint64_t seed,
		     const char *argname)
{
	memset(g, 0, sizeof *g);
	g->dt = (int32_t)dt;
	g->init = (int32_t)init;
	g->a = a;
	g->b = b;
	g->key = rung_rng_key(seed, argname);
	if (init == RUNG_INIT_WIDE)
		g->w = rung_wide_offset(dt);
	if (init == RUNG_INIT_SPECIAL)
		g->special = special_mask;
	if (init == RUNG_INIT_CONSTANT)
		g->c = a < b ? a + (b - a) * rung_rng_uniform(g->key, 0) : rung_rng_normal(g->key, 0);
}

/* Elements [start, start + n) pair by pair (rung_hd_gen_pair: one Box-Muller
 * pair gives two randn elements); an odd start or end takes half a pair. */
static void fill_pairs(void *buf, int es, int64_t start, int64_t n, const rung_hd_gen *g)
{
	int64_t j = 0;
	uint64_t b0, b1;
	if (n > 0 && (start & 1)) { /* odd start: the second half of a pair */
		rung_hd_gen_pair(g, (uint64_t)start >> 1, &b0, &b1);
		rung_hd_store_bits(buf, es, 0, b1);
		j = 1;
	}
	for (; j + 1 < n; j += 2) {
		rung_hd_gen_pair(g, (uint64_t)(start + j) >> 1, &b0, &b1);
		rung_hd_store_bits(buf, es, j, b0);
		rung_hd_store_bits(buf, es, j + 1, b1);
	}
	if (j < n) { /* even last element: the first half alone */
		rung_hd_gen_pair(g, (uint64_t)(start + j) >> 1, &b0, &b1);
		rung_hd_store_bits(buf, es, j, b0);
	}
}

int rung_fill_at(void *buf, rung_dtype dt, int64_t start, int64_t n, rung_init_kind init, double a,
		 double b, uint64_t seed, const char *argname)
{
	if (rung_dt_size(dt) == 0)
		return rung_error_set(RUNG_EINVAL, "fill %s: unknown dtype %d", argname ? argname : "?", (int)dt);
	if (n < 0 || start < 0)
		return rung_error_set(RUNG_EINVAL, "fill %s: negative element count", argname ? argname : "?");
	if (n > 0 && !buf)
		return rung_error_set(RUNG_EINVAL, "fill %s: no buffer", argname ? argname : "?");
	if ((init == RUNG_INIT_WIDE || init == RUNG_INIT_CONSTANT || init == RUNG_INIT_INTS || init == RUNG_INIT_SPECIAL) &&
	    is_int(dt))
		return rung_error_set(RUNG_EINVAL, "fill %s: the %s distribution needs a float dtype, not %s",
				      argname ? argname : "?",
				      init == RUNG_INIT_WIDE ? "wide" : init == RUNG_INIT_INTS ? "ints" : init == RUNG_INIT_SPECIAL ? "special" : "constant",
				      rung_dtype_name(dt));
	switch (init) {
	case RUNG_INIT_ZEROS:
		memset(buf, 0, (size_t)n * rung_dt_size(dt));
		return 0;
	case RUNG_INIT_UNIFORM:
		if (!(b >= a))
			return rung_error_set(RUNG_EINVAL, "fill %s: uniform(%g, %g) needs a <= b", argname ? argname : "?", a, b);
		break;
	case RUNG_INIT_ONES: case RUNG_INIT_ARANGE: case RUNG_INIT_RANDN: case RUNG_INIT_WIDE: case RUNG_INIT_CONSTANT:
	case RUNG_INIT_INTS: case RUNG_INIT_SPECIAL:
		break;
	default:
		return rung_error_set(RUNG_EINVAL, "fill %s: init kind %d is not generated (npy is loaded, not filled)",
				      argname ? argname : "?", (int)init);
	}
	rung_hd_gen g;
	rung_gen_params(&g, dt, init, a, b, seed, argname);
	fill_pairs(buf, (int)rung_dt_size(dt), start, n, &g);
	return 0;
}

int rung_fill(void *buf, rung_dtype dt, int64_t n, rung_init_kind init, double a, double b,
	      uint64_t seed, const char *argname)
{
	return rung_fill_at(buf, dt, 0, n, init, a, b, seed, argname);
}

#define PAR_CHUNK (INT64_C(1) << 16)

typedef struct {
	char *buf;
	rung_dtype dt;
	int64_t start, n;
	rung_init_kind init;
	double a, b;
	uint64_t seed;
	const char *name;
} fill_job;

static void fill_chunk(void *ud, int64_t item)
{
	const fill_job *f = ud;
	int64_t off = item * PAR_CHUNK;
	int64_t k = f->n - off < PAR_CHUNK ? f->n - off : PAR_CHUNK;
	/* arguments were validated by the caller: this cannot fail */
	rung_fill_at(f->buf + (size_t)off * rung_dt_size(f->dt), f->dt, f->start + off, k, f->init, f->a, f->b, f->seed,
		     f->name);
}

int rung_fill_par(void *buf, rung_dtype dt, int64_t start, int64_t n, rung_init_kind init, double a,
		  double b, uint64_t seed, const char *argname)
{
	int rc = rung_fill_at(buf, dt, start, 0, init, a, b, seed, argname); /* validates */
	if (rc)
		return rc;
	if (n < 0)
		return rung_error_set(RUNG_EINVAL, "fill %s: negative element count", argname ? argname : "?");
	if (n > 0 && !buf)
		return rung_error_set(RUNG_EINVAL, "fill %s: no buffer", argname ? argname : "?");
	if (n <= PAR_CHUNK)
		return rung_fill_at(buf, dt, start, n, init, a, b, seed, argname);
	fill_job f = { buf, dt, start, n, init, a, b, seed, argname };
	rung_par_for((n + PAR_CHUNK - 1) / PAR_CHUNK, fill_chunk, &f);
	return 0;
}

uint64_t rung_seed_derive(uint64_t base, int index)
{
	return rung_mix64(base + (uint64_t)(index + 1) * GOLDEN);
}

uint64_t rung_seed_fresh(void)
{
	uint64_t s = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t got = read(fd, &s, sizeof s);
		close(fd);
		if (got == (ssize_t)sizeof s && s != 0)
			return s;
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	s = (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
	s ^= (uint64_t)getpid() << 32;
	s ^= (uint64_t)clock();
	return rung_mix64(s);
}

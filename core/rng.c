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

#define GOLDEN UINT64_C(0x9E3779B97F4A7C15)

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
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

uint64_t rung_rng_key(uint64_t seed, const char *argname)
{
	return rung_mix64(seed ^ rung_hash_str(argname));
}

uint64_t rung_rng_u64(uint64_t key, uint64_t i)
{
	return rung_mix64(key + (i + 1) * GOLDEN);
}

double rung_rng_uniform(uint64_t key, uint64_t i)
{
	return (double)(rung_rng_u64(key, i) >> 11) * 0x1.0p-53;
}

double rung_rng_normal(uint64_t key, uint64_t i)
{
	uint64_t p = i >> 1;
	/* u1 in (0, 1] so log() is finite */
	double u1 = (double)((rung_rng_u64(key, 2 * p) >> 11) + 1) * 0x1.0p-53;
	double u2 = rung_rng_uniform(key, 2 * p + 1);
	double r = sqrt(-2.0 * log(u1));
	double t = 2.0 * M_PI * u2;
	return (i & 1) ? r * sin(t) : r * cos(t);
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
	switch (dt) {
	case RUNG_DT_F64: ((double *)buf)[i] = v; break;
	case RUNG_DT_F32: ((float *)buf)[i] = (float)v; break;
	case RUNG_DT_F16: ((uint16_t *)buf)[i] = rung_f64_to_f16(v); break;
	case RUNG_DT_BF16: ((uint16_t *)buf)[i] = rung_f64_to_bf16(v); break;
	case RUNG_DT_I64: ((int64_t *)buf)[i] = isnan(v) ? 0 : v >= 0x1p63 ? INT64_MAX : v <= -0x1p63 ? INT64_MIN : (int64_t)v; break;
	case RUNG_DT_I32: ((int32_t *)buf)[i] = isnan(v) ? 0 : v >= 2147483647.0 ? INT32_MAX : v <= -2147483648.0 ? INT32_MIN : (int32_t)v; break;
	case RUNG_DT_U8: ((uint8_t *)buf)[i] = isnan(v) || v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)v; break;
	default: break;
	}
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

static void store_randn(void *buf, rung_dtype dt, int64_t j, double v)
{
	if (dt == RUNG_DT_F32) {
		((float *)buf)[j] = (float)v;
		return;
	}
	if (is_int(dt))
		v = nearbyint(v);
	rung_store_double(buf, dt, j, v);
}

double rung_wide_offset(rung_dtype dt)
{
	return dt == RUNG_DT_F16 ? 100.0 : 1000.0;
}

/* Element j (stream index i) of a normal fill: z itself (w == 0, randn) or the
 * wide value s * (w + w/10 * z). */
static void store_normal(void *buf, rung_dtype dt, int64_t j, uint64_t i, double z, double w)
{
	if (w == 0) {
		store_randn(buf, dt, j, z);
		return;
	}
	double v = w + (w / 10) * z;
	store_randn(buf, dt, j, ((i / RUNG_WIDE_BLOCK) & 1) ? -v : v);
}

/* randn (w == 0) or wide (w = the offset) over elements [start, start + n): each
 * Box-Muller pair p (elements 2p, 2p + 1) costs one pair of raw draws, one log, one
 * sqrt and one sin/cos pair, and gives both of its elements: the same bits as
 * rung_rng_normal element by element (same operations in the same order), at
 * about half the cost. */
static void fill_randn(void *buf, rung_dtype dt, int64_t start, int64_t n, uint64_t key, double w)
{
	int64_t j = 0;
	if (n > 0 && (start & 1)) { /* odd start: the sine half of a pair */
		store_normal(buf, dt, 0, (uint64_t)start, rung_rng_normal(key, (uint64_t)start), w);
		j = 1;
	}
	for (; j + 1 < n; j += 2) {
		uint64_t i = (uint64_t)(start + j); /* even */
		double u1 = (double)((rung_rng_u64(key, i) >> 11) + 1) * 0x1.0p-53;
		double u2 = (double)(rung_rng_u64(key, i + 1) >> 11) * 0x1.0p-53;
		double r = sqrt(-2.0 * log(u1));
		double t = 2.0 * M_PI * u2;
		store_normal(buf, dt, j, i, r * cos(t), w);
		store_normal(buf, dt, j + 1, i + 1, r * sin(t), w);
	}
	if (j < n) /* even last element: the cosine half alone */
		store_normal(buf, dt, j, (uint64_t)(start + j), rung_rng_normal(key, (uint64_t)(start + j)), w);
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
	if ((init == RUNG_INIT_WIDE || init == RUNG_INIT_CONSTANT || init == RUNG_INIT_INTS) && is_int(dt))
		return rung_error_set(RUNG_EINVAL, "fill %s: the %s distribution needs a float dtype, not %s",
				      argname ? argname : "?", init == RUNG_INIT_WIDE ? "wide" : init == RUNG_INIT_INTS ? "ints" : "constant",
				      rung_dtype_name(dt));
	uint64_t key = rung_rng_key(seed, argname);
	int64_t j;

	switch (init) {
	case RUNG_INIT_ZEROS:
		memset(buf, 0, (size_t)n * rung_dt_size(dt));
		return 0;
	case RUNG_INIT_ONES:
		for (j = 0; j < n; j++)
			rung_store_double(buf, dt, j, 1.0);
		return 0;
	case RUNG_INIT_ARANGE:
		for (j = 0; j < n; j++) {
			int64_t v = start + j;
			if (dt == RUNG_DT_U8)
				((uint8_t *)buf)[j] = (uint8_t)(v & 0xff);
			else if (dt == RUNG_DT_I64)
				((int64_t *)buf)[j] = v;
			else
				rung_store_double(buf, dt, j, (double)v);
		}
		return 0;
	case RUNG_INIT_UNIFORM:
		if (!(b >= a))
			return rung_error_set(RUNG_EINVAL, "fill %s: uniform(%g, %g) needs a <= b", argname ? argname : "?", a, b);
		for (j = 0; j < n; j++) {
			double v = a + (b - a) * rung_rng_uniform(key, (uint64_t)(start + j));
			if (is_int(dt)) {
				v = floor(v);
				if (v >= b && b > a) /* rounding of a + (b-a)u can reach b */
					v = ceil(b) - 1;
			}
			rung_store_double(buf, dt, j, v);
		}
		return 0;
	case RUNG_INIT_RANDN:
		fill_randn(buf, dt, start, n, key, 0);
		return 0;
	case RUNG_INIT_WIDE:
		fill_randn(buf, dt, start, n, key, rung_wide_offset(dt));
		return 0;
	case RUNG_INIT_CONSTANT: {
		double c = a < b ? a + (b - a) * rung_rng_uniform(key, 0) : rung_rng_normal(key, 0);
		for (j = 0; j < n; j++)
			store_randn(buf, dt, j, c);
		return 0;
	}
	case RUNG_INIT_INTS:
		for (j = 0; j < n; j++) {
			/* the top 32 bits scaled to [0, 2 * RUNG_INTS_MAX + 1) (multiply-shift, no rounding) */
			uint64_t hi = rung_rng_u64(key, (uint64_t)(start + j)) >> 32;
			int64_t k = (int64_t)((hi * (2 * RUNG_INTS_MAX + 1)) >> 32);
			store_randn(buf, dt, j, (double)(k - RUNG_INTS_MAX));
		}
		return 0;
	default:
		return rung_error_set(RUNG_EINVAL, "fill %s: init kind %d is not generated (npy is loaded, not filled)",
				      argname ? argname : "?", (int)init);
	}
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

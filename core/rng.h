/* Counter-based random numbers for input generation.
 *
 * Element i of argument NAME under seed S is a pure function of (S, NAME, i):
 *   key  = splitmix64_mix(S ^ fnv1a64(NAME))
 *   u64  = splitmix64_mix(key + (i + 1) * 0x9E3779B97F4A7C15)
 * i.e. the i-th output of a splitmix64 stream keyed by seed and name, so any
 * slice can be generated in any order or in parallel and gives the same bits.
 * randn uses Box-Muller on the pair (2p, 2p+1) with p = i / 2: even i take the
 * cosine branch, odd i the sine branch, so it too is order-independent. The
 * fills compute both branches of a pair at once (same bits, half the cost).
 * The element function is core/rng_hd.h, compiled for the host and for rung's
 * device kernels alike: its log and sine/cosine are rung's own, built from
 * correctly rounded operations, so a device fill gives the host fill's bytes
 * (docs/CHECKS.md, "Inputs"). */
#ifndef RUNG_CORE_RNG_H
#define RUNG_CORE_RNG_H

#include <stdint.h>

#include "core/rng_hd.h"
#include "core/spec.h"

/* FNV-1a 64 of a string (NULL hashes like ""). */
uint64_t rung_hash_str(const char *s);
/* The splitmix64 finalizer (a bijection on 64 bits). */
uint64_t rung_mix64(uint64_t x);
/* Stream key for (seed, argument name). */
uint64_t rung_rng_key(uint64_t seed, const char *argname);
/* Raw 64 random bits of element i of the stream `key`. */
uint64_t rung_rng_u64(uint64_t key, uint64_t i);
/* Uniform in [0, 1) with 53 random bits. */
double rung_rng_uniform(uint64_t key, uint64_t i);
/* Standard normal (Box-Muller, see above). */
double rung_rng_normal(uint64_t key, uint64_t i);
/* The log and the sine/cosine of 2 pi u that randn uses (core/rng_hd.h): within
 * a few ulps of libm's, and the same bits on the host and the device. */
double rung_rng_log(double x);
void rung_rng_sincos_turn(double u, double *s, double *c);

/* wide: the offset W per dtype: 1000 for f64, f32 and bf16 (every element's exp
 * overflows f32 and bf16, and nearly every one f64), 100 for f16 (exp overflows
 * f16 and f32, and a product of two elements, < 3.5e4, still fits f16). */
double rung_wide_offset(rung_dtype dt);
#define RUNG_WIDE_BLOCK 4096
#define RUNG_INTS_MAX 8

/* Fills n elements of dtype dt into buf, element j being element (start + j)
 * of the stream: rung_fill is rung_fill_at with start = 0.
 *   RUNG_INIT_RANDN    standard normal N(0,1) (a, b ignored)
 *   RUNG_INIT_UNIFORM  a + (b - a) * u, u in [0,1); integer dtypes take floor()
 *                      so values are in [a, b)
 *   RUNG_INIT_ONES / RUNG_INIT_ZEROS
 *   RUNG_INIT_ARANGE   element index (start + j); u8 wraps modulo 256
 * and, for float dtypes only (the [check] inputs distributions, core/spec.h
 * rung_dist_init; docs/CHECKS.md "Input distributions"):
 *   RUNG_INIT_WIDE     s * (W + W/10 * z): z the randn value of the element, W
 *                      rung_wide_offset(dt), s = +1 in even and -1 in odd blocks
 *                      of RUNG_WIDE_BLOCK elements (a, b ignored)
 *   RUNG_INIT_CONSTANT every element equal to element 0 of uniform(a,b) when
 *                      a < b, else of randn
 *   RUNG_INIT_INTS     integers uniform in [-RUNG_INTS_MAX, RUNG_INTS_MAX], exact
 *                      in every float dtype (a, b ignored)
 *   RUNG_INIT_SPECIAL  randn, with 1 in 4 blocks of RUNG_HD_SPECIAL_BLOCK elements
 *                      made of special values (core/rng_hd.h rung_hd_special; the
 *                      kinds rung_special_mask allows; a, b ignored)
 * Values are computed in double and rounded once to dt (RNE for f32/f16/bf16);
 * integer dtypes round randn to nearest and saturate u8 to [0, 255].
 * RUNG_INIT_NPY is not generated here (RUNG_EINVAL). Returns 0 or negative. */
/* The values RUNG_INIT_SPECIAL draws (a mask of RUNG_SPECIAL_* bits, core/spec.h):
 * RUNG_SPECIAL_ALL until set. The worker sets the plan's ([check] special) for
 * each job; rung_gen_params copies it into the stream's parameters. */
void rung_special_mask_set(uint32_t mask);
uint32_t rung_special_mask(void);
/* The parameters of one stream (dtype, init, a, b, key and the derived offset or
 * constant) for rung_hd_gen_pair: what the host fill and the device fill both use. */
void rung_gen_params(rung_hd_gen *g, rung_dtype dt, rung_init_kind init, double a, double b, uint64_t seed,
		     const char *argname);
int rung_fill(void *buf, rung_dtype dt, int64_t n, rung_init_kind init, double a, double b,
	      uint64_t seed, const char *argname);
int rung_fill_at(void *buf, rung_dtype dt, int64_t start, int64_t n, rung_init_kind init, double a,
		 double b, uint64_t seed, const char *argname);
/* rung_fill_at on up to rung_par_threads() threads (core/par.h), over chunks of
 * 64Ki elements. The bytes are identical to rung_fill_at's for any thread count:
 * every element is a pure function of (seed, name, index). */
int rung_fill_par(void *buf, rung_dtype dt, int64_t start, int64_t n, rung_init_kind init, double a,
		  double b, uint64_t seed, const char *argname);

/* Seed for run number `index` (0, 1, ...) derived from a base seed: a splitmix64
 * step, so seeds of different indexes are unrelated but reproducible. */
uint64_t rung_seed_derive(uint64_t base, int index);
/* A fresh base seed from /dev/urandom (falls back to time, pid and clock). */
uint64_t rung_seed_fresh(void);

/* Stores double v into element i of buf as dtype dt (same rounding as rung_fill). */
void rung_store_double(void *buf, rung_dtype dt, int64_t i, double v);
/* Reads element i of buf as double (exact for every dtype except i64 beyond 2^53). */
double rung_load_double(const void *buf, rung_dtype dt, int64_t i);
/* Element size in bytes (local copy of rung_dtype_size, 0 for an unknown dtype). */
size_t rung_dt_size(rung_dtype dt);

#endif

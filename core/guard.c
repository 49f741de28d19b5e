/* Guard bands, poison and input checks on host copies of device buffers. */
#include "core/guard.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/guard_hd.h"
#include "core/rng.h"

#define GUARD_BYTES 4096

size_t rung_guard_size(void)
{
	return GUARD_BYTES;
}

size_t rung_guard_total(size_t size)
{
	return size + 2 * (size_t)GUARD_BYTES;
}

_Static_assert(RUNG_HD_GUARD_WORD == RUNG_GUARD_WORD, "core/guard_hd.h's canary is core/guard.h's");

void rung_guard_fill_band_key(void *band, size_t len, size_t start, uint64_t key)
{
	uint8_t *p = band;
	for (size_t k = 0; k < len; k++)
		p[k] = rung_hd_band_byte(key, start + k);
}

void rung_guard_fill_band(void *band, size_t len)
{
	rung_guard_fill_band_key(band, len, 0, 0);
}

void rung_guard_fill_key(void *whole, size_t size, uint64_t key)
{
	uint8_t *p = whole;
	rung_guard_fill_band_key(p, GUARD_BYTES, 0, key);
	rung_guard_fill_band_key(p + GUARD_BYTES + size, GUARD_BYTES, GUARD_BYTES, key);
}

void rung_guard_fill(void *whole, size_t size)
{
	rung_guard_fill_key(whole, size, 0);
}

static void note(rung_guard_report *r, int64_t off)
{
	if (r->first == INT64_MAX || off < r->first)
		r->first = off;
	if (r->last == INT64_MIN || off > r->last)
		r->last = off;
}

int64_t rung_guard_check_key(rung_guard_report *rep, const void *whole, size_t size, uint64_t key)
{
	rung_guard_report r = { 0, 0, INT64_MAX, INT64_MIN };
	const uint8_t *p = whole;
	const uint8_t *after = p + GUARD_BYTES + size;
	for (size_t k = 0; k < GUARD_BYTES; k++) {
		if (p[k] != rung_hd_band_byte(key, k)) {
			r.before_bytes++;
			note(&r, (int64_t)k - GUARD_BYTES);
		}
	}
	for (size_t k = 0; k < GUARD_BYTES; k++) {
		if (after[k] != rung_hd_band_byte(key, GUARD_BYTES + k)) {
			r.after_bytes++;
			note(&r, (int64_t)size + (int64_t)k);
		}
	}
	if (r.before_bytes + r.after_bytes == 0)
		r.first = r.last = 0;
	if (rep)
		*rep = r;
	return r.before_bytes + r.after_bytes;
}

int64_t rung_guard_check(rung_guard_report *rep, const void *whole, size_t size)
{
	return rung_guard_check_key(rep, whole, size, 0);
}

/* floor division for negative offsets: byte -1 belongs to element -1 */
static int64_t elem_of(int64_t off, size_t es)
{
	int64_t e = (int64_t)(es ? es : 1);
	return off >= 0 ? off / e : -((-off + e - 1) / e);
}

void rung_guard_describe(char *buf, size_t len, const char *argname, const rung_guard_report *r, size_t es)
{
	const char *n = argname ? argname : "buffer";
	if (r->before_bytes + r->after_bytes == 0) {
		snprintf(buf, len, "%s: guard bands intact", n);
		return;
	}
	if (r->before_bytes && r->after_bytes)
		snprintf(buf, len, "%s: out-of-bounds write: %" PRId64 " bytes before and %" PRId64
			 " bytes after the buffer (offsets %" PRId64 "..%" PRId64 ", elements %" PRId64 "..%" PRId64 ")",
			 n, r->before_bytes, r->after_bytes, r->first, r->last, elem_of(r->first, es), elem_of(r->last, es));
	else if (r->before_bytes)
		snprintf(buf, len, "%s: out-of-bounds write: %" PRId64 " bytes before the buffer (offset %" PRId64
			 ", element %" PRId64 ")", n, r->before_bytes, r->first, elem_of(r->first, es));
	else
		snprintf(buf, len, "%s: out-of-bounds write: %" PRId64 " bytes after the buffer (offset %" PRId64
			 ", element %" PRId64 ")", n, r->after_bytes, r->first, elem_of(r->first, es));
}

static uint64_t poison_key; /* 0: the fixed words */

void rung_poison_key_set(uint64_t key)
{
	poison_key = key;
}

uint64_t rung_poison_key(void)
{
	return poison_key;
}

/* The fixed finite pattern of variant 2 under key 0. */
static void fixed_finite(void *out, rung_dtype dt)
{
	uint64_t w = 0;
	switch (dt) {
	case RUNG_DT_F64: w = UINT64_C(0x4058DEADBEEFDEAD); break;
	case RUNG_DT_F32: w = 0x42DEADBEu; break;
	case RUNG_DT_F16: w = 0x56AD; break;
	case RUNG_DT_BF16: w = 0x42DE; break;
	case RUNG_DT_I64: w = UINT64_C(0x0DEADBEEFDEADBEE); break;
	case RUNG_DT_I32: w = 0x0BADF00Du; break;
	case RUNG_DT_U8: w = 0x3C; break;
	default: return;
	}
	memcpy(out, &w, rung_dt_size(dt)); /* little-endian */
}

/* Field widths of a float dtype: mantissa bits (the exponent is above them). */
static int mant_bits(rung_dtype dt)
{
	return dt == RUNG_DT_F64 ? 52 : dt == RUNG_DT_F32 ? 23 : dt == RUNG_DT_F16 ? 10 : dt == RUNG_DT_BF16 ? 7 : 0;
}

static void fixed_bits(void *out, rung_dtype dt, int variant);

/* Whether w is a valid variant-v word of dt: never one of the documented fixed
 * words of variants 0 and 1; for float dtypes a quiet NaN whose mantissa is not
 * all ones (CUDA's computed NaN) for v < 2, finite and not zero for v = 2. */
static bool keyed_ok(rung_dtype dt, int v, uint64_t w)
{
	int mb = mant_bits(dt);
	uint64_t f0 = 0, f1 = 0;
	fixed_bits(&f0, dt, 0);
	fixed_bits(&f1, dt, 1);
	if (w == f0 || w == f1)
		return false;
	if (!mb)
		return true;
	uint64_t mant = (UINT64_C(1) << mb) - 1, mag = (UINT64_C(1) << (rung_dt_size(dt) * 8 - 1)) - 1;
	uint64_t expo = mag & ~mant, quiet = UINT64_C(1) << (mb - 1);
	if (v < 2)
		return (w & expo) == expo && (w & quiet) && (w & mant) != mant;
	return (w & expo) != expo && (w & mag) != 0;
}

/* Variant v's word under a non-zero key (the low es bytes): drawn from the key,
 * shaped (a quiet NaN, or a finite value), then stepped until it is valid and
 * differs from the variants below it. */
static uint64_t keyed_bits(rung_dtype dt, int v, uint64_t key)
{
	size_t es = rung_dt_size(dt);
	int mb = mant_bits(dt);
	uint64_t mask = es == 8 ? ~UINT64_C(0) : (UINT64_C(1) << (es * 8)) - 1;
	uint64_t w = rung_hd_u64(key ^ UINT64_C(0x706f69736f6e), (uint64_t)dt * 4 + (uint64_t)v) & mask;
	uint64_t below[2] = { v > 0 ? keyed_bits(dt, 0, key) : 0, v > 1 ? keyed_bits(dt, 1, key) : 0 };
	if (mb) {
		uint64_t mant = (UINT64_C(1) << mb) - 1, expo = (mask >> 1) & ~mant;
		if (v < 2)
			w |= expo | (UINT64_C(1) << (mb - 1));
		else if ((w & expo) == expo)
			w ^= UINT64_C(1) << mb;
	}
	for (uint64_t step = 1; !keyed_ok(dt, v, w) || (v > 0 && w == below[0]) || (v > 1 && w == below[1]); step++)
		w ^= step & (mb ? (UINT64_C(1) << (mb - 1)) - 1 : 0xff); /* payload or low bits only */
	return w;
}

void rung_poison_bits(void *out, rung_dtype dt, int variant)
{
	if (poison_key) {
		size_t es = rung_dt_size(dt);
		if (!es)
			return;
		uint64_t w = keyed_bits(dt, variant < 0 || variant > 2 ? 0 : variant, poison_key);
		memcpy(out, &w, es); /* little-endian */
		return;
	}
	fixed_bits(out, dt, variant);
}

static void fixed_bits(void *out, rung_dtype dt, int variant)
{
	if (variant == RUNG_POISON_FINITE) {
		fixed_finite(out, dt);
		return;
	}
	int v = variant ? 1 : 0;
	switch (dt) {
	case RUNG_DT_F64: { uint64_t b[2] = { UINT64_C(0x7FF8DEADBEEFDEAD), UINT64_C(0x7FF8BEEFDEADBEEF) }; memcpy(out, &b[v], 8); break; }
	case RUNG_DT_F32: { uint32_t b[2] = { 0x7FC0DEADu, 0x7FC0BEEFu }; memcpy(out, &b[v], 4); break; }
	case RUNG_DT_F16: { uint16_t b[2] = { 0x7EAD, 0x7EEF }; memcpy(out, &b[v], 2); break; }
	case RUNG_DT_BF16: { uint16_t b[2] = { 0x7FED, 0x7FDB }; memcpy(out, &b[v], 2); break; }
	case RUNG_DT_I64: { uint64_t b[2] = { UINT64_C(0xDEADBEEFDEADBEEF), UINT64_C(0xBEEFDEADBEEFDEAD) }; memcpy(out, &b[v], 8); break; }
	case RUNG_DT_I32: { uint32_t b[2] = { 0xDEADBEEFu, 0xBEEFDEADu }; memcpy(out, &b[v], 4); break; }
	case RUNG_DT_U8: { uint8_t b[2] = { 0xDB, 0x5A }; memcpy(out, &b[v], 1); break; }
	default: break;
	}
}

void rung_poison_fill(void *buf, rung_dtype dt, int64_t n, int variant)
{
	size_t es = rung_dt_size(dt);
	uint8_t pat[8];
	if (!es || n <= 0)
		return;
	rung_poison_bits(pat, dt, variant);
	uint8_t *p = buf;
	for (int64_t i = 0; i < n; i++)
		memcpy(p + (size_t)i * es, pat, es);
}

bool rung_poison_is(const void *buf, rung_dtype dt, int64_t i, int variant)
{
	size_t es = rung_dt_size(dt);
	uint8_t pat[8];
	if (!es)
		return false;
	rung_poison_bits(pat, dt, variant);
	return memcmp((const uint8_t *)buf + (size_t)i * es, pat, es) == 0;
}

int64_t rung_poison_count(int64_t *first, const void *buf, rung_dtype dt, int64_t n, int variant)
{
	size_t es = rung_dt_size(dt);
	uint8_t pat[8];
	int64_t count = 0, f = -1;
	if (es && n > 0) {
		rung_poison_bits(pat, dt, variant);
		const uint8_t *p = buf;
		for (int64_t i = 0; i < n; i++) {
			if (memcmp(p + (size_t)i * es, pat, es) == 0) {
				if (f < 0)
					f = i;
				count++;
			}
		}
	}
	if (first)
		*first = f;
	return count;
}

int64_t rung_input_first_change(const void *before, const void *after, rung_dtype dt, int64_t n)
{
	size_t es = rung_dt_size(dt);
	size_t total = (size_t)n * es;
	const uint8_t *a = before, *b = after;
	if (!es || n <= 0 || memcmp(a, b, total) == 0)
		return -1;
	/* narrow down with block memcmp, then byte scan */
	size_t k = 0;
	const size_t blk = 4096;
	while (k + blk <= total && memcmp(a + k, b + k, blk) == 0)
		k += blk;
	while (k < total && a[k] == b[k])
		k++;
	return (int64_t)(k / es);
}

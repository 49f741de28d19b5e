/* Guard bands, poison and input checks on host copies of device buffers. */
#include "core/guard.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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

static uint8_t canary_byte(size_t k)
{
	return (uint8_t)(RUNG_GUARD_WORD >> (8 * (k & 3)));
}

void rung_guard_fill_band(void *band, size_t len)
{
	uint8_t *p = band;
	for (size_t k = 0; k < len; k++)
		p[k] = canary_byte(k);
}

void rung_guard_fill(void *whole, size_t size)
{
	uint8_t *p = whole;
	rung_guard_fill_band(p, GUARD_BYTES);
	rung_guard_fill_band(p + GUARD_BYTES + size, GUARD_BYTES);
}

static void note(rung_guard_report *r, int64_t off)
{
	if (r->first == INT64_MAX || off < r->first)
		r->first = off;
	if (r->last == INT64_MIN || off > r->last)
		r->last = off;
}

int64_t rung_guard_check(rung_guard_report *rep, const void *whole, size_t size)
{
	rung_guard_report r = { 0, 0, INT64_MAX, INT64_MIN };
	const uint8_t *p = whole;
	const uint8_t *after = p + GUARD_BYTES + size;
	for (size_t k = 0; k < GUARD_BYTES; k++) {
		if (p[k] != canary_byte(k)) {
			r.before_bytes++;
			note(&r, (int64_t)k - GUARD_BYTES);
		}
	}
	for (size_t k = 0; k < GUARD_BYTES; k++) {
		if (after[k] != canary_byte(k)) {
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

void rung_poison_bits(void *out, rung_dtype dt, int variant)
{
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

/* Guard bands, poison and input-change detection on host buffers. */
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/guard.h"
#include "core/guard_hd.h"
#include "core/rng.h"

static void t_guard_intact_and_oob(void)
{
	const size_t n = 1000, size = n * sizeof(float);
	size_t g = rung_guard_size();
	CHECK_INT(g, 4096);
	CHECK_INT(rung_guard_total(size), size + 8192);
	uint8_t *whole = malloc(rung_guard_total(size));
	memset(whole + g, 0x11, size);
	rung_guard_fill(whole, size);
	/* first band word, little-endian */
	uint32_t w;
	memcpy(&w, whole, 4);
	CHECK_INT(w, RUNG_GUARD_WORD);
	float *payload = (float *)(whole + g);

	rung_guard_report rep;
	CHECK_INT(rung_guard_check(&rep, whole, size), 0);
	/* writing the whole payload is fine */
	for (size_t i = 0; i < n; i++)
		payload[i] = 1.0f;
	CHECK_INT(rung_guard_check(&rep, whole, size), 0);

	/* element -1 written: 4 bytes at offsets -4..-1 */
	payload[-1] = 2.0f;
	CHECK_INT(rung_guard_check(&rep, whole, size), 4);
	CHECK_INT(rep.before_bytes, 4);
	CHECK_INT(rep.after_bytes, 0);
	CHECK_INT(rep.first, -4);
	CHECK_INT(rep.last, -1);
	char msg[256];
	rung_guard_describe(msg, sizeof msg, "C", &rep, 4);
	CHECK_STR(msg, "C: out-of-bounds write: 4 bytes before the buffer (offset -4, element -1)");
	rung_guard_fill(whole, size);

	/* element n (one past the end) */
	payload[n] = 3.0f;
	CHECK_INT(rung_guard_check(&rep, whole, size), 4);
	CHECK_INT(rep.after_bytes, 4);
	CHECK_INT(rep.first, (int64_t)size);
	rung_guard_describe(msg, sizeof msg, "C", &rep, 4);
	CHECK_CONTAINS(msg, "4 bytes after the buffer (offset 4000, element 1000)");

	/* a single byte far after, and one far before: both reported */
	whole[g + size + 4000] ^= 0xff;
	whole[10] ^= 0x01;
	CHECK_INT(rung_guard_check(&rep, whole, size), 6);
	CHECK_INT(rep.before_bytes, 1);
	CHECK_INT(rep.after_bytes, 5);
	CHECK_INT(rep.first, 10 - 4096);
	CHECK_INT(rep.last, 4000 + 4000);
	rung_guard_describe(msg, sizeof msg, "C", &rep, 4);
	CHECK_CONTAINS(msg, "1 bytes before and 5 bytes after");
	free(whole);

	/* odd payload size (u8): the after band starts unaligned and still works */
	uint8_t *w2 = malloc(rung_guard_total(3));
	rung_guard_fill(w2, 3);
	CHECK_INT(rung_guard_check(NULL, w2, 3), 0);
	w2[g + 3] = 0;
	CHECK_INT(rung_guard_check(&rep, w2, 3), 1);
	CHECK_INT(rep.first, 3);
	free(w2);
}

static void t_poison(void)
{
	float f[10];
	rung_poison_fill(f, RUNG_DT_F32, 10, 0);
	uint32_t b;
	memcpy(&b, &f[3], 4);
	CHECK_INT(b, 0x7FC0DEADu);
	CHECK(isnan(f[3]));
	f[0] = 1.0f;
	f[5] = NAN;          /* a NaN the kernel computed: not poison */
	f[9] = -0.0f;
	int64_t first;
	CHECK_INT(rung_poison_count(&first, f, RUNG_DT_F32, 10, 0), 7);
	CHECK_INT(first, 1);
	CHECK(!rung_poison_is(f, RUNG_DT_F32, 5, 0));
	CHECK(rung_poison_is(f, RUNG_DT_F32, 1, 0));
	CHECK(!rung_poison_is(f, RUNG_DT_F32, 1, 1)); /* the other variant differs */

	/* every dtype: fill, count all, variants differ, float poisons are quiet NaNs */
	for (int dt = 0; dt < RUNG_DT_COUNT; dt++) {
		uint8_t buf[64], p0[8], p1[8];
		rung_poison_fill(buf, (rung_dtype)dt, 8, 0);
		CHECK_INT(rung_poison_count(&first, buf, (rung_dtype)dt, 8, 0), 8);
		CHECK_INT(first, 0);
		rung_poison_bits(p0, (rung_dtype)dt, 0);
		rung_poison_bits(p1, (rung_dtype)dt, 1);
		CHECK(memcmp(p0, p1, rung_dt_size((rung_dtype)dt)) != 0);
		if (dt == RUNG_DT_F64 || dt == RUNG_DT_F32 || dt == RUNG_DT_F16 || dt == RUNG_DT_BF16) {
			double v = rung_load_double(buf, (rung_dtype)dt, 0);
			CHECK(isnan(v));
		}
	}
	uint16_t h;
	rung_poison_bits(&h, RUNG_DT_F16, 0);
	CHECK_INT(h, 0x7EAD);
	CHECK((h & 0x0200) != 0); /* quiet bit */
	rung_poison_bits(&h, RUNG_DT_BF16, 0);
	CHECK_INT(h, 0x7FED);
	CHECK((h & 0x0040) != 0);
	int32_t i32;
	rung_poison_bits(&i32, RUNG_DT_I32, 0);
	CHECK_INT((uint32_t)i32, 0xDEADBEEFu);
	CHECK_INT(rung_poison_count(&first, f, RUNG_DT_F32, 0, 0), 0);
	CHECK_INT(first, -1);
}

/* Per-run poison (issue 25): under a key, variants 0 and 1 are quiet NaNs with
 * payloads that are neither CUDA's computed NaN nor the documented fixed words,
 * variant 2 is finite and non-zero, all three differ, and another key gives
 * other words. Key 0 gives the fixed words again. */
static void t_poison_keyed(void)
{
	static const uint64_t canon[] = { UINT64_C(0x7FFFFFFFFFFFFFFF), 0x7FFFFFFFu, 0x7FFF, 0x7FFF };
	int differ_by_key = 0;
	for (uint64_t key = 1; key <= 200; key++) {
		for (int dt = 0; dt < RUNG_DT_COUNT; dt++) {
			size_t es = rung_dt_size((rung_dtype)dt);
			uint64_t w[3] = { 0 }, fixed[3] = { 0 }, other = 0;
			rung_poison_key_set(0);
			for (int v = 0; v < 3; v++)
				rung_poison_bits(&fixed[v], (rung_dtype)dt, v);
			rung_poison_key_set(key * UINT64_C(0x9E3779B97F4A7C15));
			for (int v = 0; v < 3; v++)
				rung_poison_bits(&w[v], (rung_dtype)dt, v);
			rung_poison_key_set(key * UINT64_C(0x9E3779B97F4A7C15) + 1);
			rung_poison_bits(&other, (rung_dtype)dt, 0);
			rung_poison_key_set(0);
			differ_by_key += other != w[0];
			CHECK(w[0] != w[1] && w[1] != w[2] && w[0] != w[2]);
			if (dt > RUNG_DT_BF16)
				continue;
			uint8_t buf[8];
			for (int v = 0; v < 3; v++) {
				memcpy(buf, &w[v], es);
				double x = rung_load_double(buf, (rung_dtype)dt, 0);
				if (v < 2) {
					CHECK(isnan(x));
					CHECK(w[v] != canon[dt] && w[v] != (canon[dt] | (UINT64_C(1) << (es * 8 - 1))));
					CHECK(w[v] != fixed[0] && w[v] != fixed[1]);
				} else {
					CHECK(isfinite(x) && x != 0);
				}
			}
		}
	}
	CHECK(differ_by_key > 7 * 190);
	/* a keyed fill is counted back under the same key only */
	float f[16];
	rung_poison_key_set(42);
	rung_poison_fill(f, RUNG_DT_F32, 16, 0);
	int64_t first;
	CHECK_INT(rung_poison_count(&first, f, RUNG_DT_F32, 16, 0), 16);
	CHECK_INT(rung_poison_count(&first, f, RUNG_DT_F32, 16, 1), 0);
	rung_poison_key_set(43);
	CHECK_INT(rung_poison_count(&first, f, RUNG_DT_F32, 16, 0), 0);
	rung_poison_key_set(0);
	uint32_t w;
	rung_poison_bits(&w, RUNG_DT_F32, 0);
	CHECK_INT(w, 0x7FC0DEADu);
	rung_poison_bits(&w, RUNG_DT_F32, RUNG_POISON_FINITE);
	CHECK_INT(w, 0x42DEADBEu);
}

/* Keyed guard bands: key 0 is the canary; another key gives bytes that are not
 * the canary's and differ from a third key's; a write is found under the key the
 * bands were filled with, at the right offset, and the band after the payload is
 * not a copy of the one before it. */
static void t_guard_keyed(void)
{
	const size_t size = 100;
	size_t g = rung_guard_size();
	uint8_t *a = malloc(rung_guard_total(size)), *b = malloc(rung_guard_total(size));
	rung_guard_fill_key(a, size, 0);
	rung_guard_fill(b, size);
	CHECK(memcmp(a, b, g) == 0 && memcmp(a + g + size, b + g + size, g) == 0);
	rung_guard_fill_key(a, size, 7);
	rung_guard_fill_key(b, size, 8);
	int same_ab = 0, same_canary = 0, same_sides = 0;
	uint8_t canary[4096];
	rung_guard_fill_band(canary, sizeof(canary));
	/* compared word by word: a keyed band's words are floats of magnitude 2 to
	 * 65536 (core/guard_hd.h), so their top bytes repeat; the mantissas do not */
	for (size_t k = 0; k + 4 <= g; k += 4) {
		same_ab += !memcmp(a + k, b + k, 4);
		same_canary += !memcmp(a + k, canary + k, 4);
		same_sides += !memcmp(a + k, a + g + size + k, 4);
	}
	CHECK(same_ab < 16 && same_canary < 16 && same_sides < 16); /* about 0 of 1024 by chance */
	/* the flipped key's words have the other sign, whatever the nonce */
	uint64_t kf = rung_hd_band_key_flip(0x123456789abcdef0u, 7);
	rung_guard_fill_key(b, size, kf);
	for (size_t k = 3; k < g; k += 4)
		CHECK((a[k] ^ b[k]) & 0x80);
	rung_guard_report rep;
	CHECK_INT(rung_guard_check_key(&rep, a, size, 7), 0);
	CHECK(rung_guard_check_key(&rep, a, size, 8) > 4000);
	CHECK(rung_guard_check(&rep, a, size) > 4000);
	a[g + size + 5] ^= 0x10;
	CHECK_INT(rung_guard_check_key(&rep, a, size, 7), 1);
	CHECK_INT(rep.first, (long long)size + 5);
	CHECK_INT(rep.after_bytes, 1);
	/* a band piece from a stream offset equals the whole fill's bytes there */
	uint8_t piece[16];
	rung_guard_fill_band_key(piece, sizeof(piece), g + 40, 7);
	a[g + size + 5] ^= 0x10;
	CHECK(memcmp(piece, a + g + size + 40, sizeof(piece)) == 0);
	free(a);
	free(b);
}

static void t_input_change(void)
{
	enum { N = 5000 };
	float *a = malloc(sizeof(float) * N), *b = malloc(sizeof(float) * N);
	rung_fill(a, RUNG_DT_F32, N, RUNG_INIT_RANDN, 0, 0, 1, "A");
	memcpy(b, a, sizeof(float) * N);
	CHECK_INT(rung_input_first_change(a, b, RUNG_DT_F32, N), -1);
	b[4321] += 1.0f;
	b[4500] += 1.0f;
	CHECK_INT(rung_input_first_change(a, b, RUNG_DT_F32, N), 4321);
	/* a NaN input written back bit-identically is unchanged; -0 vs +0 is a change */
	a[0] = NAN;
	b[0] = a[0];
	CHECK_INT(rung_input_first_change(a, b, RUNG_DT_F32, 100), -1);
	a[1] = 0.0f;
	b[1] = -0.0f;
	CHECK_INT(rung_input_first_change(a, b, RUNG_DT_F32, 100), 1);
	/* byte granularity maps to elements: change the 3rd byte of f64 element 2 */
	double d1[4] = { 1, 2, 3, 4 }, d2[4] = { 1, 2, 3, 4 };
	((uint8_t *)d2)[2 * 8 + 2] ^= 1;
	CHECK_INT(rung_input_first_change(d1, d2, RUNG_DT_F64, 4), 2);
	free(a);
	free(b);
}

int main(void)
{
	T_RUN(t_guard_intact_and_oob);
	T_RUN(t_poison);
	T_RUN(t_poison_keyed);
	T_RUN(t_guard_keyed);
	T_RUN(t_input_change);
	return t_done();
}

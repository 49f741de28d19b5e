/* Guard bands, poison and input-change detection on host buffers. */
#include "harness.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/guard.h"
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
	T_RUN(t_input_change);
	return t_done();
}

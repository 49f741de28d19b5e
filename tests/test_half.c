/* f16/bf16 conversions: exhaustive f16 round trip, hand-checked values, ties,
 * subnormals, overflow, NaN, and (where the compiler has _Float16) a
 * comparison against the compiler's own conversions on many random inputs. */
#include "harness.h"

#include <stdint.h>
#include <string.h>

#include "core/half.h"
#include "core/rng.h"

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static void t_f16_roundtrip_all(void)
{
	int bad = 0;
	for (uint32_t h = 0; h < 65536; h++) {
		uint16_t back = rung_f32_to_f16(rung_f16_to_f32((uint16_t)h));
		uint16_t want = (uint16_t)h;
		if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))
			want |= 0x200; /* signalling NaNs come back quiet */
		if (back != want && bad++ < 5)
			fprintf(stderr, "f16 %04x -> %g -> %04x\n", h, rung_f16_to_f32((uint16_t)h), back);
		/* the double path agrees */
		if (rung_f64_to_f16(rung_f16_to_f64((uint16_t)h)) != want)
			bad++;
	}
	CHECK_INT(bad, 0);
}

static void t_f16_known(void)
{
	CHECK_INT(rung_f32_to_f16(1.0f), 0x3c00);
	CHECK_INT(rung_f32_to_f16(-2.0f), 0xc000);
	/* 1/3 = 0x1.5555...p-2: fraction 0101010101|0101... below half -> 0x3555 */
	CHECK_INT(rung_f32_to_f16(1.0f / 3.0f), 0x3555);
	CHECK_NEAR(rung_f16_to_f32(0x3555), 0.333251953125, 0);
	CHECK_INT(rung_f32_to_f16(65504.0f), 0x7bff);            /* max finite */
	CHECK_INT(rung_f32_to_f16(65519.0f), 0x7bff);            /* below the tie */
	CHECK_INT(rung_f32_to_f16(65520.0f), 0x7c00);            /* tie, odd -> up -> inf */
	CHECK_INT(rung_f32_to_f16(1e10f), 0x7c00);
	CHECK_INT(rung_f32_to_f16(-1e10f), 0xfc00);
	CHECK_INT(rung_f32_to_f16(0x1p-24f), 0x0001);            /* smallest subnormal */
	CHECK_NEAR(rung_f16_to_f32(0x0001), 5.9604644775390625e-08, 0);
	CHECK_INT(rung_f32_to_f16(0x1p-25f), 0x0000);            /* half of it: tie to even 0 */
	CHECK_INT(rung_f32_to_f16(0x1.000002p-25f), 0x0001);     /* just above the tie */
	CHECK_INT(rung_f32_to_f16(0x3p-25f), 0x0002);            /* 1.5 ulp: tie, 1 odd -> 2 */
	CHECK_INT(rung_f32_to_f16(0x1p-14f), 0x0400);            /* smallest normal */
	CHECK_INT(rung_f32_to_f16(0x1.ffcp-15f), 0x0400);        /* 1023.5 subnormal ulps: tie -> 1024 = normal */
	CHECK_INT(rung_f32_to_f16(0x3ffp-24f), 0x03ff);          /* largest subnormal */
	CHECK_INT(rung_f32_to_f16(-0.0f), 0x8000);
	CHECK_INT(rung_f32_to_f16(INFINITY), 0x7c00);
	CHECK_INT(rung_f32_to_f16(-INFINITY), 0xfc00);
	uint16_t n = rung_f32_to_f16(NAN);
	CHECK((n & 0x7c00) == 0x7c00 && (n & 0x3ff) != 0);
	CHECK(isnan(rung_f16_to_f32(0x7e00)));
	CHECK(isinf(rung_f16_to_f32(0x7c00)));
	/* 1 + 2^-11 is the tie between 1 and 1+2^-10: even -> 1.0; 1+3*2^-11 -> up */
	CHECK_INT(rung_f32_to_f16(1.0f + 0x1p-11f), 0x3c00);
	CHECK_INT(rung_f32_to_f16(1.0f + 0x3p-11f), 0x3c02);
}

static void t_f64_no_double_rounding(void)
{
	/* 1 + 2^-11 + 2^-40 is just above the f16 tie: direct rounding gives 0x3c01.
	 * Through float the 2^-40 is lost (float keeps 23 bits), leaving the exact
	 * tie, which rounds to even 0x3c00: the double-rounding error we avoid. */
	double x = 1.0 + 0x1p-11 + 0x1p-40;
	CHECK_INT(rung_f64_to_f16(x), 0x3c01);
	CHECK_INT(rung_f32_to_f16((float)x), 0x3c00);
	/* bf16: 1 + 2^-8 is the tie between 0x3f80 and 0x3f81; + 2^-30 is above it */
	double y = 1.0 + 0x1p-8 + 0x1p-30;
	CHECK_INT(rung_f64_to_bf16(y), 0x3f81);
	CHECK_INT(rung_f32_to_bf16((float)y), 0x3f80);
}

static void t_bf16_known(void)
{
	CHECK_INT(rung_f32_to_bf16(1.0f), 0x3f80);
	CHECK_INT(rung_f32_to_bf16(bitsf(0x3f808000u)), 0x3f80); /* tie, even stays */
	CHECK_INT(rung_f32_to_bf16(bitsf(0x3f818000u)), 0x3f82); /* tie, odd rounds up */
	CHECK_INT(rung_f32_to_bf16(bitsf(0x3f808001u)), 0x3f81); /* above tie */
	CHECK_INT(rung_f32_to_bf16(bitsf(0x3f807fffu)), 0x3f80); /* below tie */
	CHECK_INT(rung_f32_to_bf16(bitsf(0x7f7fffffu)), 0x7f80); /* FLT_MAX rounds to inf */
	CHECK_INT(rung_f32_to_bf16(bitsf(0x7f7f7fffu)), 0x7f7f);
	CHECK_INT(rung_f32_to_bf16(bitsf(0x00010000u)), 0x0001); /* smallest bf16 subnormal */
	CHECK_INT(rung_f32_to_bf16(bitsf(0x00008000u)), 0x0000); /* tie with 0 -> 0 */
	CHECK_INT(rung_f32_to_bf16(bitsf(0x00018000u)), 0x0002); /* tie, 1 odd -> 2 */
	CHECK_INT(rung_f32_to_bf16(-0.0f), 0x8000);
	CHECK_INT(rung_f32_to_bf16(bitsf(0x7fc00001u)), 0x7fc0); /* qNaN */
	CHECK_INT(rung_f32_to_bf16(bitsf(0x7f800001u)), 0x7fc0); /* sNaN -> quiet */
	CHECK_INT(rung_f32_to_bf16(bitsf(0xffd20000u)), 0xffd2); /* payload kept */
	CHECK_INT(fbits(rung_bf16_to_f32(0x3f81)), 0x3f810000u);
	CHECK_NEAR(rung_bf16_to_f32(0x4049), 3.140625, 0);
	/* every bf16 round-trips through f32 */
	int bad = 0;
	for (uint32_t h = 0; h < 65536; h++) {
		uint16_t want = (uint16_t)h;
		if ((h & 0x7f80) == 0x7f80 && (h & 0x7f))
			want |= 0x40;
		if (rung_f32_to_bf16(rung_bf16_to_f32((uint16_t)h)) != want)
			bad++;
	}
	CHECK_INT(bad, 0);
}

/* Independent bf16 oracle: the classic integer RNE trick on the f32 bits. */
static uint16_t bf16_oracle(uint32_t u)
{
	if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu))
		return (uint16_t)((u >> 16) | 0x40);
	return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
}

static void t_random_vs_oracles(void)
{
	uint64_t key = rung_rng_key(42, "half");
	int bad_bf = 0, bad_h = 0, bad_hd = 0;
	for (uint64_t i = 0; i < 2000000; i++) {
		uint64_t r = rung_rng_u64(key, i);
		uint32_t u = (uint32_t)r;
		/* bias half the samples into the f16 range (exponents 100..145) */
		if (i & 1)
			u = (u & 0x807fffffu) | ((uint32_t)(100 + (r >> 40) % 46) << 23);
		float f = bitsf(u);
		if (rung_f32_to_bf16(f) != bf16_oracle(u))
			bad_bf++;
#ifdef __FLT16_MAX__
		if (!isnan(f)) {
			_Float16 h = (_Float16)f;
			uint16_t hb;
			memcpy(&hb, &h, 2);
			if (rung_f32_to_f16(f) != hb)
				bad_h++;
			double d = (double)f * (1.0 + (double)(r >> 12) * 0x1p-60); /* bits below float's */
			_Float16 hd = (_Float16)d;
			memcpy(&hb, &hd, 2);
			if (rung_f64_to_f16(d) != hb)
				bad_hd++;
		}
#endif
	}
	CHECK_INT(bad_bf, 0);
	CHECK_INT(bad_h, 0);
	CHECK_INT(bad_hd, 0);
}

int main(void)
{
	T_RUN(t_f16_roundtrip_all);
	T_RUN(t_f16_known);
	T_RUN(t_f64_no_double_rounding);
	T_RUN(t_bf16_known);
	T_RUN(t_random_vs_oracles);
	return t_done();
}

/* The f16/bf16 conversions of core/half.h, shared by the host and rung's device
 * kernels (core/hd.h): integer code only, so both give the same bits. */
#ifndef RUNG_CORE_HALF_HD_H
#define RUNG_CORE_HALF_HD_H

#include "core/hd.h"

/* Round a double to a binary format with 1 sign, ebits exponent, mbits fraction
 * bits (ebits + mbits = 15), RNE, subnormals, overflow to inf, NaN kept quiet. */
RUNG_HD uint16_t rung_hd_narrow(double x, int ebits, int mbits)
{
	uint64_t u = rung_hd_dbits(x);
	uint16_t sign = (uint16_t)((u >> 63) << 15);
	int e = (int)((u >> 52) & 0x7ff);
	uint64_t frac = u & ((UINT64_C(1) << 52) - 1);
	uint16_t expmask = (uint16_t)(((1u << ebits) - 1) << mbits);

	if (e == 0x7ff) {
		if (frac == 0)
			return sign | expmask; /* inf */
		/* NaN: top fraction bits, quiet bit set */
		uint16_t payload = (uint16_t)(frac >> (52 - mbits));
		payload |= (uint16_t)(1u << (mbits - 1));
		return sign | expmask | payload;
	}
	if (e == 0 && frac == 0)
		return sign;

	int bias = (1 << (ebits - 1)) - 1;
	int emin = 1 - bias, emax = bias;
	int E;
	uint64_t sig;
	if (e == 0) { /* double subnormal: far below any target subnormal */
		E = -1022;
		sig = frac;
	} else {
		E = e - 1023;
		sig = frac | (UINT64_C(1) << 52);
	}

	int shift = 52 - mbits;
	int sub = 0;
	if (E < emin) {
		shift += emin - E;
		sub = 1;
	}
	if (shift > 60) /* below half the smallest subnormal: rounds to zero */
		return sign;

	uint64_t q = sig >> shift;
	uint64_t rem = sig & ((UINT64_C(1) << shift) - 1);
	uint64_t half = UINT64_C(1) << (shift - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;

	if (sub) {
		/* q <= 2^mbits; a carry into bit mbits is exactly the smallest normal */
		return sign | (uint16_t)q;
	}
	if (q == (UINT64_C(1) << (mbits + 1))) {
		q >>= 1;
		E++;
	}
	if (E > emax)
		return sign | expmask;
	return sign | (uint16_t)((uint64_t)(E + bias) << mbits) | (uint16_t)(q & ((UINT64_C(1) << mbits) - 1));
}

RUNG_HD float rung_hd_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16;
	uint32_t e = (h >> 10) & 0x1f;
	uint32_t m = h & 0x3ff;

	if (e == 0x1f)
		return rung_hd_bitsf(sign | 0x7f800000u | (m << 13));
	if (e == 0) {
		if (m == 0)
			return rung_hd_bitsf(sign);
		/* subnormal: m * 2^-24, exact in float */
		float v = (float)m * (1.0f / 16777216.0f);
		return sign ? -v : v;
	}
	return rung_hd_bitsf(sign | ((e - 15 + 127) << 23) | (m << 13));
}

RUNG_HD float rung_hd_bf16_to_f32(uint16_t h)
{
	return rung_hd_bitsf((uint32_t)h << 16);
}

#endif

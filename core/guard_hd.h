/* The bytes of rung's guard bands, shared by the host fill and check
 * (core/guard.c) and the device check of every verified launch
 * (gpu/kernels/verify.cu): byte k of a buffer's bands (k counted from the start
 * of the band before the payload, the band after it continuing at
 * rung_guard_size()) is a pure function of (key, k). Key 0 gives the fixed
 * canary word RUNG_GUARD_WORD repeated; the worker draws a key per run from its
 * nonce (and another for the second run of the determinism check), so a kernel
 * that reads past its buffers sees values it cannot know in advance, and
 * different ones in the two runs. */
#ifndef RUNG_CORE_GUARD_HD_H
#define RUNG_CORE_GUARD_HD_H

#include "core/rng_hd.h"

#define RUNG_HD_GUARD_WORD UINT64_C(0x5AC3E17B)

/* Under a key, each 4-byte word of a band is a float of magnitude 2 to 65536
 * with a random mantissa and exponent and the sign of the key's bit 1. The
 * determinism check's second run takes a key of the other sign
 * (rung_hd_band_key_flip): a kernel whose result takes in a value read past its
 * buffer (clamped, summed, maxed) sees +big in one run and -big in the other,
 * so the two results differ (#25: random bytes were tiny as often as big, and
 * the two runs agreed by chance in half the tries). */
RUNG_HD uint8_t rung_hd_band_byte(uint64_t key, uint64_t k)
{
	if (!key)
		return (uint8_t)(RUNG_HD_GUARD_WORD >> (8 * (k & 3)));
	uint32_t u = (uint32_t)rung_hd_u64(key, k >> 2);
	uint32_t w = (u & 0x007FFFFFu) | ((128u + ((u >> 23) & 15u)) << 23) | ((uint32_t)((key >> 1) & 1) << 31);
	return (uint8_t)(w >> (8 * (k & 3)));
}

/* Another nonzero key (odd, as the worker draws them) whose words have the
 * sign opposite to key's. */
RUNG_HD uint64_t rung_hd_band_key_flip(uint64_t nonce, uint64_t key)
{
	return (nonce & ~UINT64_C(3)) | 1 | (~key & 2);
}

#endif

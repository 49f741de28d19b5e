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

RUNG_HD uint8_t rung_hd_band_byte(uint64_t key, uint64_t k)
{
	if (!key)
		return (uint8_t)(RUNG_HD_GUARD_WORD >> (8 * (k & 3)));
	return (uint8_t)(rung_hd_u64(key, k >> 3) >> (8 * (k & 7)));
}

#endif

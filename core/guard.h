/* Host-side checks of device buffers: guard bands, output poison, input
 * immutability. The worker allocates each device buffer as
 *     [ guard band | payload (size bytes) | guard band ]
 * fills both bands with the canary (copy a host band filled by
 * rung_guard_fill_band, or cuMemsetD32 with RUNG_GUARD_WORD on the first band,
 * which starts 4-byte aligned), fills outputs with poison, runs the kernel,
 * copies the whole allocation back and calls the checks here.
 * Offsets are relative to the payload start: negative = before the buffer,
 * >= size = after it. */
#ifndef RUNG_CORE_GUARD_H
#define RUNG_CORE_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/spec.h"

/* Canary: this 32-bit word repeated, little-endian, from each band's start. */
#define RUNG_GUARD_WORD UINT32_C(0x5AC3E17B)

/* Bytes of guard on each side (4096). */
size_t rung_guard_size(void);
/* Total allocation for a payload of `size` bytes: size + 2 * rung_guard_size(). */
size_t rung_guard_total(size_t size);
/* Fills `len` bytes with the canary pattern (band-relative). */
void rung_guard_fill_band(void *band, size_t len);
/* Fills both bands of a whole host copy (guard, payload, guard); the payload is untouched. */
void rung_guard_fill(void *whole, size_t size);
/* The same under a band key (core/guard_hd.h; key 0 is the canary above):
 * `len` bytes of the band stream from stream offset `start` (the band before
 * the payload is offsets 0 .. rung_guard_size() - 1, the one after it
 * continues from rung_guard_size()). */
void rung_guard_fill_band_key(void *band, size_t len, size_t start, uint64_t key);
void rung_guard_fill_key(void *whole, size_t size, uint64_t key);

typedef struct {
	int64_t before_bytes, after_bytes; /* corrupted bytes in each band */
	int64_t first, last;               /* lowest and highest corrupted offset (payload-relative) */
} rung_guard_report;

/* Checks both bands of a whole copy. Returns the number of corrupted bytes
 * (0 = intact) and fills *rep (may be NULL). */
int64_t rung_guard_check(rung_guard_report *rep, const void *whole, size_t size);
/* The same against the bands of `key` (rung_guard_fill_key). */
int64_t rung_guard_check_key(rung_guard_report *rep, const void *whole, size_t size, uint64_t key);
/* "C: out-of-bounds write: 4 bytes before the buffer (offset -4, element -1)" */
void rung_guard_describe(char *buf, size_t len, const char *argname, const rung_guard_report *rep, size_t elem_size);

/* Poison: a bit pattern per dtype written over outputs before launch.
 * Under the poison key (rung_poison_key_set; the worker sets one per job from
 * its nonce, so a kernel cannot know the words in advance) each variant's bits
 * are drawn from the key:
 *   variants 0 and 1: quiet NaNs with a random sign and payload, never CUDA's
 *     computed NaN (all payload bits set), never each other;
 *   variant 2 (RUNG_POISON_FINITE): a finite value that is not 0 (for integers:
 *     random bits), different from variants 0 and 1: the determinism check's
 *     second run starts on it, so a kernel that computes honestly only on NaN
 *     outputs gives a different result there.
 * With key 0 (the default) the fixed words below:
 *   f64  0x7FF8DEADBEEFDEAD  (quiet NaN with a payload)
 *   f32  0x7FC0DEAD           (quiet NaN; CUDA's computed NaN is 0x7FFFFFFF)
 *   f16  0x7EAD, bf16 0x7FED  (quiet NaNs with payloads)
 *   i64  0xDEADBEEFDEADBEEF, i32 0xDEADBEEF, u8 0xDB
 * variant 1 gives a second set (f32 0x7FC0BEEF, ...; u8 0x5A) so a caller can
 * run twice and tell a written value that happens to equal poison (only plausible
 * for u8) from an unwritten one. Variant 2 with key 0: f64 0x4058DEADBEEFDEAD,
 * f32 0x42DEADBE, f16 0x56AD, bf16 0x42DE, i64 0x0DEADBEEFDEADBEE,
 * i32 0x0BADF00D, u8 0x3C. */
#define RUNG_POISON_FINITE 2
void rung_poison_key_set(uint64_t key);
uint64_t rung_poison_key(void);
void rung_poison_bits(void *out_elem, rung_dtype dt, int variant);
void rung_poison_fill(void *buf, rung_dtype dt, int64_t n, int variant);
bool rung_poison_is(const void *buf, rung_dtype dt, int64_t i, int variant);
/* Number of elements still exactly poison; *first = first such index or -1. */
int64_t rung_poison_count(int64_t *first, const void *buf, rung_dtype dt, int64_t n, int variant);

/* Input immutability: returns -1 if the n elements are byte-identical,
 * else the index of the first element that differs. */
int64_t rung_input_first_change(const void *before, const void *after, rung_dtype dt, int64_t n);

#endif

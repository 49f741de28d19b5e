/* `rung.h`: the header every kernel can #include (given to NVRTC as an
 * in-memory header by gpu/compile.c; a user header of the same name wins).
 * It offers intra-kernel tracing (docs/CLI.md, `rung trace`):
 *
 *   #include "rung.h"
 *   RUNG_TRACE_BEGIN(1);  ... work ...  RUNG_TRACE_END(1);
 *
 * region: an integer literal (0..2^32-1) or an enum constant's name; BEGIN
 * declares a local, so END must be in the same scope (or a nested one).
 * Thread (0,0,0) of each block records {t0, t1 (%globaltimer ns), linear
 * block id, %smid, region} into `__rung_trace` (a __device__ global:
 * records pointer, capacity, counter); the other threads do nothing. The
 * worker attaches a record buffer only in `rung trace` runs; otherwise the
 * capacity is 0 and only the counter is bumped. Layout: core/trace.h. */
#ifndef RUNG_GPU_RUNG_H_H
#define RUNG_GPU_RUNG_H_H

#define RUNG_H_NAME "rung.h"
#define RUNG_TRACE_SYMBOL "__rung_trace"
#define RUNG_TRACE_GLOBAL_BYTES 16 /* {u64 recs; u32 capacity; u32 count} */

extern const char rung_h_text[];

#endif

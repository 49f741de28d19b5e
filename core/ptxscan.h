/* PTX evidence (docs/CHECKS.md, "Evidence: suspects"): what in a candidate's
 * PTX lets a kernel keep state between launches or do work outside the timed
 * launch. Pure text, deterministic from the PTX, so a stored result keeps its
 * content key.
 *
 *   - a mutable __device__ global: a module-scope .global variable (not .const,
 *     .shared, .local, nor a texture/surface/sampler reference) that the code
 *     writes (st/atom/red/... on an address derived from it: [sym], [sym+8],
 *     or a register that holds its address, however computed), or whose address
 *     escapes (stored to memory, passed to a function other than vprintf or
 *     __assertfail, or in another variable's initializer), so it may be written
 *     through a pointer. One only ever read is not mutable. rung's own
 *     __rung_trace (rung.h) is left out.
 *   - device-side malloc/free (malloc, free, __nv_aligned_device_malloc and what
 *     it lowers to), called or declared .extern.
 *   - device-side launches (dynamic parallelism: cudaLaunchDevice[V2],
 *     cudaGetParameterBuffer[V2], cudaStreamCreateWithFlags). */
#ifndef RUNG_CORE_PTXSCAN_H
#define RUNG_CORE_PTXSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"

#define RUNG_PTXSCAN_MAX_GLOBALS 16

typedef struct {
	char name[128];
	bool written; /* a store, atomic or reduction reaches it */
	bool escapes; /* its address is stored or passed on: may be written through a pointer */
} rung_ptx_global;

typedef struct {
	int nmutable; /* mutable globals found, in declaration order (the first MAX are kept) */
	rung_ptx_global mutables[RUNG_PTXSCAN_MAX_GLOBALS];
	char heap_fn[64];   /* first device heap function called or declared ("malloc"), "" when none */
	char launch_fn[64]; /* first device-launch function ("cudaLaunchDeviceV2"), "" when none */
} rung_ptxscan;

/* Scans len bytes of PTX text. Returns 0, RUNG_EINVAL (NULL), RUNG_ENOMEM. */
int rung_ptxscan_text(rung_ptxscan *out, const char *ptx, size_t len);

/* Adds to r the suspects that a scan found (mutable-global, device-malloc,
 * device-launch), each with its reason. Returns how many kinds were found. */
int rung_ptxscan_add_suspects(rung_result *r, const rung_ptxscan *s);

/* Both: scans the PTX and adds its suspects to r. Returns the count, or a
 * negative rung_err. */
int rung_ptxscan_result(rung_result *r, const char *ptx, size_t len);

/* The number of parameters of the kernel whose .entry name is `entry` (the
 * lowered name: "_Z5sgemmILi32EEviiiPKfS1_Pf" or "vadd"): one .param per kernel
 * parameter, however it is passed. Returns 0 with *n set, RUNG_ENOTFOUND when the
 * PTX has no such .entry (a device function is a .func), RUNG_EINVAL otherwise. */
int rung_ptx_entry_params(int *n, const char *ptx, size_t len, const char *entry);

/* The kernels of a PTX module, as committed (a Triton or hand-written .ptx):
 * the names of every .entry, comma separated ("softmax_kernel, other") into buf
 * (truncated to fit), and how many there are. 0 or RUNG_EINVAL. */
int rung_ptx_entry_names(char *buf, size_t len, int *count, const char *ptx, size_t plen);

/* The __global__ functions a CUDA C++ source defines or declares, by name
 * ("sgemm, sgemm_tiled": a template's name without its arguments), comma
 * separated into buf (truncated to fit), in source order, each once; comments
 * and string literals are skipped. Returns how many. For an entry that is not
 * found, to name the ones there are (#28 D-20). */
int rung_cuda_kernel_names(char *buf, size_t len, const char *src);

/* The kernel's text (CUDA C++, PTX or SASS) issues tensor-core instructions:
 * mma.sync / wmma / wgmma / tcgen05 in PTX or inline asm, the wmma:: and
 * mma_sync APIs, HMMA / IMMA / HGMMA in SASS. The roof a kernel is measured
 * against follows (FP32 FMA otherwise). */
bool rung_text_uses_mma(const char *text);

#define RUNG_PTX_MAX_PARAMS 64

/* One .entry: its parameters' sizes in bytes, in order (".u64" 8, ".u32" 4,
 * ".align 8 .b8 p[16]" 16; 0 when rung cannot tell), and its .reqntid and
 * .maxntid (0 when absent; missing dimensions are 1). */
typedef struct {
	int nparams; /* may exceed RUNG_PTX_MAX_PARAMS: only the first sizes are kept */
	int64_t size[RUNG_PTX_MAX_PARAMS];
	int reqntid[3], maxntid[3];
} rung_ptx_entry;

/* Fills out for the .entry named entry. 0, RUNG_ENOTFOUND (no such .entry),
 * RUNG_EINVAL (no end to its parameter list). */
int rung_ptx_entry_info(rung_ptx_entry *out, const char *ptx, size_t len, const char *entry);

#endif

/* The metadata sidecar of a kernel committed as PTX or CUBIN (docs/SPEC.md,
 * "The sidecar"): softmax.json next to softmax.ptx, as a DSL wrote it (Triton's
 * compiled-kernel metadata). rung reads a few numbers from it (num_warps,
 * shared, the scratch sizes and alignments, num_ctas, name) and ignores every
 * other key, except that a
 * key that names something to run (a command, a program, a compiler, a hook,
 * a script) is refused: rung never runs a program named by the repository. */
#ifndef RUNG_CORE_SIDECAR_H
#define RUNG_CORE_SIDECAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/spec.h"

#define RUNG_SIDECAR_MAX ((size_t)256 << 10) /* bytes: Triton's metadata is ~1-4 KiB */
#define RUNG_SIDECAR_SCRATCH_MAX ((int64_t)1 << 30) /* bytes of scratch per program */
/* rung's scratch buffers start on this boundary (cuMemAlloc's): a larger
 * *_scratch_align is refused */
#define RUNG_SCRATCH_ALIGN 256

typedef struct rung_sidecar {
	char file[512];            /* as named in messages: "t/softmax.json@a1b2c3d" */
	bool has_num_warps, has_shared, has_global_scratch, has_profile_scratch, has_num_ctas;
	bool has_global_align, has_profile_align;
	int64_t num_warps;         /* 1 to 32: the block is num_warps * 32 threads */
	int64_t shared;            /* dynamic shared memory in bytes, >= 0 */
	int64_t global_scratch, profile_scratch; /* global_scratch_size, profile_scratch_size: bytes per program */
	int64_t global_align, profile_align;     /* global_scratch_align, profile_scratch_align */
	int64_t num_ctas;          /* 1 when absent: CTAs per program (scratch is per CTA) */
	int num_warps_line, shared_line, global_scratch_line, profile_scratch_line, num_ctas_line;
	int global_align_line, profile_align_line;
	char name[256];            /* "" when absent */
} rung_sidecar;

/* The sidecar's path for a kernel path: the extension replaced by ".json"
 * ("t/softmax.ptx" -> "t/softmax.json"); NULL for a CUDA kernel (only .ptx and
 * .cubin kernels have one) or out of memory. Caller frees. */
char *rung_sidecar_path(const char *kernel_path);

/* Parses text (len bytes) named `file` in messages. Returns 0, or RUNG_EINVAL
 * with "softmax.json:4: ..." (not JSON, not an object, over RUNG_SIDECAR_MAX,
 * a known key of the wrong type or range, or a key that names a program to
 * run: "softmax.json:3: key 'command': rung never runs a program named by the
 * repository; remove it"). Unknown keys are ignored. */
int rung_sidecar_parse(rung_sidecar *out, const char *text, size_t len, const char *file);

/* rung_launch_for_kernel (core/spec.h) with the sidecar given as text
 * (sc_text NULL: none), parsed first. The kernel's launch in every loader. */
int rung_launch_with_sidecar(rung_launch *out, const rung_spec *spec, const char *src, const char *file,
			     const char *sc_text, size_t sc_len, const char *sc_file);

/* True when a key's name says it names something to run (case-insensitive,
 * by its words: "command", "pre_hook", "ptxas_path", "launcher", ...). */
bool rung_sidecar_key_runs(const char *key);

#endif

/* CUBIN (ELF64) inspection without a GPU. */
#ifndef RUNG_GPU_CUBIN_H
#define RUNG_GPU_CUBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Compares the machine code of two CUBINs: every section whose name starts with
 * ".text", in order, byte for byte (line tables, file names and notes are
 * ignored). Returns 1 when identical, 0 when different, RUNG_EINVAL when either
 * is not an ELF64 image. */
int rung_cubin_same_code(const void *a, size_t na, const void *b, size_t nb);

/* The machine-code key of a CUBIN: SHA-256 over the ELF machine and flags
 * and every section that runs or configures the kernel (code, constants,
 * initialised globals, kernel attributes, symbols), leaving out what only
 * describes the source (line tables, debug info, notes), so that a comment or
 * a renamed local gives the same key. 64 hex digits into out; RUNG_EINVAL
 * when it is not an ELF64 image. */
int rung_cubin_code_key(char out[65], const void *cubin, size_t n);

/* The kernels of a CUBIN committed as it is (a .cubin version): the names of
 * every kernel (an .nv.info.NAME section), comma separated into buf (truncated
 * to fit), and how many there are. 0 or RUNG_EINVAL (not an ELF64 image). */
int rung_cubin_entry_names(char *buf, size_t len, int *count, const void *cubin, size_t n);

#define RUNG_CUBIN_MAX_PARAMS 64

/* One kernel: its parameters' sizes in bytes by ordinal (EIATTR_KPARAM_INFO)
 * and its register count (EIATTR_REGCOUNT, has_regs false when absent). */
typedef struct {
	int nparams;
	int64_t size[RUNG_CUBIN_MAX_PARAMS];
	bool has_regs;
	int regs;
} rung_cubin_entry;

/* 0, RUNG_ENOTFOUND (no kernel of that symbol name), RUNG_EINVAL. */
int rung_cubin_entry_info(rung_cubin_entry *out, const void *cubin, size_t n, const char *entry);

#endif

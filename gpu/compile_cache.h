/* NVRTC's output kept by content (rung_compile_req.cache_dir, gpu/compile.h):
 * one file per compile, DIR/cubin/KEY, DIR the user's cache directory
 * (rung_fs_cache_dir: outside every repository, whose .git the agent writes),
 * where KEY is the SHA-256 of everything
 * that makes the CUBIN (gpu/compile.c, "the CUBIN cache"). The file holds the
 * lowered entry name, the PTX, the CUBIN and NVRTC's log (ptxas -v, so the
 * registers and spills are read again from it), with a SHA-256 of those:
 *
 *   rung-cubin-cache 1\n
 *   LOWERED\n
 *   PTX_BYTES CUBIN_BYTES LOG_BYTES\n
 *   SHA256_HEX\n
 *   PTX CUBIN LOG
 *
 * A file that does not read back whole and matching is a miss (and is
 * replaced by the next put). Nothing here follows a symbolic link below DIR
 * (core/fs.h, rung_fs_open_dir_in). */
#ifndef RUNG_GPU_COMPILE_CACHE_H
#define RUNG_GPU_COMPILE_CACHE_H

#include "gpu/compile.h"

/* 1 and out's ptx, cubin, log and lowered filled (the caller owns them) when
 * dir/cubin/key holds a whole entry; 0 otherwise (no error is left set). */
int rung_compile_cache_get(rung_compiled *out, const char *dir, const char *key);

/* Writes c's ptx, cubin, log and lowered as dir/cubin/key (dir, mode 0700,
 * and cubin created when missing), whole or not at all. 0, or a negative rung_err with
 * the message set (the caller may ignore it: the cache only saves time). */
int rung_compile_cache_put(const char *dir, const char *key, const rung_compiled *c);

#endif

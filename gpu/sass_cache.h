/* SASS listings kept by machine code: DIR/sass/KEY, DIR the user's cache
 * directory (rung_fs_cache_dir, beside the CUBIN cache, gpu/compile_cache.h:
 * outside every repository), where KEY is the
 * SHA-256 of the CUBIN and of the nvdisasm that reads it (its path, size and
 * modification time: another nvdisasm writes another listing). A repeated
 * `rung dump` of the same machine code (an MCP client reading
 * rung://dump/REV/FILE one file at a time) runs nvdisasm once. The file is
 *
 *   rung-sass-cache 1\n
 *   SHA256_HEX of the listing\n
 *   LISTING
 *
 * and one that does not read back whole and matching is a miss (replaced by
 * the next put). Nothing below DIR is followed through a link. */
#ifndef RUNG_GPU_SASS_CACHE_H
#define RUNG_GPU_SASS_CACHE_H

#include <stdbool.h>
#include <stddef.h>

/* rung_sass_from_cubin (gpu/nvdisasm.h) through the cache in dir (NULL or
 * "": no cache): the same returns; *cached set when nvdisasm did not run. A
 * listing that cannot be kept is still returned (the cache only saves time). */
int rung_sass_from_cubin_kept(char **out_text, const void *cubin, size_t len, const char *dir, bool *cached);

#endif

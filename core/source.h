/* A source file handed to the compiler by name, in memory (a header the kernel
 * #includes, read from git at the kernel's revision). Shared by vcs/ (which
 * reads them) and gpu/ (which compiles them), so it lives in core/. Also what
 * both need to know about source text: its encoding and its #include lines. */
#ifndef RUNG_CORE_SOURCE_H
#define RUNG_CORE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
	const char *name; /* as #included, e.g. "tile.cuh" */
	const char *text;
	size_t len;       /* bytes of text; 0: strlen(text) (a NUL byte inside is then not seen) */
} rung_header;

/* Checks len bytes of source text before NVRTC reads it, as rung.ini is checked:
 * NVRTC takes UTF-8 (or ASCII) only and misreads anything else without saying so
 * (a 0xFF byte ends the file, a NUL byte cuts it, a byte-order mark is an
 * "unrecognized token"). `file` names the text in messages. Returns 0 with *skip
 * the bytes to drop before compiling (3 for a UTF-8 byte-order mark, which is
 * dropped silently; else 0), or RUNG_EINVAL with the message set:
 *   "sgemm.cu: UTF-16 text (BOM FF FE): save it as UTF-8"
 *   "sgemm.cu: UTF-16 text (little-endian, no BOM): save it as UTF-8"
 *   "sgemm.cu:7: NUL byte (the file must be UTF-8 or ASCII text)"
 *   "sgemm.cu:12: byte 0xFF is not UTF-8 (the file must be UTF-8 or ASCII)" */
int rung_source_check(size_t *skip, const char *text, size_t len, const char *file);

/* The names in the `#include "NAME"` lines of src, in order, each once (<...>
 * includes are left out). Caller frees each name and the array. */
int rung_scan_includes(char ***out, int *n, const char *src);

/* One #include directive as the preprocessor sees it. */
typedef struct {
	char *name; /* between the quotes or the brackets; NULL: a computed #include (a macro) */
	int line;   /* 1-based line where the directive starts */
	bool angle; /* <name> */
} rung_include;

/* Every #include (and #include_next) directive of len bytes of src, as the
 * preprocessor finds them: lines joined at a backslash-newline, comments
 * (block comments across lines too) read as a space, `#` or its digraph `%:`,
 * string, character and raw string literals skipped, so that a directive
 * cannot hide from the scan nor one be seen inside a comment. A directive whose
 * operand is neither "..." nor <...> is a computed include (name NULL). Caller
 * frees with rung_includes_free. 0 or RUNG_ENOMEM. */
int rung_include_scan(rung_include **out, int *n, const char *src, size_t len);
void rung_includes_free(rung_include *v, int n);

#endif

/* A source file handed to the compiler by name, in memory (a header the kernel
 * #includes, read from git at the kernel's revision). Shared by vcs/ (which
 * reads them) and gpu/ (which compiles them), so it lives in core/. */
#ifndef RUNG_CORE_SOURCE_H
#define RUNG_CORE_SOURCE_H

typedef struct {
	const char *name; /* as #included, e.g. "tile.cuh" */
	const char *text;
} rung_header;

#endif

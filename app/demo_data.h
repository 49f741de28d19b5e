/* The example tasks embedded in the binary (generated from examples/ by
 * cmake/embed.cmake into the build dir): `rung demo` builds its repository
 * from these bytes, so it works from any directory and after install. */
#ifndef RUNG_APP_DEMO_DATA_H
#define RUNG_APP_DEMO_DATA_H

#include <stddef.h>

typedef struct {
	const char *path;           /* relative to examples/: "sgemm/ladder/01-naive.cu" */
	const unsigned char *bytes; /* followed by a NUL that len does not count */
	size_t len;
} rung_demo_file;

/* rung_demo_nfiles entries, then a {NULL, NULL, 0} terminator. */
extern const rung_demo_file rung_demo_files[];
extern const int rung_demo_nfiles;

#endif

/* Running a CLI command in this process with its stdout and stderr captured
 * to memory (the MCP server's tools). */
#ifndef RUNG_CLI_CAPTURE_H
#define RUNG_CLI_CAPTURE_H

#include <stddef.h>

/* Runs fn(argc, argv) with the globals stdout and stderr pointing at two
 * capture streams, then puts them back. *out and *err get what it printed,
 * NUL-terminated (free() them; never NULL on success), *nout and *nerr their
 * lengths, *rc its exit code. Returns 0, or RUNG_ENOMEM.
 *
 * The two capture streams are made once and never closed. A library first
 * loaded during a command keeps the stdout and stderr it sees then: libstdc++,
 * loaded through NVRTC's builtins or the CUDA libraries, binds std::cout and
 * std::cerr to them and flushes them at exit. A stream closed after the
 * command would be a freed FILE by then ("Fatal error: glibc detected an
 * invalid stdio handle", or SIGSEGV, at the MCP server's exit after GPU
 * checks, #27). Between commands they discard what is written to them. */
int rung_cli_capture(char **out, size_t *nout, char **err, size_t *nerr, int *rc, int (*fn)(int, char **),
		     int argc, char **argv);

#endif

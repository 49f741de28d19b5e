/* How a check (app/check.h) is shown, by `rung check` and the MCP server's
 * check tool alike: the rung lines, the messages rung says about it (on
 * stderr for the CLI, after the exit line in MCP's text), and its exit code
 * (docs/CLI.md). The JSON form is the service's own (rung_check_to_json). */
#ifndef RUNG_CLI_CHECK_VIEW_H
#define RUNG_CLI_CHECK_VIEW_H

#include <stdio.h>

#include "app/check.h"

/* The exit code of a check: a refused target or task as rung_cli_exit_of
 * says; rung's own failure 5; the compile rung failed 1; the reference does
 * not compile (or the spec's arch or options are refused) 3; else the GPU
 * rungs' (and the sanitize rung's, when asked) code. */
int rung_check_exit(const rung_check_result *c);

/* One line per rung ("[compile] ok regs=40 ...", " (cached)" on a stored
 * one), what the sidecar added, the suspects, the kernel's output and the
 * no-op line, made inert. A result that was not loaded prints nothing. */
void rung_check_print_lines(FILE *f, const rung_check_result *c);

/* "rung check: ..." lines about a check, before its lines (the store could
 * not be opened or written, rung's own failure, a refused target) and after
 * them (the reference does not compile), each ending in a newline. */
void rung_check_print_before(FILE *f, const rung_check_result *c);
void rung_check_print_after(FILE *f, const rung_check_result *c);

#endif

/* The text forms of app/ results that a command prints and the MCP server
 * sends as a tool's text (cli/cmd_mcp.c): one printer per result type, on
 * any FILE, so that both show the same bytes. */
#ifndef RUNG_CLI_VIEWS_H
#define RUNG_CLI_VIEWS_H

#include <stdio.h>

#include "app/dump.h"
#include "app/log.h"

/* `rung log`'s table of l (cli/cmd_log.c); kernel_path: what to commit when
 * there are no versions. */
void rung_cli_log_table(FILE *f, const rung_log *l, const char *kernel_path);

/* What `rung dump` wrote (r): each path on out, each message on err as
 * "rung dump: ..."; returns its exit code. */
int rung_cli_dump_print(FILE *out, FILE *err, const rung_dump_result *r);

#endif

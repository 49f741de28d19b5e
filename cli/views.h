/* The text forms of app/ results that a command prints and the MCP server
 * sends as a tool's text (cli/cmd_mcp.c): one printer per result type, on
 * any FILE, so that both show the same bytes. */
#ifndef RUNG_CLI_VIEWS_H
#define RUNG_CLI_VIEWS_H

#include <stdio.h>

#include "app/brief.h"
#include "app/compare.h"
#include "app/dump.h"
#include "app/log.h"
#include "app/task.h"

/* `rung log`'s table of l (cli/cmd_log.c); kernel_path: what to commit when
 * there are no versions. */
void rung_cli_log_table(FILE *f, const rung_log *l, const char *kernel_path);

/* What `rung dump` wrote (r): each path on out, each message on err as
 * "rung dump: ..."; returns its exit code. */
int rung_cli_dump_print(FILE *out, FILE *err, const rung_dump_result *r);

/* `rung brief`'s markdown of b on f (c: its task), the last nlast versions
 * listed, its messages on err; its exit code. */
int rung_cli_brief_markdown(FILE *f, FILE *err, rung_vctx *c, const rung_brief *b, int nlast, bool mark);
/* Opens the task o names, loads its brief (app/brief.h) and writes it, as
 * rung brief does for one task: the exit code. */
int rung_cli_brief_to(FILE *f, FILE *err, const rung_vctx_opts *o, int nlast, bool mark);

/* `rung compare`'s exit code for r: 0 a verdict (SAME, or timed), 1 FAILED,
 * DISAGREE, SHARED or OTHER_GPU, 4 SKIPPED (no GPU). */
int rung_cli_compare_exit(const rung_compare_result *r);

/* The comparison of a and b (revisions, task directories or kernel files)
 * where w says, budget (NULL: the default) checked as --budget is, with
 * stored (revisions only) their stored results compared as --stored does,
 * any_gpu as --any-gpu: 0 with *r
 * filled (clear it either way), or the exit code after its messages on err.
 * For a front end without a command line (the MCP compare tool). */
int rung_cli_compare_run(FILE *err, rung_compare_result *r, const rung_task_where *w, const char *a, const char *b,
			 const char *budget, bool allow_shared, bool stored, bool any_gpu);

#endif

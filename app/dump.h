/* `rung dump` as a service (#26 item 1): compile a task's kernel and
 * reference and write kernel.cu/.ptx/.cubin/.sass and ptxas.log (and
 * reference.*) into a folder, for an agent to read. The CLI prints what it
 * wrote (cli/cmd_dump.c); the MCP server's dump tool and rung://dump/
 * resources read the files back (cli/cmd_mcp.c). Prints nothing. */
#ifndef RUNG_APP_DUMP_H
#define RUNG_APP_DUMP_H

#include <stdbool.h>

#include "app/task.h"

typedef struct {
	const rung_task *task; /* loaded (rung_task_load_target): a path target or a version */
	/* The person's folder (created if needed); NULL: <taskdir>/.rung/dumps/,
	 * or .rung/dumps/<rev>/ for a version, reached from the repository's root
	 * without following a link, with a .rung/.gitignore of its own. */
	const char *out;
} rung_dump_req;

/* What a dump did, in order: a file written (its path as shown: the folder
 * joined with the name), or a message (what went wrong, one line, without
 * "rung dump: "). */
typedef struct {
	bool message;
	char *text;
} rung_dump_item;

typedef struct {
	rung_dump_item *items;
	int n;
	/* 0, or what kept it from a whole dump: RUNG_ECOMPILE (the kernel did not
	 * compile; its source and log are written), RUNG_ESPEC (the reference did
	 * not, NVRTC refused the spec's arch or options, or a link is where the
	 * folder goes), RUNG_EIO (rung's own: a file could not be written). */
	int err;
} rung_dump_result;

/* Writes the dump of req->task. Returns out->err (each failure is also a
 * message in out->items). Clear with rung_dump_result_clear either way. */
int rung_dump(rung_dump_result *out, const rung_dump_req *req);
void rung_dump_result_clear(rung_dump_result *r);

#endif

/* rung dump [--out DIR] [-C DIR] [--task DIR] [--spec-rev REV] [TASKDIR|FILE|REV]
 *
 * Compiles the kernel and the reference and writes, for an agent to read:
 *   kernel.cu kernel.ptx kernel.cubin kernel.sass ptxas.log
 * (a PTX version: kernel.ptx as committed; a CUBIN version: kernel.cubin as
 * committed, with no .cu or .ptx; the log is ptxas's, or says the CUBIN was
 * loaded as it is)
 *   reference.cu reference.ptx reference.cubin reference.sass reference.ptxas.log
 * into DIR (default <taskdir>/.rung/dumps/, or <taskdir>/.rung/dumps/<rev>/ for a
 * REV target read from git), printing each path written. The kernel's and
 * the reference's compile and SASS are kept by content in the user's cache
 * directory (core/fs.h, rung_fs_cache_dir: cubin/, sass/) and reused. Without
 * nvdisasm the .sass files are left out (said on stderr) and the exit code stays 0.
 * The dump is app/dump.c's (rung_dump); this file prints what it wrote. */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/views.h"
#include "app/dump.h"
#include "app/task.h"

int rung_cli_dump_print(FILE *out, FILE *err, const rung_dump_result *r)
{
	for (int i = 0; i < r->n; i++) {
		if (r->items[i].message)
			fprintf(err, "rung dump: %s\n", r->items[i].text);
		else
			fprintf(out, "%s\n", r->items[i].text);
	}
	return rung_cli_exit_of(r->err);
}

typedef struct {
	const char *out;
	rung_task_where where;
} dump_opts;

static const rung_opt_spec dump_specs[] = {
	{RUNG_OPT_STR(dump_opts, out), .name = "out", .shortname = 'o', .value = "DIR",
	 .help = "write here (created if needed; default <taskdir>/.rung/dumps/)"},
	{RUNG_OPT_SUBTABLE(dump_opts, where, rung_vctx_opt_specs)},
	{0}};
const rung_opt_table rung_opts_dump = {.cmd = "dump", .args = "[TASKDIR|FILE|REV]", .max_args = 1, .opts = dump_specs};

int rung_cmd_dump(int argc, char **argv)
{
	dump_opts d = {0};
	int prc, nargs;
	if (rung_opts_parse(&prc, &rung_opts_dump, &d, argc, argv, &nargs))
		return prc;
	const char *out = d.out, *target = nargs ? argv[1] : NULL;
	rung_task_where where = d.where;
	rung_task t;
	int rc = rung_cli_task_load(&t, "dump", target, &where);
	if (rc) {
		rung_task_clear(&t);
		return rc;
	}
	rung_dump_result r;
	rung_dump(&r, &(rung_dump_req){.task = &t, .out = out});
	rc = rung_cli_dump_print(stdout, stderr, &r);
	rung_dump_result_clear(&r);
	rung_task_clear(&t);
	return rc;
}

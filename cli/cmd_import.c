/* rung import [-C DIR] [--task DIR] [--spec-rev REV] FILE (- for stdin): reads
 * `rung export` lines and stores them as recorded results ("recorded on <GPU>,
 * <date>"), kept apart from live ones (the reading itself is app/import.c,
 * shared with `rung demo`). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "app/import.h"
#include "app/session.h"

typedef struct {
	rung_vctx_opts where;
} import_opts;

static const rung_opt_spec import_specs[] = {{RUNG_OPT_SUBTABLE(import_opts, where, rung_vctx_opt_specs)}, {0}};
const rung_opt_table rung_opts_import = {.cmd = "import", .args = "FILE", .min_args = 1, .max_args = 1,
					 .opts = import_specs};

int rung_cmd_import(int argc, char **argv)
{
	import_opts io = {0};
	int rc, nargs;
	if (rung_opts_parse(&rc, &rung_opts_import, &io, argc, argv, &nargs))
		return rc;
	const char *file = argv[1]; /* "-": stdin */
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	if (!f) {
		fprintf(stderr, "rung import: %s: cannot open\n", file);
		return RUNG_EXIT_USAGE;
	}
	rung_vctx c;
	rc = rung_cli_vctx_open(&c, "import", &io.where, RUNG_VCTX_STORE);
	if (rc) {
		if (f != stdin)
			fclose(f);
		return rc;
	}
	int n = 0;
	int e = rung_import_stream(&n, c.store, f, file);
	rc = e < 0 ? rung_cli_fail("import", e) : RUNG_EXIT_OK;
	if (f != stdin)
		fclose(f);
	if (rc == 0)
		printf("imported %d recorded result(s) from %s\n", n, file);
	rung_vctx_close(&c);
	return rc;
}

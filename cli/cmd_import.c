/* rung import FILE: reads `rung export` lines and stores them as recorded
 * results ("recorded on <GPU>, <date>"), kept apart from live ones
 * (the reading itself is app/import.c, shared with `rung demo`). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "app/import.h"
#include "app/session.h"

int rung_cmd_import(int argc, char **argv)
{
	rung_vctx_opts o = {0};
	const char *file = NULL;
	for (int i = 1; i < argc; i++) {
		int k = rung_vctx_opt(&o, "import", argc, argv, &i);
		if (k < 0)
			return RUNG_EXIT_USAGE;
		if (k > 0)
			continue;
		if (!file && (argv[i][0] != '-' || !argv[i][1]))
			file = argv[i];
		else {
			fprintf(stderr, "rung import: unknown argument '%s'\n", argv[i]);
			return RUNG_EXIT_USAGE;
		}
	}
	if (!file)
		return rung_cli_usage("import", 1);
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	if (!f) {
		fprintf(stderr, "rung import: %s: cannot open\n", file);
		return RUNG_EXIT_USAGE;
	}
	rung_vctx c;
	int rc = rung_cli_vctx_open(&c, "import", &o, RUNG_VCTX_STORE);
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

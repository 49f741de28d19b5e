/* rung tui [-C DIR] [--theme NAME] [TASKDIR]: the workbench on a repository.
 * --auto-eval (hidden; rung demo): asks a worker process for the GPU in the
 * background and evaluates every version without a live result when there is
 * one (as `E`), else says "no GPU: showing recorded results".
 * RUNG_TUI_SCRIPT=FILE reads keys from FILE with no display (tests);
 * RUNG_TUI_DUMP_DIR says where its :dump and :dump-attrs files go. Without a
 * script, a non-terminal or a TERM curses cannot draw on exits 2 at once. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "cli/cli.h"
#include "tui/model/model.h"
#include "tui/theme.h"
#include "tui/view.h"

int rung_cmd_tui(int argc, char **argv)
{
	const char *dir = NULL, *theme = NULL, *task = NULL;
	int memory = 0;
	bool auto_eval = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--auto-eval")) {
			auto_eval = true;
		} else if (!strcmp(a, "-C") || !strcmp(a, "--theme") || !strcmp(a, "--memory")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "rung tui: %s needs a value\n", a);
				return rung_cli_usage("tui", 1);
			}
			if (!strcmp(a, "-C"))
				dir = argv[++i];
			else if (!strcmp(a, "--theme"))
				theme = argv[++i];
			else
				memory = atoi(argv[++i]); /* hidden: an in-memory demo model of N versions */
		} else if (!strncmp(a, "--theme=", 8)) {
			theme = a + 8;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "rung tui: unknown option '%s'\n", a);
			return rung_cli_usage("tui", 1);
		} else if (!task) {
			task = a;
		} else {
			fprintf(stderr, "rung tui: unexpected argument '%s'\n", a);
			return rung_cli_usage("tui", 1);
		}
	}
	const char *script = getenv("RUNG_TUI_SCRIPT");
	if (script && !*script)
		script = NULL;
	/* a bad --theme (or config file) is reported as such, on a terminal or not */
	char theme_name[128];
	bool colour;
	rung_theme th;
	if (rung_theme_choose(theme_name, sizeof(theme_name), &colour, theme) < 0 ||
	    rung_theme_load(&th, theme_name) < 0) {
		fprintf(stderr, "rung tui: %s\n", rung_error_last());
		return RUNG_EXIT_USAGE;
	}
	/* keys from a script need no terminal; the keyboard needs one that curses can draw on */
	if (!script && rung_tui_terminal_check() < 0) {
		fprintf(stderr, "rung tui: %s; 'rung log' prints the versions as a table\n", rung_error_last());
		return RUNG_EXIT_USAGE;
	}
	rung_model *m = NULL;
	int e = memory > 0 ? rung_model_mem_new(&m) : rung_model_git_new(&m, dir, task);
	if (e == 0 && memory > 0)
		e = rung_model_mem_demo(m, memory, 1);
	if (e < 0) {
		fprintf(stderr, "rung tui: %s\n", rung_error_last());
		rung_model_free(m);
		return e == RUNG_EINVAL ? RUNG_EXIT_SPEC : e == RUNG_ENOTFOUND ? RUNG_EXIT_USAGE : RUNG_EXIT_INTERNAL;
	}
	if (auto_eval && memory <= 0 && rung_model_auto_evaluate(m) < 0)
		snprintf(m->message, sizeof(m->message), "auto-evaluation: %.200s", rung_error_last());
	rung_tui_opts o = {
		.theme = theme,
		.script = script,
		.dump_dir = getenv("RUNG_TUI_DUMP_DIR"),
	};
	e = rung_tui_run(m, &o);
	rung_model_free(m);
	if (e < 0) {
		fprintf(stderr, "rung tui: %s\n", rung_error_last());
		return RUNG_EXIT_INTERNAL;
	}
	return RUNG_EXIT_OK;
}

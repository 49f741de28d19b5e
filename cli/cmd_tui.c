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

typedef struct {
	const char *dir, *theme;
	int memory;
	bool auto_eval;
} tui_opts;

static const rung_opt_spec tui_specs[] = {
	{RUNG_CLI_OPT_C(tui_opts, dir)},
	{RUNG_OPT_STR(tui_opts, theme), .name = "theme", .value = "NAME",
	 .help = "a theme by name (default, light, high-contrast, monochrome) or a theme file"},
	{RUNG_OPT_BOOL(tui_opts, auto_eval), .name = "auto-eval", .flags = RUNG_OPTF_HIDDEN,
	 .help = "rung demo: evaluate every version without a live result when there is a GPU"},
	{RUNG_OPT_NUM(tui_opts, memory, 0, 10000000), .name = "memory", .value = "N", .flags = RUNG_OPTF_HIDDEN,
	 .help = "an in-memory demo model of N versions (0: the repository)"},
	{0}};
const rung_opt_table rung_opts_tui = {.cmd = "tui", .args = "[TASKDIR]", .max_args = 1, .opts = tui_specs};

int rung_cmd_tui(int argc, char **argv)
{
	tui_opts to = {0};
	int rc, nargs;
	if (rung_opts_parse(&rc, &rung_opts_tui, &to, argc, argv, &nargs))
		return rc;
	const char *dir = to.dir, *theme = to.theme, *task = nargs ? argv[1] : NULL;
	const int memory = to.memory;
	const bool auto_eval = to.auto_eval;
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

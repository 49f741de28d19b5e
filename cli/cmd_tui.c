/* rung tui [-C DIR] [--theme NAME] [--auto-eval[=MODE]|--no-auto-eval] [--workers SPEC] [TASKDIR]:
 * the workbench on a repository. --workers (else `workers =` in the config):
 * its evaluations run on a pool of workers (app/pool.h), whose status the
 * status bar shows while a batch runs. Auto-evaluation (--auto-eval=MODE, else
 * `auto_eval` in the config, else gpu): the model's worker says in the
 * background whether there is a GPU; with one (gpu, on) every version without
 * a live result is evaluated (as `E`) and each new commit as it appears;
 * without one the compile rung runs for the versions with no result at all
 * (gpu) or for every version without a live one (on). off: nothing unless asked.
 * RUNG_TUI_SCRIPT=FILE reads keys from FILE with no display (tests);
 * RUNG_TUI_DUMP_DIR says where its :dump and :dump-attrs files go. Without a
 * script, a non-terminal or a TERM curses cannot draw on exits 2 at once. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "app/pool.h"
#include "cli/cli.h"
#include "tui/model/model.h"
#include "tui/theme.h"
#include "tui/view.h"

typedef struct {
	bool set;
	rung_auto_eval mode;
} auto_eval_sel;

typedef struct {
	const char *dir, *theme, *spec_rev, *workers;
	int memory;
	auto_eval_sel auto_eval;
} tui_opts;

static int auto_eval_fn(void *field, const rung_opt_spec *s, const char *cmd, const char *value)
{
	auto_eval_sel *sel = field;
	sel->set = true;
	if (!strcmp(s->name, "no-auto-eval")) {
		sel->mode = RUNG_AUTO_EVAL_OFF;
		return 0;
	}
	if (!value) {
		sel->mode = RUNG_AUTO_EVAL_GPU;
		return 0;
	}
	if (rung_auto_eval_parse(&sel->mode, value) < 0) {
		fprintf(stderr, "rung %s: --auto-eval: %s\n", cmd, rung_error_last());
		return -1;
	}
	return 0;
}

static const rung_opt_spec tui_specs[] = {
	{RUNG_CLI_OPT_C(tui_opts, dir)},
	{RUNG_OPT_STR(tui_opts, theme), .name = "theme", .value = "NAME",
	 .help = "a theme by name (default, light, high-contrast, monochrome) or a theme file"},
	{.kind = RUNG_OPT_FN, .offset = offsetof(tui_opts, auto_eval), .fn = auto_eval_fn, .name = "auto-eval",
	 .value = "MODE", .flags = RUNG_OPTF_OPTIONAL, .choices = "gpu on off",
	 .help = "evaluate without asking: gpu (default; without a GPU only the compile rung of unmeasured versions), on, off"},
	{.kind = RUNG_OPT_FN, .offset = offsetof(tui_opts, auto_eval), .fn = auto_eval_fn, .name = "no-auto-eval",
	 .help = "evaluate nothing unless asked (e, E), whatever the config's auto_eval says"},
	{RUNG_OPT_STR(tui_opts, spec_rev), .name = "spec-rev", .value = "REV",
	 .help = "read rung.ini and the reference at this revision (default HEAD's, else the last good one)"},
	{RUNG_OPT_STR(tui_opts, workers), .name = "workers", .value = "SPEC",
	 .help = "evaluate on a pool of workers, as rung eval's: local:N, local:0,1,3, ssh:HOST[,HOST], slurm:N[,partition=P][,gres=G]"},
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
	rung_auto_eval auto_eval = to.auto_eval.mode;
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
	/* the config's auto_eval and workers (when the options do not say) */
	rung_config cfg;
	bool workers_from_config = false;
	if ((!to.auto_eval.set || !to.workers) && memory <= 0) {
		if (rung_config_read(&cfg) < 0) {
			fprintf(stderr, "rung tui: %s\n", rung_error_last());
			return RUNG_EXIT_USAGE;
		}
		if (!to.auto_eval.set)
			auto_eval = cfg.auto_eval;
		if (!to.workers && cfg.workers[0])
			to.workers = cfg.workers, workers_from_config = true;
	}
	/* a bad pool spec is a usage error before the screen opens */
	if (to.workers && memory <= 0) {
		rung_pool *pool = malloc(sizeof(*pool));
		int pe = pool ? rung_pool_parse(pool, to.workers) : rung_error_set(RUNG_ENOMEM, "out of memory");
		free(pool);
		if (pe < 0) {
			fprintf(stderr, "rung tui: %s%s\n", workers_from_config ? "the config's workers = : " : "",
				rung_error_last());
			return RUNG_EXIT_USAGE;
		}
	}
	/* keys from a script need no terminal; the keyboard needs one that curses can draw on */
	if (!script && rung_tui_terminal_check() < 0) {
		fprintf(stderr, "rung tui: %s; 'rung log' prints the versions as a table\n", rung_error_last());
		return RUNG_EXIT_USAGE;
	}
	rung_model *m = NULL;
	int e = memory > 0 ? rung_model_mem_new(&m) : rung_model_git_open_pool(&m, dir, task, to.spec_rev, to.workers);
	if (e == 0 && memory > 0)
		e = rung_model_mem_demo(m, memory, 1);
	if (e < 0) {
		fprintf(stderr, "rung tui: %s\n", rung_error_last());
		rung_model_free(m);
		return e == RUNG_EINVAL ? RUNG_EXIT_SPEC : e == RUNG_ENOTFOUND ? RUNG_EXIT_USAGE : RUNG_EXIT_INTERNAL;
	}
	if (auto_eval != RUNG_AUTO_EVAL_OFF && memory <= 0 &&
	    rung_model_auto_evaluate(m, RUNG_AUTO_MISSING,
				     auto_eval == RUNG_AUTO_EVAL_ON ? RUNG_AUTO_MISSING : RUNG_AUTO_UNSEEN) < 0)
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

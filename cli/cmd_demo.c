/* rung demo [--no-tui] [DIR]: builds a git repository from the example
 * ladders embedded in the binary (app/demo.h) in DIR (default: a fresh
 * directory under $TMPDIR or /tmp), then opens the workbench on it, or, with
 * --no-tui, without a terminal or on one that curses cannot draw on (TERM
 * unset, unknown or dumb), prints one table per task (results recorded on a
 * GPU where the examples carry them, else a compile-only pass) and exits. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "cli/cli.h"
#include "app/demo.h"
#include "tui/view.h"

typedef struct {
	bool no_tui;
} demo_opts;

static const rung_opt_spec demo_specs[] = {
	{RUNG_OPT_BOOL(demo_opts, no_tui), .name = "no-tui",
	 .help = "print one table per task instead of opening the workbench"},
	{0}};
const rung_opt_table rung_opts_demo = {.cmd = "demo", .args = "[DIR]", .max_args = 1, .opts = demo_specs};

/* s as one shell word: as it is when it has only characters no shell treats
 * specially, else in single quotes (a ' inside written '\''). */
static void shell_word(char *out, size_t len, const char *s)
{
	bool plain = *s != 0;
	for (const char *p = s; *p && plain; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_/.,:=@%+-", *p) != NULL;
	if (plain) {
		snprintf(out, len, "%s", s);
		return;
	}
	size_t o = 0;
	if (len < 3) {
		if (len)
			out[0] = 0;
		return;
	}
	out[o++] = '\'';
	for (const char *p = s; *p && o + 6 < len; p++) {
		if (*p == '\'') {
			memcpy(out + o, "'\\''", 4);
			o += 4;
		} else {
			out[o++] = *p;
		}
	}
	out[o++] = '\'';
	out[o] = 0;
}

int rung_cmd_demo(int argc, char **argv)
{
	demo_opts o = {0};
	int rc, nargs;
	if (rung_opts_parse(&rc, &rung_opts_demo, &o, argc, argv, &nargs))
		return rc;
	const bool no_tui = o.no_tui;
	const char *dir = nargs ? argv[1] : NULL;
	rung_demo_plan plan;
	if (rung_demo_plan_load(&plan) < 0) {
		fprintf(stderr, "rung demo: %s\n", rung_error_last());
		return RUNG_EXIT_INTERNAL;
	}
	char tmp[PATH_MAX];
	if (!dir) {
		const char *base = getenv("TMPDIR");
		snprintf(tmp, sizeof(tmp), "%s/rung-demo-XXXXXX", base && *base ? base : "/tmp");
		if (!mkdtemp(tmp)) {
			perror(tmp);
			rung_demo_plan_clear(&plan);
			return RUNG_EXIT_INTERNAL;
		}
		dir = tmp;
	}
	int e = rung_demo_prepare_dir(dir);
	if (e < 0) {
		fprintf(stderr, "rung demo: %s\n", rung_error_last());
		rung_demo_plan_clear(&plan);
		return e == RUNG_EINVAL ? RUNG_EXIT_USAGE : RUNG_EXIT_INTERNAL;
	}
	rung_demo_report rep;
	if (rung_demo_build(&rep, &plan, dir, "demo") < 0) {
		fprintf(stderr, "rung demo: %s\n", rung_error_last());
		fprintf(stderr, "rung demo: the half-built repository is left in %s\n", dir);
		rung_demo_plan_clear(&plan);
		return RUNG_EXIT_INTERNAL;
	}
	char abs[PATH_MAX];
	printf("rung demo: repository at %s\n", realpath(dir, abs) ? abs : dir);
	printf("rung demo: %d commits (", rep.commits);
	for (int t = 0; t < plan.ntasks; t++) {
		int n = 0;
		for (int i = 0; i < plan.nsteps; i++)
			n += !strcmp(plan.steps[i].task, plan.tasks[t]) && !plan.steps[i].missing[0];
		printf("%s%s: %d version%s", t ? ", " : "", plan.tasks[t], n, n == 1 ? "" : "s");
	}
	printf("), %d steering notes, %d recorded results\n", rep.notes, rep.recorded);
	if (rep.skipped)
		printf("rung demo: %s%s\n", rep.skip_note, rep.skipped > 1 ? " (and more)" : "");
	fflush(stdout);

	const char *script = getenv("RUNG_TUI_SCRIPT");
	bool shown = false;
	if (!no_tui && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "rung demo: not on a terminal: printing the versions instead of opening the workbench\n");
		shown = true;
	} else if (!no_tui && !(script && *script) && rung_tui_terminal_check() < 0) {
		/* TERM unset, unknown or dumb */
		fprintf(stderr, "rung demo: %s: printing the versions instead of opening the workbench\n",
			rung_error_last());
		shown = true;
	}
	if (no_tui || shown) {
		rc = rung_demo_show(stdout, dir, &plan, true);
		char word[2 * PATH_MAX + 8];
		shell_word(word, sizeof(word), dir);
		printf("\nrung demo: open the workbench with: rung tui -C %s %s\n", word, plan.tasks[0]);
	} else {
		/* on a GPU box the versions are evaluated at once, in the background */
		char *targv[] = {"tui", "-C", (char *)dir, "--auto-eval=gpu", plan.tasks[0], NULL};
		rc = rung_cmd_tui(5, targv);
		if (rc == RUNG_EXIT_OK)
			printf("rung demo: the repository stays in %s\n", dir);
	}
	rung_demo_plan_clear(&plan);
	return rc;
}

/* rung demo [--no-tui] [DIR]: builds a git repository from the example
 * ladders embedded in the binary (tui/demo.h) in DIR (default: a fresh
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
	bool no_tui = false;
	const char *dir = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-tui")) {
			no_tui = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			return rung_cli_usage("demo", 0);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "rung demo: unknown option '%s'\n", argv[i]);
			return rung_cli_usage("demo", 1);
		} else if (!dir) {
			dir = argv[i];
		} else {
			fprintf(stderr, "rung demo: unexpected argument '%s' (one DIR at most)\n", argv[i]);
			return rung_cli_usage("demo", 1);
		}
	}
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
			rung_demo_plan_free(&plan);
			return RUNG_EXIT_INTERNAL;
		}
		dir = tmp;
	}
	int e = rung_demo_prepare_dir(dir);
	if (e < 0) {
		fprintf(stderr, "rung demo: %s\n", rung_error_last());
		rung_demo_plan_free(&plan);
		return e == RUNG_EINVAL ? RUNG_EXIT_USAGE : RUNG_EXIT_INTERNAL;
	}
	rung_demo_report rep;
	if (rung_demo_build(&rep, &plan, dir, "demo") < 0) {
		fprintf(stderr, "rung demo: %s\n", rung_error_last());
		fprintf(stderr, "rung demo: the half-built repository is left in %s\n", dir);
		rung_demo_plan_free(&plan);
		return RUNG_EXIT_INTERNAL;
	}
	char abs[PATH_MAX];
	printf("rung demo: repository at %s\n", realpath(dir, abs) ? abs : dir);
	printf("rung demo: %d commits (", rep.commits);
	for (int t = 0; t < plan.ntasks; t++) {
		int n = 0;
		for (int i = 0; i < plan.nsteps; i++)
			n += !strcmp(plan.steps[i].task, plan.tasks[t]);
		printf("%s%s: %d version%s", t ? ", " : "", plan.tasks[t], n, n == 1 ? "" : "s");
	}
	printf("), %d steering notes, %d recorded results\n", rep.notes, rep.recorded);
	fflush(stdout);

	int rc;
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
		char *targv[] = {"tui", "-C", (char *)dir, "--auto-eval", plan.tasks[0], NULL};
		rc = rung_cmd_tui(5, targv);
		if (rc == RUNG_EXIT_OK)
			printf("rung demo: the repository stays in %s\n", dir);
	}
	rung_demo_plan_free(&plan);
	return rc;
}

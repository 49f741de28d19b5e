#include "cli/cli.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"

typedef struct {
	const char *name, *summary;
	int (*fn)(int argc, char **argv);
	const rung_opt_table *table;
} rung_command;

static const rung_command commands[] = {
#define RUNG_CMD_ENTRY(name, summary) {#name, summary, rung_cmd_##name, &rung_opts_##name},
	RUNG_COMMAND_LIST(RUNG_CMD_ENTRY)
#undef RUNG_CMD_ENTRY
};
#define NCOMMANDS (int)(sizeof(commands) / sizeof(commands[0]))

static const rung_command *find_command(const char *name)
{
	for (int i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

const rung_opt_table *rung_cli_table(const char *name)
{
	const rung_command *c = find_command(name);
	return c ? c->table : NULL;
}

const char *rung_cli_summary(const char *name)
{
	const rung_command *c = find_command(name);
	return c ? c->summary : NULL;
}

void rung_cli_each_command(rung_cli_visit fn, void *ctx)
{
	for (int i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, "worker"))
			fn(commands[i].name, commands[i].summary, commands[i].table, ctx);
}

int rung_cli_usage(const char *name, int to_stderr)
{
	FILE *f = to_stderr ? stderr : stdout;
	const rung_command *c = find_command(name);
	if (!c)
		return RUNG_EXIT_USAGE;
	rung_opts_help(f, c->table, c->summary);
	return to_stderr ? RUNG_EXIT_USAGE : RUNG_EXIT_OK;
}

/* docs/CLI.md's generated blocks: one per command, between markers that tests/sh/cli_docs.sh compares. */
static void markdown_block(const char *name, const char *summary, const rung_opt_table *t, void *ctx)
{
	printf("<!-- rung help --markdown %s -->\n", t->cmd);
	rung_opts_markdown(stdout, t);
	printf("<!-- end -->\n");
}

static int help_markdown(const char *name)
{
	if (!name) {
		rung_cli_each_command(markdown_block, NULL);
		return RUNG_EXIT_OK;
	}
	const rung_opt_table *t = rung_cli_table(name);
	if (!t) {
		fprintf(stderr, "rung help: --markdown: no command '%s'\n", name);
		return RUNG_EXIT_USAGE;
	}
	markdown_block(name, NULL, t, NULL);
	return RUNG_EXIT_OK;
}

static void main_help(FILE *f)
{
	fprintf(f, "usage: rung [--version] [--help] [COMMAND [ARGS]]\n\n"
		   "rung: a terminal workbench for GPU kernel optimization.\n"
		   "With no command on a terminal, opens the workbench (rung tui).\n\ncommands:\n");
	for (int i = 0; i < NCOMMANDS; i++) {
		if (strcmp(commands[i].name, "worker") == 0)
			continue;
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	}
	fprintf(f, "\n'rung COMMAND --help' shows a command's options. Exit codes: docs/CLI.md.\n");
}

int rung_cli_main(int argc, char **argv)
{
	if (argc < 2) {
		if (isatty(STDOUT_FILENO) && isatty(STDIN_FILENO))
			return rung_cmd_tui(1, (char *[]){"tui", NULL});
		main_help(stderr);
		return RUNG_EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "help") && argc > 2 && !strcmp(argv[2], "--markdown"))
		return help_markdown(argc > 3 ? argv[3] : NULL);
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		if (argc > 2 && find_command(argv[2]))
			return rung_cli_usage(argv[2], 0);
		main_help(stdout);
		return RUNG_EXIT_OK;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("rung %s\n", RUNG_VERSION);
		return RUNG_EXIT_OK;
	}
	const rung_command *c = find_command(cmd);
	if (!c) {
		fprintf(stderr, "rung: unknown command '%s' (see 'rung --help')\n", cmd);
		return RUNG_EXIT_USAGE;
	}
	/* the workbench draws through curses (its own sanitizer), the worker speaks
	 * the protocol, the demo opens the workbench: everything else is text */
	if (strcmp(c->name, "tui") && strcmp(c->name, "worker") && strcmp(c->name, "demo"))
		rung_cli_inert_stdio();
	return c->fn(argc - 1, argv + 1);
}

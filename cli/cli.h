/* The command-line entry. Every command is registered once in RUNG_COMMAND_LIST:
 * the dispatch table, `rung --help` and the declarations are generated from it.
 * Each command lives in its own file cli/cmd_<name>.c with one entry function
 * `int rung_cmd_<name>(int argc, char **argv)` (argv[0] is the command name),
 * returning the process exit code (see docs/CLI.md). */
#ifndef RUNG_CLI_CLI_H
#define RUNG_CLI_CLI_H

#include "cli/opts.h"

/* Exit codes (docs/CLI.md). */
enum {
	RUNG_EXIT_OK = 0,      /* every rung that ran passed */
	RUNG_EXIT_FAIL = 1,    /* a rung failed (compile, run, check, bench) */
	RUNG_EXIT_USAGE = 2,   /* bad command line */
	RUNG_EXIT_SPEC = 3,    /* bad task spec or launch line */
	RUNG_EXIT_NOGPU = 4,   /* GPU rungs requested but no driver/GPU: they were SKIPPED */
	RUNG_EXIT_INTERNAL = 5 /* rung itself failed (I/O, store, git) */
};

/*  _(name, summary): rung_cmd_<name> runs it and rung_opts_<name> is its option
 * table (cli/opts.h), from which its parser, --help, its block of docs/CLI.md
 * and its shell completion are generated; a command without a table does not link. */
#define RUNG_COMMAND_LIST(_) \
	_(tui, "open the workbench (default with no command on a terminal)") \
	_(check, "compile, run, check and bench one version") \
	_(dump, "write kernel.cu/.ptx/.cubin/.sass and ptxas.log for an agent to read") \
	_(compare, "time two versions interleaved, every launch verified: SAME, FASTER, SLOWER or DISAGREE") \
	_(log, "one row per version with its results") \
	_(eval, "evaluate versions and store their results") \
	_(brief, "markdown summary of the task for the agent's context") \
	_(watch, "evaluate new commits as they appear") \
	_(note, "add a steering note to a version (none clears the verdict)") \
	_(notes, "list steering notes") \
	_(demo, "build the demo repository and open it") \
	_(export, "export stored results to a file") \
	_(import, "import recorded results from a file") \
	_(ceilings, "measure the device's roofline ceilings") \
	_(profile, "collect CUPTI counters (--sass: per-instruction counts; --ncu: an Nsight Compute report) for a version") \
	_(trace, "intra-kernel region timings of a version (rung.h RUNG_TRACE_BEGIN/END)") \
	_(store, "check the results store (.git/rung/results.db), or rebuild it from what can still be read") \
	_(completion, "print a shell completion script (source it, or put it in the shell's completion directory)") \
	_(worker, "internal: the GPU worker process (speaks the protocol on stdin/stdout, or both ways on stdin with --socket)")

/* Every command's stdout and stderr made inert (cli/inert.c), and the
 * unfiltered stderr for rung's own progress line (stderr before the call). */
#include <stdio.h>
void rung_cli_inert_stdio(void);
FILE *rung_cli_tty_stderr(void);

#define RUNG_CMD_DECL(name, summary) \
	int rung_cmd_##name(int argc, char **argv); \
	extern const rung_opt_table rung_opts_##name;
RUNG_COMMAND_LIST(RUNG_CMD_DECL)
#undef RUNG_CMD_DECL

int rung_cli_main(int argc, char **argv);

#include "cli/common.h"
#include "cli/report.h"

/* A command's summary line and option table (NULL: no such command). */
const char *rung_cli_summary(const char *name);
const rung_opt_table *rung_cli_table(const char *name);
/* Calls fn for every command but worker (internal: not in rung --help, the docs
 * or the completion), in RUNG_COMMAND_LIST order. */
typedef void (*rung_cli_visit)(const char *name, const char *summary, const rung_opt_table *t, void *ctx);
void rung_cli_each_command(rung_cli_visit fn, void *ctx);

/* Prints the command's help (rung_opts_help); returns RUNG_EXIT_OK (stdout) or RUNG_EXIT_USAGE (stderr). */
int rung_cli_usage(const char *name, int to_stderr);

#endif

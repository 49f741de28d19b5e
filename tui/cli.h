/* The command-line entry. Every command is registered once in RUNG_COMMAND_LIST:
 * the dispatch table, `rung --help` and the declarations are generated from it.
 * Each command lives in its own file tui/cmd_<name>.c with one entry function
 * `int rung_cmd_<name>(int argc, char **argv)` (argv[0] is the command name),
 * returning the process exit code (see docs/CLI.md). */
#ifndef RUNG_TUI_CLI_H
#define RUNG_TUI_CLI_H

#include "tui/opts.h"

/* Exit codes (docs/CLI.md). */
enum {
	RUNG_EXIT_OK = 0,      /* every rung that ran passed */
	RUNG_EXIT_FAIL = 1,    /* a rung failed (compile, run, check, bench) */
	RUNG_EXIT_USAGE = 2,   /* bad command line */
	RUNG_EXIT_SPEC = 3,    /* bad task spec or launch line */
	RUNG_EXIT_NOGPU = 4,   /* GPU rungs requested but no driver/GPU: they were SKIPPED */
	RUNG_EXIT_INTERNAL = 5 /* rung itself failed (I/O, store, git) */
};

/*  _(name, usage, summary) */
#define RUNG_COMMAND_LIST(_) \
	_(tui, "tui [-C DIR] [--theme NAME] [TASKDIR]", "open the workbench (default with no command on a terminal)") \
	_(check, "check [--compile-only] [--json] [--seed S] [--budget SEC] [TASKDIR|FILE|REV]", "compile, run, check and bench one version") \
	_(dump, "dump [--out DIR] [TASKDIR|FILE|REV]", "write kernel.cu/.ptx/.cubin/.sass and ptxas.log for an agent to read") \
	_(compare, "compare [--json] [--budget SEC] A B", "time two versions interleaved, every launch verified: SAME, FASTER, SLOWER or DISAGREE") \
	_(log, "log [--json|--csv]", "one row per version with its results") \
	_(eval, "eval [REV...|--all|--missing] [--jobs N]", "evaluate versions and store their results") \
	_(brief, "brief [-n N]", "markdown summary of the task for the agent's context") \
	_(watch, "watch", "evaluate new commits as they appear") \
	_(note, "note REV [--verdict keep|reject|baseline|best|none] [--done] [TEXT]", "add a steering note to a version (none clears the verdict)") \
	_(notes, "notes", "list steering notes") \
	_(demo, "demo [--no-tui] [DIR]", "build the demo repository and open it") \
	_(export, "export [--out FILE]", "export stored results to a file") \
	_(import, "import FILE", "import recorded results from a file") \
	_(store, "store check|rebuild [--force]", "check the results store (.git/rung/results.db), or rebuild it from what can still be read") \
	_(ceilings, "ceilings [--json]", "measure the device's roofline ceilings") \
	_(profile, "profile [--json] [--seed S] [--sass|--ncu] [TASKDIR|FILE|REV]", "collect CUPTI counters (--sass: per-instruction counts; --ncu: an Nsight Compute report) for a version") \
	_(trace, "trace [--json] [--seed S] [TASKDIR|FILE|REV]", "intra-kernel region timings of a version (rung.h RUNG_TRACE_BEGIN/END)") \
	_(completion, "completion bash|zsh", "print a shell completion script (source it, or put it in the shell's completion directory)") \
	_(worker, "worker", "internal: the GPU worker process (speaks the protocol on stdin/stdout, or both ways on stdin with --socket)")

/* Every command's stdout and stderr made inert (tui/cli_inert.c), and the
 * unfiltered stderr for rung's own progress line (stderr before the call). */
#include <stdio.h>
void rung_cli_inert_stdio(void);
FILE *rung_cli_tty_stderr(void);

#define RUNG_CMD_DECL(name, usage, summary) int rung_cmd_##name(int argc, char **argv);
RUNG_COMMAND_LIST(RUNG_CMD_DECL)
#undef RUNG_CMD_DECL

/* The commands whose options come from a table (tui/opts.h): each defines
 * `const rung_opt_table rung_opts_<name>`, and its parser, --help, the docs and
 * the shell completion are generated from it. */
#define RUNG_OPTS_LIST(_) _(check) _(dump) _(compare) _(log) _(eval) _(brief) _(note) _(store) _(completion)

#define RUNG_OPTS_DECL(name) extern const rung_opt_table rung_opts_##name;
RUNG_OPTS_LIST(RUNG_OPTS_DECL)
#undef RUNG_OPTS_DECL

int rung_cli_main(int argc, char **argv);

/* A command's summary line and option table (NULL: unknown, or no table). */
const char *rung_cli_summary(const char *name);
const rung_opt_table *rung_cli_table(const char *name);
/* Calls fn for every command but worker, in RUNG_COMMAND_LIST order (t NULL: no table). */
typedef void (*rung_cli_visit)(const char *name, const char *summary, const rung_opt_table *t, void *ctx);
void rung_cli_each_command(rung_cli_visit fn, void *ctx);

/* Prints "usage: rung <usage>" and the summary; returns RUNG_EXIT_OK (stdout) or RUNG_EXIT_USAGE (stderr). */
int rung_cli_usage(const char *name, int to_stderr);

#endif

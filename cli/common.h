/* What every command shares: the options of where to work and of the
 * sanitize rung (sub-tables for a command's option table, cli/opts.h), the
 * mapping of the app layer's errors to exit codes (docs/CLI.md), and the app
 * calls every command makes, with the error printed as "rung CMD: message". */
#ifndef RUNG_CLI_COMMON_H
#define RUNG_CLI_COMMON_H

#include <stdbool.h>

#include <stdio.h>

#include "app/session.h"
#include "app/task.h"
#include "cli/opts.h"

/* The exit code of an app-layer error: RUNG_EUSAGE/RUNG_ENOTFOUND 2, RUNG_ESPEC/
 * RUNG_EINVAL 3, RUNG_ENODEV 4, RUNG_ECOMPILE 1, anything else 5; 0 for 0. */
int rung_cli_exit_of(int err);
/* Prints "rung CMD: <rung_error_last()>" and returns rung_cli_exit_of(err). */
int rung_cli_fail(const char *cmd, int err);
/* The same on f. */
int rung_cli_fail_to(FILE *f, const char *cmd, int err);

/* rung_vctx_open, rung_task_load_target and rung_task_compile_both with the
 * error printed: an exit code (0 when it worked). A kernel that does not
 * compile prints "[compile] FAILED file:line: ..." on stdout (exit 1). */
int rung_cli_vctx_open(rung_vctx *c, const char *cmd, const rung_vctx_opts *o, unsigned need);
/* The same with the messages on f (the MCP server's tool text). */
int rung_cli_vctx_open_to(FILE *f, rung_vctx *c, const char *cmd, const rung_vctx_opts *o, unsigned need);
int rung_cli_task_load(rung_task *t, const char *cmd, const char *target, const rung_task_where *w);
int rung_cli_task_load_to(FILE *f, rung_task *t, const char *cmd, const char *target, const rung_task_where *w);
/* The error of a failed load as one JSON line on stdout ({"status":"error",
 * "exit":rc,"error":...}), for --json readers: an agent gets the error, not
 * nothing. Once a command (a second call prints nothing). rung_cli_vctx_open,
 * rung_cli_task_load and the option parser print it themselves under --json. */
void rung_cli_json_error(int rc);
/* That object ({"status":"error","exit":rc,"error":...}). */
struct json_t *rung_cli_json_error_obj(int rc);
/* "rung CMD: MESSAGE" on stderr, and under --json (rung_opts_json) the JSON
 * error object on stdout; returns rc. For an argument the command refuses. */
int rung_cli_error(const char *cmd, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int rung_cli_compile_both(rung_compiled *kc, rung_compiled *rc, const rung_task *t, const char *cmd);

/* The one evaluation of t (app/evaluate.h) in a worker of its own, with the
 * progress line on a terminal: RUNG_EXIT_OK when the GPU rungs ran (their
 * verdict is in r), else the exit code after printing why ("[compile] FAILED
 * ..." on stdout, exit 1; the reference does not compile, exit 3; rung's own
 * failure, exit 5). kc and rc are filled (caller frees). */
#include "app/evaluate.h"
int rung_cli_evaluate(rung_result *r, const rung_task *t, const rung_eval_opts *o, rung_compiled *kc,
		      rung_compiled *rc, const char *cmd);
/* The same with its lines on out and its messages on err (the MCP server's tool text). */
int rung_cli_evaluate_to(FILE *out, FILE *err, rung_result *r, const rung_task *t, const rung_eval_opts *o,
			 rung_compiled *kc, rung_compiled *rc, const char *cmd);

/* -C DIR, --task DIR, --spec-rev REV as a sub-table:
 * {RUNG_OPT_SUBTABLE(my_opts, where, rung_vctx_opt_specs)}. */
extern const rung_opt_spec rung_vctx_opt_specs[];
/* -C DIR alone, for a command that takes no task (ceilings, tui): {RUNG_CLI_OPT_C(my_opts, dir)}. */
#define RUNG_CLI_OPT_C(T, f) \
	RUNG_OPT_STR(T, f), .shortname = 'C', .value = "DIR", \
	.help = "the repository (or a directory in it) to work in, as git -C"

/* --json, --seed S and where to work (-C, --task, --spec-rev): the options of a
 * command that runs one version once more on the GPU (profile, trace), as a
 * sub-table: {RUNG_OPT_SUBTABLE(my_opts, run, rung_gpu_run_opt_specs)}. */
typedef struct {
	bool json, has_seed; /* has_seed: --seed given */
	unsigned long long seed;
	rung_task_where where;
} rung_gpu_run_opts;
extern const rung_opt_spec rung_gpu_run_opt_specs[];

/* A repository with several tasks and none named (no --task, not run from
 * inside one): runs the command fn once per task, with "--task DIR" added to
 * argv, each under a line "== task NAME" when header, and returns the worst
 * exit code. -1 when there is one task to work on (the caller goes on). */
int rung_vctx_each_task(const rung_vctx_opts *o, int argc, char **argv, int (*fn)(int, char **), bool header);
/* The tasks rung_vctx_each_task would run the command for (repo-relative,
 * "" for the root; free with rung_strv_free): 0, or -1 when there is one task
 * to work on. */
int rung_vctx_root_tasks(char ***tasks, int *n, const rung_vctx_opts *o);
/* The absolute path of one of those tasks ("" is the root itself), or the
 * name as given when it cannot be resolved. */
void rung_root_task_path(char *abs, size_t len, const char *task);

/* `--sanitize` (memcheck, racecheck), `--sanitize=memcheck,initcheck` or
 * `--no-sanitize` as a sub-table for a rung_sanitize_sel field:
 * {RUNG_OPT_SUBTABLE(my_opts, sanitize, rung_sanitize_opt_specs)}. */
typedef struct {
	bool set;       /* --sanitize or --no-sanitize given (else the spec's [check] sanitize) */
	unsigned tools; /* RUNG_SAN_BIT mask; 0 after --no-sanitize */
} rung_sanitize_sel;
extern const rung_opt_spec rung_sanitize_opt_specs[];

#endif

/* Shared by the git-facing commands (log, eval, brief, watch, note, notes,
 * export, import): open the repository, pick the task, open the store, and
 * collect versions with their stored results and notes. */
#ifndef RUNG_TUI_VCS_CTX_H
#define RUNG_TUI_VCS_CTX_H

#include <stdbool.h>
#include <stdio.h>

#include "core/result.h"
#include "vcs/history.h"
#include "vcs/notes.h"
#include "vcs/repo.h"
#include "vcs/store.h"
#include "vcs/task_rev.h"
#include "tui/opts.h"

/* RUNG_VCTX_TASK_IF_ONE: the task when one can be picked (inside its
 * directory, --task, or the only one), else none, without an error (c->task
 * stays empty: task.kernel_path NULL). */
/* RUNG_VCTX_STORE_READ: the store for a command that only reads it, opened
 * read-only where it cannot be written (rung_store_open_repo_read). */
enum { RUNG_VCTX_TASK = 1, RUNG_VCTX_STORE = 2, RUNG_VCTX_TASK_IF_ONE = 4, RUNG_VCTX_STORE_READ = 8 };

typedef struct {
	const char *cmd;
	rung_repo *repo;
	rung_vtask task; /* valid with RUNG_VCTX_TASK */
	rung_store *store;
} rung_vctx;

/* Common options of these commands: -C DIR, --task DIR, --spec-rev REV.
 * Returns 1 when argv[*i] was one of them (consuming its value), 0 if not,
 * -1 (message printed) when its value is missing. */
typedef struct {
	const char *dir, *task, *spec_rev;
} rung_vctx_opts;
int rung_vctx_opt(rung_vctx_opts *o, const char *cmd, int argc, char **argv, int *i);
/* The same options as a sub-table for a command's option table (tui/opts.h):
 * {RUNG_OPT_SUBTABLE(my_opts, where, rung_vctx_opt_specs)}. */
extern const rung_opt_spec rung_vctx_opt_specs[];

/* A repository with several tasks and none named (no --task, not run from
 * inside one): runs the command fn once per task, with "--task DIR" added to
 * argv, each under a line "== task NAME" when header, and returns the worst
 * exit code. -1 when there is one task to work on (the caller goes on). */
int rung_vctx_each_task(const rung_vctx_opts *o, int argc, char **argv, int (*fn)(int, char **), bool header);

/* Returns RUNG_EXIT_OK or a RUNG_EXIT_* code after printing "rung <cmd>: <message>". */
int rung_vctx_open(rung_vctx *c, const char *cmd, const rung_vctx_opts *o, unsigned need);
void rung_vctx_close(rung_vctx *c);

typedef struct {
	rung_version v;
	char content[65];   /* "" when the source could not be read */
	rung_result *result; /* owned; NULL when not evaluated */
	bool via_content;   /* found by content from another commit (cache hit) */
	rung_note note;     /* zeroed when none */
	bool has_note;
} rung_vrow;

/* Up to max versions (max <= 0: all), newest first, with results (live) and notes. */
int rung_vctx_rows(rung_vrow **out, int *n, rung_vctx *c, const char *range, int max);
void rung_vrows_free(rung_vrow *rows, int n);
/* Looks up the stored result of one version (live). NULL if none. */
rung_result *rung_vctx_lookup(rung_vctx *c, const rung_version *v, const char *content, bool *via_content);

/* The baseline: the version with a `baseline` verdict, else the oldest passing one. -1 if none. */
int rung_vrows_baseline(const rung_vrow *rows, int n);
/* The fastest passing version (a `best` verdict does not override a measurement). -1 if none. */
int rung_vrows_best(const rung_vrow *rows, int n);
bool rung_result_passed(const rung_result *r);

/* Worst metrics over all outputs/shapes/seeds (NAN when absent). */
void rung_result_worst(const rung_result *r, double *max_rel, double *psnr, double *cossim);
/* "ok ok ok ok -": one word per rung. */
void rung_result_steps_str(char *buf, size_t len, const rung_result *r);
/* One status line: "abc1234 ok  1.234 ms  max_rel 2.1e-07  tile it" or the failure reason. */
void rung_vrow_line(char *buf, size_t len, const rung_version *v, const rung_result *r);

#endif

/* Shared by the git-facing commands (log, eval, brief, watch, note, notes,
 * export, import): open the repository, pick the task, open the store, and
 * collect versions with their stored results and notes. */
#ifndef RUNG_APP_SESSION_H
#define RUNG_APP_SESSION_H

#include <stdbool.h>
#include <stdio.h>

#include "core/result.h"
#include "vcs/history.h"
#include "vcs/notes.h"
#include "vcs/repo.h"
#include "vcs/store.h"
#include "vcs/task_rev.h"

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

/* Where to work: -C DIR, --task DIR, --spec-rev REV (each may be NULL). */
typedef struct {
	const char *dir, *task, *spec_rev;
} rung_vctx_opts;

/* The one task resolver, for every front end (the CLI's cwd, -C DIR and
 * --task, the MCP server's `task` and `?task=`, the workbench): the task
 * directory (repo-relative, "" for the root) that o names.
 * - o->task set: the task it names, as a path from o->dir (or the current
 *   directory) when that is a task directory, else as a task's name from the
 *   repository's root ("softmax", what `rung log` prints). Never the task
 *   around the working directory instead: a name that is no task is
 *   RUNG_EUSAGE, the message listing the tasks.
 * - o->task NULL: the task containing o->dir (or the current directory), else
 *   the only one; several and none named: RUNG_EINVAL (the message lists
 *   them); none at all: RUNG_ENOTFOUND. Caller frees *out. */
int rung_where_task(char **out, rung_repo *r, const rung_vctx_opts *o);
/* The task containing path (repo-relative, caller frees): 0, or 1 when path
 * lies in no task (or outside the working tree), *out NULL. */
int rung_where_task_of(char **out, rung_repo *r, const char *path);
/* The error e of opening the repository, or, when o names a task (o->task)
 * that is not there, that (RUNG_EUSAGE, "X: no such task directory or file",
 * the words of rung_task_load): every command says a missing task alike,
 * inside a repository or not. */
int rung_where_repo_fail(const rung_vctx_opts *o, int e);

/* Opens the repository (at o->dir), the task (need RUNG_VCTX_TASK) and the
 * store (RUNG_VCTX_STORE). Returns 0 or a negative rung_err, message set:
 * RUNG_ENOTFOUND (no repository there), RUNG_EINVAL (several tasks and none
 * named), RUNG_ESPEC (the task's spec or files), RUNG_EVCS, RUNG_ESTORE. cmd
 * is kept for the caller (c->cmd). */
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

/* The one row loader: the versions of c's task (history range, NULL: HEAD),
 * newest first, a row at a time, each with its live result (by content,
 * else by commit) and its note; `rung log`, `brief`, `eval` and the
 * workbench's list all read through it. The notes are read once and sorted;
 * content_always false: when the store holds no result at all, no source is
 * read and no content hashed (the workbench's first frame). */
typedef struct {
	rung_history *h;
	rung_note *notes; /* sorted by commit; a row takes its note over */
	int nnotes;
	bool hash_content;
	bool done;        /* history exhausted */
} rung_rows_loader;
int rung_rows_open(rung_rows_loader *l, rung_vctx *c, const char *range, bool content_always);
/* 0: *row filled (rung_vrow_clear it); 1: no more versions; negative: an
 * error (git, or a damaged store: rung_store_read_error). */
int rung_rows_next(rung_vrow *row, rung_rows_loader *l, rung_vctx *c);
void rung_rows_close(rung_rows_loader *l);
/* The content of row->v's files and its live result (by content, else by
 * commit), as rung_rows_next reads them when it hashes content: for a row
 * read without them (the workbench's first frame). */
void rung_vrow_lookup(rung_vrow *row, rung_vctx *c);
void rung_vrow_clear(rung_vrow *row);

/* Up to max versions (max <= 0: all), newest first, with results (live) and notes. */
int rung_vctx_rows(rung_vrow **out, int *n, rung_vctx *c, const char *range, int max);
void rung_vrows_free(rung_vrow *rows, int n);
/* The commit ids of c's task's versions (no WORKTREE), sorted, for
 * rung_version_ids_has: what `rung notes --task` and `rung export --task`
 * keep. Caller frees with rung_strv_free. */
int rung_vctx_version_ids(char ***out, int *n, rung_vctx *c);
bool rung_version_ids_has(char *const *ids, int n, const char *id);
/* The recorded (imported) result of a version: the one linked to its commit,
 * else the newest with the same content; r->recorded is set and
 * r->recorded_note says "recorded on <GPU>, <date>". NULL when none. Live
 * lookups (rung_vctx_rows) never return these; a view that shows them must
 * label them. Caller frees with rung_result_clear + free. */
rung_result *rung_recorded_lookup(rung_vctx *c, const rung_version *v, const char *content);
/* Looks up the stored result of one version (live). NULL if none, except for
 * a version whose kernel's `// rung:` line is broken: it gets the verdict the
 * evaluation would give it, compile FAILED with the line's file:line message,
 * not stored (key ""), so that log, brief and the workbench show it. */
rung_result *rung_vctx_lookup(rung_vctx *c, const rung_version *v, const char *content, bool *via_content);

/* The baseline: the version with a `baseline` verdict, else the oldest passing one. -1 if none. */
int rung_vrows_baseline(const rung_vrow *rows, int n);
/* The fastest passing version (a `best` verdict does not override a measurement),
 * among those timed alone on the GPU (rung_bench_shared), unless every one was
 * timed beside another process. -1 if none. */
int rung_vrows_best(const rung_vrow *rows, int n);
bool rung_result_passed(const rung_result *r);
/* Two results timed on different GPU models (both name their device and the
 * names differ: a pool over an A100 and an H200, results of two machines in
 * one store): their timings are not to be compared. why says which ran where
 * ("A was timed on NVIDIA A100-SXM4-80GB (host a), B on NVIDIA H200 (host
 * b)"). Two devices of one model (two H200s) compare. */
bool rung_results_other_gpu(const rung_result *a, const rung_result *b, char *why, size_t len);
/* A compile rung's verdict kept with no GPU (rung_eval_store_compiled): a
 * recorded result with no device and no timing; its recorded_note says what
 * it is. Shown as the version's result until a GPU measures it (#28 D-16). */
bool rung_result_compile_verdict(const rung_result *r);

/* A result's worst metrics: rung_metric_worst (core/metric_table.h). */
/* "ok ok ok ok -": one word per rung. */
void rung_result_steps_str(char *buf, size_t len, const rung_result *r);
/* One status line: "abc1234 ok  1.234 ms  max_rel 2.10e-07  tile it" or the failure reason. */
void rung_vrow_line(char *buf, size_t len, const rung_version *v, const rung_result *r);

#endif

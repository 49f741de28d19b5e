/* The git repository a task lives in: opened by discovery from the current
 * directory (or -C DIR), and the tasks it holds (every rung.ini at HEAD and in
 * the working tree). */
#ifndef RUNG_VCS_REPO_H
#define RUNG_VCS_REPO_H

#include <stdbool.h>
#include <stddef.h>

struct git_repository;
typedef struct rung_repo rung_repo;

/* Opens the repository containing `path` (NULL: the current directory),
 * searching upwards like git. RUNG_ENOTFOUND when there is none. */
int rung_repo_open(rung_repo **out, const char *path);
void rung_repo_free(rung_repo *r);

struct git_repository *rung_repo_git(rung_repo *r);
/* Working directory with a trailing '/', "" for a bare repository. */
const char *rung_repo_workdir(const rung_repo *r);
/* The .git directory with a trailing '/'. */
const char *rung_repo_gitdir(const rung_repo *r);

/* Path of `path` (absolute or relative to the process cwd) relative to the
 * working directory, without "./" or trailing '/': "" for the root.
 * RUNG_EINVAL when it lies outside the working tree. Caller frees. */
int rung_repo_relpath(char **out, const rung_repo *r, const char *path);

/* Every task directory (holding rung.ini) at HEAD or in the working tree,
 * relative to the working directory ("" for the root), sorted, unique.
 * Caller frees with rung_strv_free. */
int rung_repo_find_tasks(char ***out, int *n, rung_repo *r);
void rung_strv_free(char **v, int n);

/* "sgemm, softmax" (the root task as ".") into buf, cut with ", ..." where it does not fit. */
void rung_repo_task_list(char *buf, size_t len, char *const *tasks, int n);

/* The deepest of tasks (rung_repo_find_tasks) containing the repo-relative
 * path rel (rel itself, or a directory above it), -1 if none. */
int rung_repo_task_containing(char *const *tasks, int n, const char *rel);

/* Chooses the task a command works on (app/session.h rung_where_task is the
 * resolver every front end uses; this is its older form, a hint path alone): `hint` (a directory, may be NULL) or
 * the task containing the current directory, or the only task in the repo.
 * *out is relative to the working directory. RUNG_ENOTFOUND / RUNG_EINVAL
 * (several tasks, listed in the message) otherwise. */
int rung_repo_pick_task(char **out, rung_repo *r, const char *hint);

/* Joins a task dir and a file name relative to it into a repo-relative path. */
char *rung_repo_join(const char *dir, const char *name);

/* Resolves REV (any git revision, or "WORKTREE") to a full commit id
 * (40 hex + NUL), or "WORKTREE". */
int rung_repo_resolve(char out[41], rung_repo *r, const char *rev);

/* Reads `path` (repo-relative) at commit `rev` ("WORKTREE": from disk)
 * straight from the object database. *out is NUL-terminated, caller frees.
 * RUNG_ENOTFOUND when the path does not exist there. */
int rung_repo_read(char **out, size_t *len, rung_repo *r, const char *rev, const char *path);

/* Blob id (hex) of `path` at commit `rev`, or of the working-tree file hashed
 * as a blob for "WORKTREE". RUNG_ENOTFOUND if absent. */
int rung_repo_blob_id(char out[41], rung_repo *r, const char *rev, const char *path);

/* Turns a libgit2 failure into a rung error carrying git's message. */
int rung_git_error(int gitret, const char *what);

#endif

/* Loading a task for a command: find the task directory from TASKDIR, a path to
 * rung.ini or a kernel FILE inside a task directory; load the spec; read the kernel
 * and reference sources; apply the kernel's `// rung:` launch line; compile. */
#ifndef RUNG_TUI_TASK_LOAD_H
#define RUNG_TUI_TASK_LOAD_H

#include <stdbool.h>

#include "core/spec.h"
#include "tui/vcs_ctx.h"
#include "gpu/compile.h"
#include "vcs/task_rev.h"

typedef struct {
	char *path; /* as shown to the user: "sgemm.cu" or "tasks/sgemm/sgemm.cu" */
	char *src;  /* NULL when the task has no such file (no reference) */
	const char *entry;
} rung_task_source;

typedef struct {
	rung_spec *spec;
	char *dir; /* task directory as given ("." by default) */
	rung_task_source kernel, reference;
	rung_launch launch; /* [launch] overridden by the kernel's `// rung:` line */
	bool launch_from_source;
	const char *arch;    /* spec arch, else "sm_90" */
	char **include_dirs; /* task dir + the spec's headers dirs, NULL-terminated */
	/* A task read from git (rung_task_load_target with a REV): the kernel at rev,
	 * spec and reference at spec_rev; sources and #included headers come from the
	 * object database, paths read "t/sgemm.cu@a1b2c3d". All NULL/"" otherwise. */
	char rev[41];        /* full commit id or "WORKTREE"; "" for a path target */
	char short_rev[12];  /* 7 hex digits or "WORKTREE" */
	rung_repo *repo;     /* owned */
	rung_vtask *vtask;   /* owned: spec text, options, reference (content hash) */
	rung_source *ksrc;   /* owned: kernel text + headers at rev */
	char content[65];    /* content hash (vcs/store.h) of this version under the task */
} rung_task;

/* Where a target is looked up: -C DIR, --task DIR, --spec-rev REV (all may be
 * NULL), the same options as the history commands take; parsed with rung_vctx_opt. */
typedef rung_vctx_opts rung_task_where;

/* Like rung_task_load, but a target that is not an existing path (relative to -C
 * DIR when given) and resolves as a git revision (HEAD, HEAD~2, a short hash,
 * WORKTREE) is read from git: the picked task's kernel at that revision plus its
 * headers, the spec and reference from HEAD (or spec_rev). Several tasks in the
 * repository need --task (the error lists them). An unknown target gives
 * RUNG_EXIT_USAGE with "not a task directory, file or git revision". */
int rung_task_load_target(rung_task *out, const char *cmd, const char *target, const rung_task_where *w);

/* arg: NULL (= "."), a task directory, a path to rung.ini, or a kernel file in a task
 * directory (then that file is the kernel). Returns 0, or a RUNG_EXIT_* code (nonzero)
 * after printing "rung <cmd>: <message>" to stderr: RUNG_EXIT_USAGE for a path that
 * does not exist, RUNG_EXIT_SPEC for a bad spec or launch line, RUNG_EXIT_INTERNAL for
 * I/O errors. */
int rung_task_load(rung_task *out, const char *cmd, const char *arg);
void rung_task_free(rung_task *t);

/* Fills t->include_dirs from t->dir and the spec's headers (used by the loaders). */
int rung_task_build_includes(rung_task *t);

/* Compiles the kernel (or the reference) of a task. Returns rung_compile's code. */
int rung_task_compile(rung_compiled *out, const rung_task *t, bool reference);

/* Compiles the kernel and the reference of t for a command `cmd` that then runs
 * them on the GPU. Returns 0, or an exit code after printing why:
 * RUNG_EXIT_FAIL ("[compile] FAILED file:line: ...") or RUNG_EXIT_SPEC (the
 * reference does not compile). kc and rc are filled either way (free them). */
int rung_task_compile_both(rung_compiled *kc, rung_compiled *rc, const rung_task *t, const char *cmd);

/* Joins dir and name ("." is dropped): "sgemm.cu", "tasks/sgemm/sgemm.cu". Caller frees. */
char *rung_path_join(const char *dir, const char *name);

/* Writes a whole file. Returns 0 or RUNG_EIO with a message naming the path. */
int rung_write_file(const char *path, const void *data, size_t len);

#endif

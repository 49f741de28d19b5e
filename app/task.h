/* The one task type, for a path and a git revision alike: find the task
 * directory from TASKDIR, a path to rung.ini, a kernel FILE inside a task
 * directory or a REV; load the spec; read the kernel and reference sources;
 * apply the kernel's `// rung:` launch line; compile. Nothing here prints:
 * every function returns 0 or a negative rung_err with the message set
 * (RUNG_EUSAGE: the target names nothing usable; RUNG_ESPEC: the task's own
 * files are wrong; RUNG_ENOMEM, RUNG_EIO: rung's own trouble). */
#ifndef RUNG_APP_TASK_H
#define RUNG_APP_TASK_H

#include <stdbool.h>

#include "core/spec.h"
#include "app/session.h"
#include "gpu/compile.h"
#include "vcs/task_rev.h"

typedef struct {
	char *path; /* as shown to the user: "sgemm.cu" or "tasks/sgemm/sgemm.cu" */
	char *src;  /* NULL when the task has no such file (no reference) */
	size_t len; /* bytes of src (a NUL byte inside is the compile's to report) */
	const char *entry;
} rung_task_source;

typedef struct {
	rung_spec *spec;
	char *dir; /* task directory as given ("." by default) */
	rung_task_source kernel, reference;
	rung_launch launch; /* [launch], the kernel's sidecar and its `// rung:` line (rung_launch_for_kernel) */
	/* A .ptx or .cubin kernel's sidecar (core/sidecar.h), NULL when it has
	 * none: read from disk next to the kernel for a path target (owned, in
	 * sidecar_own), borrowed from ksrc (or the view's source) for a version. */
	const char *sidecar, *sidecar_path;
	size_t sidecar_len;
	char *sidecar_own, *sidecar_path_own;
	bool launch_from_source;
	/* A view (rung_task_of_version) whose `// rung:` line is broken: the
	 * file:line message, the version's verdict (compile FAILED, set by
	 * rung_eval_compile). "" otherwise; rung_task_load fails instead. */
	char launch_error[512];
	const char *arch;    /* spec arch, else "sm_90" */
	/* Every file the task reads lies inside root (rung_spec_confine; the
	 * compile's #includes too): the repository's working tree, or the task
	 * directory when it is in no repository. root_what names it in messages. */
	char *root;
	const char *root_what;
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
	const char *label;   /* recorded in the result (the commit subject); NULL: the kernel path */
	/* A view of a version of a session's task (rung_task_of_version): spec,
	 * sources, repo and vtask are borrowed, and rung_task_clear frees only
	 * what the view made itself. */
	bool borrowed;
	/* what a view of a spec (rung_task_of_spec) reads itself: freed by rung_task_clear */
	char *view_own_path, *view_own_ref, *view_own_ref_path;
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
int rung_task_load_target(rung_task *out, const char *target, const rung_task_where *w);
/* rung_task_load_target as every front end asks it (the CLI's commands, the
 * MCP tools): with no target and no task named, at the root of a repository
 * of several tasks, RUNG_EUSAGE with the tasks listed and "(--task DIR)". */
int rung_task_resolve(rung_task *out, const char *target, const rung_task_where *w);

/* Task t as a view of version v of session task vt in repository repo, with
 * the kernel source src read at v (rung_vtask_source): nothing is copied;
 * vt, repo, src and v must outlive t. Free with rung_task_clear. 0 or RUNG_ENOMEM.
 * The kernel's `// rung:` line is validated as rung_task_load does; a broken
 * one leaves its message in t->launch_error (the version's verdict). */
int rung_task_of_version(rung_task *t, rung_repo *repo, rung_vtask *vt, rung_source *src, const rung_version *v);

/* Task t as a view of spec (its directory spec->dir) with the kernel source src
 * (len bytes; 0: strlen) in memory, named kernel_name in that directory (NULL:
 * the spec's kernel); the reference is read from disk, the root and launch set
 * as rung_task_load sets them. spec and src are borrowed and must outlive t.
 * For a caller that holds a spec and a source rather than files: the tests
 * that evaluate hand-written specs and kernels through rung_app_evaluate.
 * Free with rung_task_clear. 0, RUNG_ESPEC or RUNG_ENOMEM. */
int rung_task_of_spec(rung_task *t, const rung_spec *spec, const char *kernel_name, const char *src, size_t len);

/* The kernel of version v of session task vt (source src, read at v), compiled
 * as the evaluation compiles it: rung_task_of_version, then rung_task_compile,
 * so its #includes are confined to the repository like every compile of a
 * task. For the readers that compile without evaluating (the workbench's PTX
 * and SASS texts, the demo's tour). out is filled either way (clear it);
 * returns rung_task_compile's code. */
int rung_version_compile(rung_compiled *out, rung_repo *repo, rung_vtask *vt, rung_source *src, const rung_version *v);

/* arg: NULL (= "."), a task directory, a path to rung.ini, or a kernel file in a task
 * directory (then that file is the kernel). Returns 0, or RUNG_EUSAGE for a path
 * that does not exist, RUNG_ESPEC for a bad spec, a file the spec names outside
 * the repository (or the task directory when there is no repository), a missing
 * source or a bad launch line, RUNG_ENOMEM/RUNG_EIO otherwise. */
int rung_task_load(rung_task *out, const char *arg);
void rung_task_clear(rung_task *t);

/* Fills t->include_dirs from t->dir and the spec's headers (used by the loaders). */
int rung_task_build_includes(rung_task *t);

/* Compiles the kernel (or the reference) of a task: the one compile request
 * of a task (the evaluation, dump, profile, the workbench's texts), with the
 * include confinement root always set (t->root; a task without one is refused,
 * RUNG_EINVAL). Returns rung_compile's code. */
int rung_task_compile(rung_compiled *out, const rung_task *t, bool reference);
/* The same with the kernel's output kept in (and taken from) the CUBIN cache
 * of the task's git directory too, as the reference's always is (rung dump:
 * the same machine code is not compiled again; out->cached says it was not). */
int rung_task_compile_kept(rung_compiled *out, const rung_task *t, bool reference);

/* Compiles the kernel and the reference of t. Returns 0, RUNG_ECOMPILE (the
 * kernel's "file:line: ..." as the message) or RUNG_ESPEC ("the reference X
 * does not compile: ...", or NVRTC refused the spec's arch or options:
 * "rung.ini:8: [task] arch: ..."). kc and rc are filled either way (free them). */
int rung_task_compile_both(rung_compiled *kc, rung_compiled *rc, const rung_task *t);

/* Joins dir and name ("." is dropped): "sgemm.cu", "tasks/sgemm/sgemm.cu". Caller frees. */
char *rung_path_join(const char *dir, const char *name);


#endif

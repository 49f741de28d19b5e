/* A task as git sees it: the spec (rung.ini) and the reference are those of
 * HEAD (or --spec-rev); a version's kernel source and includes are read at the
 * version's own revision. Also turns a REV argument into source text + headers
 * for `rung check REV` / `rung dump REV`. */
#ifndef RUNG_VCS_TASK_REV_H
#define RUNG_VCS_TASK_REV_H

#include "core/spec.h"
#include "vcs/history.h"
#include "vcs/repo.h"

typedef struct {
	rung_repo *repo;    /* borrowed */
	char *dir;          /* task directory, repo-relative ("" = root) */
	char *spec_path;    /* repo-relative rung.ini */
	char spec_rev[41];  /* commit id the spec was read at, or "WORKTREE" */
	char *spec_text;
	rung_spec *spec;
	char *kernel_path;  /* repo-relative */
	rung_source ref;    /* the reference at spec_rev (ref.text NULL when the task has none) */
	char *options;      /* compile options as they enter the key: spec options + arch */
} rung_vtask;

/* spec_rev NULL: HEAD, or the working tree when rung.ini is not committed yet.
 * Errors name the file ("t/rung.ini:12: ..."). */
int rung_vtask_open(rung_vtask *out, rung_repo *r, const char *dir, const char *spec_rev);
void rung_vtask_clear(rung_vtask *t);

/* The kernel of version `rev` (commit-ish or "WORKTREE"); `kernel_path` NULL:
 * the task's (a version from history passes its own, renames and `kernel =`
 * changes followed). For another path than the spec's, out->entry is the
 * entry the revision's own rung.ini names with it, when that differs from
 * the spec's (NULL otherwise). */
int rung_vtask_source(rung_source *out, const rung_vtask *t, const char *rev, const char *kernel_path);

/* The kernel a revision's own rung.ini names, when that is another file than
 * the spec's and exists there (a version from before `kernel = softmax.cu`
 * became `kernel = softmax.ptx`): *path repo-relative (caller frees), else
 * NULL (the spec's kernel). 0 or RUNG_ENOMEM. rung_vtask_source with that
 * path fills the entry named with it (rung_source.entry). */
int rung_vtask_kernel_at(char **path, const rung_vtask *t, const char *rev);

/* rung_vtask_source of the kernel at rev: the one its own rung.ini names
 * (rung_vtask_kernel_at), else the spec's. For readers that know only a
 * revision (the workbench's texts). */
int rung_vtask_source_at(rung_source *out, const rung_vtask *t, const char *rev);

/* For `rung check ARG` / `rung dump ARG`: 1 when ARG names a revision (an
 * existing file or directory wins: 0), 0 otherwise. */
int rung_arg_is_rev(rung_repo *r, const char *arg);

/* Content hash (vcs/store.h) of a version's source under this task. */
void rung_vtask_content(char out[65], const rung_vtask *t, const rung_source *kernel);

/* History options for this task (kernel + spec paths filled in). */
rung_history_opts rung_vtask_history_opts(const rung_vtask *t);

#endif

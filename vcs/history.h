/* A task's versions: the commits whose tree changes the task's kernel file,
 * newest first, yielded one at a time from a revwalk (the first screenful of a
 * long history costs only what it shows), plus the working tree as the
 * pseudo-version "WORKTREE" when its kernel file differs from HEAD.
 * Sources are read straight from the object database (no checkout). */
#ifndef RUNG_VCS_HISTORY_H
#define RUNG_VCS_HISTORY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/source.h"
#include "vcs/repo.h"

typedef struct {
	char id[41];        /* full hex commit id, or "WORKTREE" */
	char short_id[12];  /* 7 hex digits, or "WORKTREE" */
	char author[128];
	char email[128];
	int64_t time;       /* author time, unix seconds */
	int tz_offset;      /* minutes east of UTC */
	char subject[256];
	bool worktree;
	bool merge;         /* a merge: compared with its first parent */
	bool added;         /* the commit that added the kernel file */
	bool spec_differs;  /* its own rung.ini differs from the spec in use */
	char kernel_path[512];  /* repo-relative path of the kernel file in this version */
	char renamed_from[512]; /* the kernel file was renamed from this path here ("" if not) */
	/* rung.ini's `kernel =` named this other file before this commit (a CUDA
	 * kernel before a Triton one): older versions follow that file ("" if not) */
	char kernel_from[512];
	char blob[41];          /* kernel blob id */
} rung_version;

typedef struct {
	const char *kernel_path; /* repo-relative, at HEAD (required) */
	const char *spec_path;   /* repo-relative rung.ini, to mark spec_differs (may be NULL) */
	const char *spec_rev;    /* revision whose spec is in use (NULL: HEAD) */
	const char *range;       /* "A..B", "REV" (NULL: HEAD) */
	bool worktree;           /* yield WORKTREE first when it differs from HEAD */
	bool no_follow;          /* stop at a rename instead of following the old path */
} rung_history_opts;

typedef struct rung_history rung_history;

int rung_history_open(rung_history **out, rung_repo *repo, const rung_history_opts *opts);
/* 0: *v filled; 1: no more versions; negative: error. */
int rung_history_next(rung_version *v, rung_history *h);
/* Commits examined so far (for the incremental-listing test and bench). */
int64_t rung_history_walked(const rung_history *h);
void rung_history_free(rung_history *h);

/* Fills a version record for one revision (commit-ish or "WORKTREE") without
 * walking history: used for `rung check REV`. */
int rung_version_at(rung_version *v, rung_repo *repo, const char *rev, const char *kernel_path);

/* A kernel's source at a revision and the files it #includes "..." from its
 * own directory (recursively), read at the same revision. */
typedef struct {
	char rev[41];
	char *path;   /* repo-relative */
	char *text;
	size_t len;
	rung_header *headers; /* name = as written in #include, text at rev (both owned) */
	int nheaders;
	/* A .ptx or .cubin kernel's metadata sidecar (core/sidecar.h) at rev, when
	 * one is committed next to it: repo-relative path and text (NULL: none). */
	char *sidecar_path, *sidecar;
	size_t sidecar_len;
	/* The entry named by the version's own rung.ini when its kernel is not the
	 * spec's (a version from before a `kernel =` change); NULL: the spec's. */
	char *entry;
} rung_source;

/* RUNG_ENOTFOUND if the file does not exist at rev. A .ptx or .cubin kernel's
 * sidecar (X.json next to it) is read too, when present (judged where it is
 * parsed: rung_sidecar_parse). Missing includes are not an
 * error here (they may be system or -I headers): the compiler reports them. */
int rung_source_read(rung_source *out, rung_repo *repo, const char *rev, const char *path);
void rung_source_clear(rung_source *s);

/* The quoted include names in src: rung_scan_includes (core/source.h). */

#endif

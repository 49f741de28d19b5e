/* Throwaway git repositories for tests, built with libgit2: fixed author and
 * dates, every commit given as its complete file set. The code is in tests/gitfix.c, part of the
 * test library (tests_common in CMakeLists.txt). */
#ifndef RUNG_TESTS_GITFIX_H
#define RUNG_TESTS_GITFIX_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "harness.h"

#define GF_T0 1764432000 /* 2025-11-29 16:00:00 UTC */

/* A fresh repository in dir (git init), with user.name and user.email set. */
git_repository *gf_init(const char *dir);

/* files: {"path", "content", ..., NULL}: the whole tree of the commit.
 * parents: NULL with nparents < 0 means "HEAD if it exists". ref: "HEAD" moves
 * the current branch (and writes the files to the working tree and index), NULL
 * leaves refs alone. Returns 0 and the commit id in *out. */
int gf_commit(git_oid *out, git_repository *g, const char *ref, const git_oid *parents, int nparents,
	      int64_t when, const char *msg, const char **files);

/* The commit id as 40 hex digits. */
void gf_hex(char out[41], const git_oid *oid);

#endif

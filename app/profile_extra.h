/* The parts of `rung profile --sass/--ncu` and `rung trace` that are shared
 * between commands and screens: storing and loading the profile side data
 * (vcs/prof_store.h) of a version, the hot-instruction listing, finding ncu. */
#ifndef RUNG_APP_PROFILE_EXTRA_H
#define RUNG_APP_PROFILE_EXTRA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/ncu.h"
#include "core/result.h"
#include "core/sass_excerpt.h"
#include "core/sass_prof.h"
#include "gpu/compile.h"
#include "app/task.h"
#include "vcs/repo.h"

/* Stores json under (result key of t's content on env's device, kind).
 * Returns 1 stored, 0 nothing to store under (no repo / content / device),
 * negative on a store error. */
int rung_profile_extra_put(const rung_task *t, const rung_env *env, const char *kind, const char *json);

/* The stored per-PC SASS counts of content on device uuid (from `rung profile
 * --sass`), for the screens: 0 and *out filled, RUNG_ENOTFOUND when none. */
int rung_profile_sass_load(rung_sass_counts *out, rung_repo *repo, const char *content, const char *uuid);

/* How hot each pc of the version at rev is, for the SASS excerpt
 * (core/sass_excerpt.h): its newest stored result's (live, else recorded)
 * stall samples (`rung profile --stalls`), else its SASS counts (`rung
 * profile --sass`). A new
 * array of *n entries (caller frees), *what "stall samples" or "executed
 * instructions"; NULL with *n 0 when there are none (not profiled, not a
 * commit, no store), no error left set. */
rung_sass_heat *rung_profile_heat_load(const rung_vctx_opts *w, const char *rev, int *n, const char **what);

/* What `rung profile --ncu` read back from its report with ncu itself
 * (gpu/ncu.h) and stored beside the result as kinds "ncu_sections" and
 * "ncu_source" (core/ncu.h JSON). A page that could not be read or parsed
 * has its message in *_error and is not stored. */
typedef struct {
	rung_ncu_details details;
	rung_ncu_source source;
	bool have_details, have_source;
	char details_error[512], source_error[512];
	int stored; /* pages stored: 0 when there was nothing to store under */
} rung_ncu_import;

/* Imports report into *out and stores what parsed. Returns 0 (see the
 * flags), or negative on a store error (message set). */
int rung_profile_ncu_import(rung_ncu_import *out, const rung_task *t, const rung_env *env, const char *ncu,
			    const char *report);
void rung_ncu_import_clear(rung_ncu_import *im);

#endif

/* The parts of `rung profile --sass/--ncu` and `rung trace` that are shared
 * between commands and screens: storing and loading the profile side data
 * (vcs/prof_store.h) of a version, the hot-instruction listing, finding ncu. */
#ifndef RUNG_APP_PROFILE_EXTRA_H
#define RUNG_APP_PROFILE_EXTRA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/ncu.h"
#include "core/stall.h"
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

/* The per-PC data of a profiling run (`rung profile --sass` or `--stalls`,
 * the MCP stalls tool): result.aux[kind] ("sass": counts per instruction;
 * "stall": warp stall samples per pc), parsed and stored beside the result. */
typedef struct {
	struct json_t *data; /* result.aux[kind] (owned), NULL when the run has none */
	bool have;           /* the profile rung passed and data parsed into sass or stall */
	rung_sass_counts sass;
	rung_stall stall;
	int stored;          /* 1 stored beside the result, 0 not, negative: could not be (store_error) */
	char store_error[512];
	const rung_step *why; /* the profile rung, or the earlier one that kept it from running (no GPU) */
} rung_per_pc;

/* Fills *out from r, the result of t's profiling run, and stores the data.
 * kind is "sass" or "stall". Clear with rung_per_pc_clear. */
void rung_per_pc_load(rung_per_pc *out, const rung_task *t, const rung_result *r, const char *kind);
void rung_per_pc_clear(rung_per_pc *p);
/* {"status", "reason", "stored", kind: the data}: the one serializer of
 * `rung profile --sass/--stalls --json` and the MCP stalls tool. */
struct json_t *rung_per_pc_to_json(const rung_per_pc *p, const char *kind);

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

/* Profile side data of a version for the screens (detail, compare): the
 * per-PC SASS counts (`rung profile --sass`) and the intra-kernel trace
 * (`rung trace`) stored beside its live result (vcs/prof_store.h), read
 * through the backend's `extra` op, and the SASS listing annotated with the
 * counts by pc (core/sass_prof.h). */
#ifndef RUNG_TUI_MODEL_PROF_H
#define RUNG_TUI_MODEL_PROF_H

#include <stdbool.h>
#include <stdint.h>

#include "core/ncu.h"
#include "core/sass.h"
#include "core/sass_prof.h"
#include "core/stall.h"
#include "core/trace.h"
#include "tui/model/model.h"
#include "vcs/store.h"

/* The stored SASS counts / trace of version hash: 0 and *out filled,
 * RUNG_ENOTFOUND when there are none (or the backend keeps none), RUNG_EINVAL
 * when the stored JSON is malformed. *out is always safe to free. */
int rung_model_sass_counts(rung_sass_counts *out, rung_model *m, const char *hash);
int rung_model_trace(rung_trace *out, rung_model *m, const char *hash);
int rung_model_stall(rung_stall *out, rung_model *m, const char *hash);
/* ncu's sections / source page read back by `rung profile --ncu` (kinds
 * "ncu_sections", "ncu_source"), same returns. */
int rung_model_ncu_details(rung_ncu_details *out, rung_model *m, const char *hash);
int rung_model_ncu_source(rung_ncu_source *out, rung_model *m, const char *hash);

/* For a backend on the results store: the side data of kind stored beside
 * row's live result (keyed by its result key), else beside its recorded one
 * (keyed by the recording device: what was imported with it). RUNG_ENOTFOUND
 * when row is NULL, has no result or nothing is stored. */
int rung_model_store_extra(char **out, rung_store *st, const rung_model_row *row, const char *kind);

/* In-memory backend (tests): sets the JSON returned for (hash, kind: "sass",
 * "stall", "trace", "ncu_sections", ...), copied; a later call for the same pair wins. */
int rung_model_mem_set_extra(rung_model *m, const char *hash, const char *kind, const char *json);

/* A version's SASS, normalized, with the stored counts per line. */
typedef struct {
	rung_sass s;     /* normalized listing: line i is line i of rung_sass_text(&s, -1) */
	int64_t *inst;   /* per line: warp instructions executed, -1 none; NULL without counts */
	bool *hot;       /* per line (NULL without counts): see rung_sass_mark_hot */
	uint64_t total;  /* warp instructions over the counted lines */
	int counted;     /* lines with a count */
	char note[256];  /* why there are no counts ("" when there are) */
	/* The stored warp stall samples (`rung profile --stalls`), when there are any: */
	int64_t *samples; /* per line: samples at its pc, -1 none; NULL without stall samples */
	int *stall_top;   /* per line: its top stall reason (index into stall.reasons), -1 none */
	bool *stall_hot;  /* per line: among the RUNG_SASS_HOT_TOP lines with the most samples */
	int sampled;      /* lines with samples */
	rung_stall stall; /* the samples themselves: reasons, kernel total */
	char stall_note[256]; /* why there are no samples ("" when there are) */
} rung_sass_annot;

/* How many of the largest counts are hot (ties included). */
#define RUNG_SASS_HOT_TOP 10

/* Loads hash's SASS from the model (text op), normalizes it (flags as in
 * core/sass.h) and annotates it with the stored counts and stall samples
 * when there are any.
 * Returns 0 (a->inst NULL and a->note filled when there are no counts), or
 * negative when there is no SASS. a is always safe to free. */
int rung_sass_annot_load(rung_sass_annot *a, rung_model *m, const char *hash, unsigned flags);
void rung_sass_annot_clear(rung_sass_annot *a);
/* Both sides of a compare: the two listings are normalized at once. On error
 * neither is left allocated. */
int rung_sass_annot_load_pair(rung_sass_annot *a, rung_sass_annot *b, rung_model *m, const char *ha, const char *hb,
			      unsigned flags);

/* hot[i]: inst[i] is among the top `top` counts (ties included), above zero
 * and above the smallest non-zero count (code that runs uniformly has no hot
 * line). Returns the number of hot lines. */
int rung_sass_mark_hot(bool *hot, const int64_t *inst, int n, int top);

/* Count in at most 7 columns: "9999999", "12.3M", "4.56G", "123G". */
void rung_fmt_count(char *buf, int len, uint64_t n);

#endif

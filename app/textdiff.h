/* Side-by-side diffs through libgit2's diff engine (git_diff_buffers with the
 * patience algorithm), and SASS preparation (core/sass.h normalization and
 * instruction mix) for the compare screen and the benchmark. */
#ifndef RUNG_APP_TEXTDIFF_H
#define RUNG_APP_TEXTDIFF_H

#include <stdbool.h>

#include "core/sass.h"

typedef enum { RUNG_DIFF_SAME, RUNG_DIFF_DEL, RUNG_DIFF_ADD, RUNG_DIFF_CHANGE, RUNG_DIFF_HUNK } rung_diff_kind;

typedef struct {
	rung_diff_kind kind;
	char *left, *right; /* NULL for an empty side; HUNK: left holds the header */
	int lno, rno;       /* 1-based line numbers, 0 when the side is empty */
} rung_diff_row;

typedef struct {
	rung_diff_row *rows;
	int n, cap;
	int nhunks, adds, dels;
} rung_sbs;

/* Diffs a against b (context lines of context) into aligned rows: deletions
 * and additions of one block are paired side by side. 0 or a negative rung_err. */
int rung_textdiff(rung_sbs *out, const char *a, const char *b, int context);
void rung_sbs_clear(rung_sbs *d);

/* Normalizes a SASS listing (registers renamed) into text and counts its mix. */
int rung_sass_prepare(char **text, rung_sass_mix *mix, const char *listing);

/* The SASS diff by basic block (core/sass_diff.h) of two listings normalized
 * with RUNG_SASS_RENAME_REGS, as rows: a row's line numbers are its lines in
 * rung_sass_text(s, -1), 1-based (so per-line counts map to them); a hunk's
 * header names the function and the label of the block of its first change:
 * "@@ -40,9 +40,10 @@ sgemm .L_x_2". A SAME row's two texts may differ by a
 * consistent renaming. 0 or a negative rung_err. */
int rung_sass_blockdiff(rung_sbs *out, const rung_sass *a, const rung_sass *b, int context);

/* Both listings normalized and diffed as the compare screen and `rung compare`
 * show them: by basic block with registers renamed (the default), or, raw, the
 * listings with addresses and encodings dropped but nvdisasm's register names
 * kept, line by line (rung_textdiff). Mixes into ma, mb when not NULL. */
int rung_sass_diff_listings(rung_sbs *out, rung_sass_mix *ma, rung_sass_mix *mb, const char *la, const char *lb,
			    bool raw, int context);

#endif

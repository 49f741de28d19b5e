/* The SASS diff by basic block (issue #15): two normalized listings
 * (core/sass.h, registers renamed) are cut into basic blocks, the blocks are
 * aligned by their opcode sequences (an LCS over block signatures), and only
 * then are lines diffed, inside each aligned pair of blocks and inside each
 * gap between them. Two lines are the same when they are the same up to a
 * consistent renaming of registers, predicates, barriers and labels within
 * their region (the renaming is voted from the lines that align), so register
 * allocation moving everything by one does not make every line a change, and
 * an edit to one loop yields hunks in that loop's block alone.
 * Pure C, bounded: alignments above RUNG_SASS_DIFF_CELLS cells fall back to the
 * common prefix and suffix. */
#ifndef RUNG_CORE_SASS_DIFF_H
#define RUNG_CORE_SASS_DIFF_H

#include "core/sass.h"

/* Largest LCS table (cells) one alignment may use; 2 bytes a cell. */
#define RUNG_SASS_DIFF_CELLS (1L << 22)

typedef enum {
	RUNG_SD_SAME,   /* the same up to renaming */
	RUNG_SD_CHANGE, /* a line of a paired with a line of b that differs */
	RUNG_SD_DEL,    /* only in a */
	RUNG_SD_ADD,    /* only in b */
} rung_sd_op;

typedef struct {
	rung_sd_op op;
	int a, b; /* index into a->lines / b->lines; -1 for the side that has none */
} rung_sd_row;

typedef struct {
	int r0, r1;     /* rows [r0, r1) of the diff, context included */
	int a0, na;     /* first line of a (1-based; 0 when na is 0) and how many */
	int b0, nb;
	int block_a;    /* line index in a of the label (or function) line that starts the block of its first change, -1 */
	int block_b;
} rung_sd_hunk;

typedef struct {
	rung_sd_row *rows; /* every line of a and of b, in order */
	int n;
	rung_sd_hunk *hunks;
	int nhunks;
	int adds, dels; /* as a unified diff counts them: a CHANGE row is one of each */
	int nblocks_a, nblocks_b, matched_blocks;
} rung_sass_diff;

/* Diffs a against b with `context` lines of context around each hunk
 * (negative: 3). 0 or RUNG_ENOMEM (message set). */
int rung_sass_diff_build(rung_sass_diff *out, const rung_sass *a, const rung_sass *b, int context);
void rung_sass_diff_clear(rung_sass_diff *d);

/* True when the instruction text ends a basic block (BRA, BRX, JMP, JMX, RET, EXIT, KILL; predicated too). */
bool rung_sass_ends_block(const char *inst);

#endif

/* An excerpt of an nvdisasm listing for an agent's context (the MCP dump
 * tool's sass text, docs/CLI.md), chosen by relevance. The line info is
 * written once per source line (nvdisasm -gi repeats `//## File "...", line N`
 * before every instruction of that line: 57% of a listing); when that is
 * still over the budget, the lines kept are, in this order, until the budget
 * is spent:
 *   1. the listing's head (target, function) and each function's label;
 *   2. the hottest instructions, when samples or counts are given (heat):
 *      each with the instruction before and after it;
 *   3. the main loop: the loop (a backward branch to a label) with the most
 *      tensor-core, then memory, instructions: its label, first
 *      instructions and its branch back;
 *   4. the tensor-core instructions (HMMA, IMMA, DMMA, HGMMA, ...): the main
 *      loop's, then the others;
 *   5. the memory instructions (loads, stores, async copies, atomics,
 *      barriers): the main loop's, then the rest of the main loop, then the
 *      others;
 *   6. the rest, from the top.
 * They are written in the listing's order, each instruction after the line
 * info of its source line (once per change), each cut in a line of its own
 * that says how many instructions and which pcs were left out, under a first
 * line that says what the excerpt holds. Pure C. */
#ifndef RUNG_CORE_SASS_EXCERPT_H
#define RUNG_CORE_SASS_EXCERPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/sass_prof.h"
#include "core/stall.h"

/* How hot one pc is (the pc nvdisasm prints as the comment 0040: stall samples or
 * executed warp instructions). */
typedef struct {
	int64_t pc;
	double weight;
} rung_sass_heat;

/* A new string (NULL: out of memory) of at most max bytes; *cut set when
 * anything but repeated line info was left out. */
char *rung_sass_excerpt(const char *listing, size_t n, size_t max, bool *cut);

/* The same with the pcs' heat (nheat entries, any order; NULL/0: none) and
 * what it counts ("stall samples"), said in the first line. */
char *rung_sass_excerpt_hot(const char *listing, size_t n, size_t max, const rung_sass_heat *heat, int nheat,
			    const char *heat_what, bool *cut);

/* The heat of a kernel's stall samples (each pc's samples) or of its SASS
 * counts (each pc's warp instructions): a new array (caller frees) of *n
 * entries; NULL with *n 0 when empty or out of memory. */
rung_sass_heat *rung_sass_heat_of_stall(const rung_stall *s, int *n);
rung_sass_heat *rung_sass_heat_of_counts(const rung_sass_counts *c, int *n);

#endif

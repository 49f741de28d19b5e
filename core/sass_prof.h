/* Per-instruction SASS counts of one kernel (`rung profile --sass`): CUPTI SASS
 * metrics smsp__sass_inst_executed (warp-level) and
 * smsp__sass_thread_inst_executed (thread-level) per PC offset, which equals
 * the address comment nvdisasm prints (0040) and rung_sass_line.pc. Pure C.
 * JSON: {"function":"_Z4loopPfi","records":[[pc,inst,thread_inst],...]}. */
#ifndef RUNG_CORE_SASS_PROF_H
#define RUNG_CORE_SASS_PROF_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/sass.h"

typedef struct {
	int64_t pc;
	uint64_t inst, thread_inst;
} rung_sass_pc;

typedef struct {
	char func[512]; /* mangled kernel name */
	int n;
	rung_sass_pc *pcs; /* ascending pc (owned) */
} rung_sass_counts;

void rung_sass_counts_clear(rung_sass_counts *c);
/* Adds to the count at pc (creating it): records of several instances sum. */
int rung_sass_counts_add(rung_sass_counts *c, int64_t pc, uint64_t inst, uint64_t thread_inst);
/* Sorts by pc and merges duplicates. */
void rung_sass_counts_sort(rung_sass_counts *c);
/* The record at pc, or NULL (c sorted). */
const rung_sass_pc *rung_sass_counts_at(const rung_sass_counts *c, int64_t pc);

json_t *rung_sass_counts_to_json(const rung_sass_counts *c);
int rung_sass_counts_from_json(rung_sass_counts *c, const json_t *j); /* RUNG_EINVAL when malformed */

/* Per line of s: inst[i] = the warp-level count of line i's pc, or -1 for
 * lines without a record (labels, function lines, other functions, never
 * patched). func: the function the counts belong to (-1: match any). Returns
 * the number of lines annotated. */
int rung_sass_annotate(int64_t *inst, const rung_sass *s, int func, const rung_sass_counts *c);

/* Indices of the up to max largest values of v[0..n) above zero, largest
 * first (ties: the lower index first); returns how many. */
int rung_top_indices(int *idx, int max, const int64_t *v, int n);

/* Indices of up to max lines with the largest counts (ties: lower pc first);
 * returns how many. */
int rung_sass_hot(int *idx, int max, const rung_sass *s, const int64_t *inst);

/* The hot-instruction listing: top max lines as
 *   "  0x0090  1048576   33554432  FFMA R5, R2, R3, R5"
 * with their share of all warp instructions. */
void rung_sass_print_hot(FILE *f, const rung_sass *s, int func, const rung_sass_counts *c, int max);

#endif

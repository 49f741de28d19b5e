/* The profile panes of the detail screen: the version's SASS with the stored
 * per-instruction counts (hot lines highlighted), and the stored trace's
 * per-region statistics with a per-SM timeline. */
#ifndef RUNG_TUI_DETAIL_PROF_H
#define RUNG_TUI_DETAIL_PROF_H

#include <stdbool.h>

#include "core/trace.h"
#include "tui/lines.h"
#include "tui/model/model.h"

/* SASS of hash: pc, count, % of all warp instructions, stall samples, % of
 * the kernel's samples and the line's top stall reason, instruction; above
 * it the kernel's top stall reasons as bars. by_stall: the sampled lines
 * only, most samples first. The lines with the most samples get their rank as
 * tag (1: the most sampled). In `width` columns the instruction keeps 44:
 * the top stall's name, then the counts, give way. */
void rung_detail_sass_lines(rung_lines *l, rung_model *m, const char *hash, bool by_stall, int width);
/* Trace of hash in about width columns. */
void rung_detail_trace_lines(rung_lines *l, rung_model *m, const char *hash, int width);
/* "SASS counts, trace" for what is stored for hash ("" when nothing). */
void rung_detail_prof_stored(char *buf, int len, rung_model *m, const char *hash);

/* The per-SM timeline rows: SMs in rows of ceil(nsms / max_rows), bar of
 * width cells over [0, last end]; a cell's shade is the mean number of
 * blocks running on the row's SMs in that slice (a block from its first
 * record's start to its last record's end), relative to the busiest
 * cell. Exposed for tests. */
void rung_trace_timeline(rung_lines *l, const rung_trace *t, int width, int max_rows);

#endif

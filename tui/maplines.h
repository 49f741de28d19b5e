/* The error map of a checked case as lines (docs/CHECKS.md, "The error map"):
 * the detail draws one case's map, the compare the maps of a and b side by
 * side. A map row is a segment in the map_ok role whose text is one level
 * character per cell ('.', '1'..'9', 'U', 'N', 'I': core/errmap.h), so search
 * and the ASCII view read the levels; rung_line_draw draws each as its glyph
 * (blocks by band in UTF-8, the character itself in ASCII) in its scale role. */
#ifndef RUNG_TUI_MAPLINES_H
#define RUNG_TUI_MAPLINES_H

#include "core/result.h"
#include "tui/lines.h"

/* Maps with more tile rows than this are drawn two tile rows per line. */
#define RUNG_MAP_LINES_MAX 16

/* The indexes of r's metrics whose map has a tile out of tolerance, in
 * order, into out (at most max); returns how many. */
int rung_map_cases(int *out, int max, const rung_result *r);
/* The metric of r for the same case as m (output, dims, seed, inputs), or NULL. */
const rung_check_metric *rung_map_same_case(const rung_result *r, const rung_check_metric *m);

/* The section for one case: a header naming it (nth of ncases; m: next), the
 * plane and tile sizes, the rows with the first and last row's index, a
 * column ruler and the legend. */
void rung_map_section(rung_lines *l, const rung_check_metric *m, int nth, int ncases, int width);
/* a and b side by side for one case (either may be NULL or have no map).
 * width: the columns there are; a character holds 2x2, 4x4, ... tiles where
 * the maps would not fit. */
void rung_map_section_pair(rung_lines *l, const rung_check_metric *a, const rung_check_metric *b, int nth,
			   int ncases, int width);

/* The glyph of a level character and its role (map_ok, scale_1..4, map_mark). */
const char *rung_map_glyph(char c, rung_role *role);

#endif

/* The ncu panes of the detail screen (`u`): Nsight Compute's sections as
 * read back by `rung profile --ncu` (kind "ncu_sections": a table of metric,
 * unit, value per section, ncu's rules wrapped under their section), and its
 * source page (kind "ncu_source") per SASS line beside rung's own per-PC
 * counts (`rung profile --sass`), with how many pcs agree exactly. Drawn from
 * the stored JSON: ncu itself is not needed to show them. */
#ifndef RUNG_TUI_DETAIL_NCU_H
#define RUNG_TUI_DETAIL_NCU_H

#include "tui/lines.h"
#include "tui/model/model.h"

void rung_detail_ncu_sections(rung_lines *l, rung_model *m, const char *hash, int width);
void rung_detail_ncu_source(rung_lines *l, rung_model *m, const char *hash);

#endif

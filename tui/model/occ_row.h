/* Theoretical occupancy of a version as the screens show it: registers,
 * static shared memory and barriers from its result's compile info, block
 * size and dynamic shared memory from the model's launch geometry
 * (rung_model_launch) at the benchmark shape. */
#ifndef RUNG_TUI_OCC_ROW_H
#define RUNG_TUI_OCC_ROW_H

#include "core/occupancy.h"
#include "tui/model/model.h"

/* 0, or negative with a message when anything is unknown (no result, no
 * compile info, no launch geometry, an architecture without a table entry). */
int rung_row_occupancy(rung_occupancy *out, rung_model *m, int row);

/* "100%", "25% regs", "12.5% smem": the limit is named below 100%. */
void rung_fmt_occupancy(char *buf, int len, const rung_occupancy *o);

#endif

/* The text table of `rung ceilings` (cli/cmd_ceilings.c). */
#ifndef RUNG_CLI_CEILINGS_PRINT_H
#define RUNG_CLI_CEILINGS_PRINT_H

#include <stdio.h>

#include "core/result.h"
#include "core/roofline.h"

/* "device NVIDIA H200 (sm_90, 132 SMs, ...)" then one line per ceiling:
 * "dram      4.31 TB/s        measured   datasheet 4.81 TB/s". */
void rung_ceilings_print(FILE *f, const rung_env *e, const rung_ceilings *measured, const rung_ceilings *datasheet);

#endif

/* What the CUPTI users of gpu/ share (cupti.c, cupti_prof.c, cupti_sass.c,
 * cupti_pcsamp.c): opening libcupti.so.13 at run time and turning a failed
 * call into rung's errors. */
#ifndef RUNG_GPU_CUPTI_LIB_H
#define RUNG_GPU_CUPTI_LIB_H

#include <stddef.h>

#include <cupti_result.h>

/* dlopen of libcupti.so.13 from the toolkit's directories, then the loader's
 * path; NULL when absent. */
void *rung__cupti_open(void);

/* Opens CUPTI into *lib (once) and looks up names[i] into *slots[i], n of
 * them. RUNG_EUNSUPPORTED with why when CUPTI or a symbol is missing. */
int rung__cupti_syms(void **lib, void **const slots[], const char *const names[], int n, char *why, size_t len);

/* cuptiGetResultString of lib (NULL: none) for r, "CUPTI error" without one. */
const char *rung__cupti_str(void *lib, CUptiResult r);

/* A failed CUPTI call: why = "call: message (CUptiResult N)"; privileges and
 * unsupported configurations return RUNG_EUNSUPPORTED (the rung is SKIPPED),
 * anything else RUNG_ECUDA. */
int rung__cupti_fail(void *lib, CUptiResult r, const char *call, char *why, size_t len);

#endif

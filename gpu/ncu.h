/* Reading an Nsight Compute report back with ncu itself: `ncu --import REPORT
 * --page details --csv` and `--page source --csv --print-source sass`, run
 * without a shell with arguments rung builds (the report is rung's own, under
 * <gitdir>/rung/ncu/), stdout captured (at most 256 MiB), stdin /dev/null,
 * killed after 300 s. */
#ifndef RUNG_GPU_NCU_H
#define RUNG_GPU_NCU_H

#include <stddef.h>

typedef enum { RUNG_NCU_PAGE_DETAILS, RUNG_NCU_PAGE_SOURCE } rung_ncu_page;

/* *out (caller frees, NUL-terminated) and *len: the page as ncu printed it.
 * Errors: RUNG_EIO (ncu could not start or failed: its first stderr line),
 * RUNG_ETIMEOUT, RUNG_ENOMEM. */
int rung_ncu_export_page(char **out, size_t *len, const char *ncu, const char *report, rung_ncu_page page);

#endif

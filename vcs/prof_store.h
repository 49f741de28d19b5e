/* Profile side data in the results store, beside a result (keyed by the
 * result key, rung_result_key(content, device UUID)) and a kind:
 *   "sass"  per-PC SASS counts (core/sass_prof.h JSON)
 *   "ncu"   {"report": "<path>.ncu-rep"} written by `rung profile --ncu`
 *   "ncu_sections", "ncu_source"  that report read back (core/ncu.h JSON)
 *   "trace" the last `rung trace` (core/trace.h JSON)
 *   "stall" warp stall samples per PC, `rung profile --stalls` (core/stall.h JSON)
 * Table `profile_extra`, created on first use (additive; the result schema is
 * untouched). */
#ifndef RUNG_VCS_PROF_STORE_H
#define RUNG_VCS_PROF_STORE_H

#include <stdint.h>

#include "vcs/store.h"

/* The kinds that travel with a result in `rung export` / `rung import`
 * ("extras"): everything but "ncu", a path on the machine that profiled. */
#define RUNG_EXTRA_PORTABLE_LIST(_) _("sass") _("stall") _("trace") _("ncu_sections") _("ncu_source")
/* True when kind is one of them. */
int rung_extra_portable(const char *kind);

/* Stores (replacing) json (an object's text) for (key, kind). */
int rung_store_put_extra(rung_store *s, const char *key, const char *kind, const char *json, int64_t when);
/* *out: the stored text (caller frees). RUNG_ENOTFOUND when there is none. */
int rung_store_get_extra(char **out, rung_store *s, const char *key, const char *kind);

#endif

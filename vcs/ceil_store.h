/* Measured roofline ceilings in the results store, one row per device UUID and
 * clocks (a locked or different clock is another row): table `ceilings`,
 * created on first use (additive; the result schema is untouched). */
#ifndef RUNG_VCS_CEIL_STORE_H
#define RUNG_VCS_CEIL_STORE_H

#include <stdint.h>

#include "core/result.h"
#include "core/roofline.h"
#include "vcs/store.h"

/* Stores (replacing) the ceilings of env's device at env's clocks. */
int rung_store_put_ceilings(rung_store *s, const rung_env *env, const rung_ceilings *c, int64_t when);
/* The stored ceilings of env's device at env's clocks; *when (may be NULL)
 * gets the time they were measured. RUNG_ENOTFOUND when there are none. */
int rung_store_get_ceilings(rung_ceilings *out, int64_t *when, rung_store *s, const rung_env *env);

/* The measured ceilings the speed-of-light guard takes for env's device at
 * env's clocks (rung_job.ceilings; core/roofline_guard.h raises the datasheet
 * ones with them): *buf filled and buf returned, or NULL (no error left set)
 * with no store (s NULL), no valid device environment or none stored. */
const rung_ceilings *rung_store_guard_ceilings(rung_ceilings *buf, rung_store *s, const rung_env *env);

#endif

/* Roofline ceilings as JSON, for the store and `rung ceilings --json`:
 *   {"dram":{"value":4.31e12,"src":"measured"},"fp32":{...},"bf16":{...},...}
 * Keys: dram, l2, l1, fp32, fp64 and the tensor types (rung_tc_name: f16, bf16,
 * tf32, fp8, int8, f64); absent ceilings are left out, so a stored object
 * written before l1 existed reads with l1 absent. */
#ifndef RUNG_CORE_CEILINGS_JSON_H
#define RUNG_CORE_CEILINGS_JSON_H

#include "core/roofline.h"

/* The ceiling of that name, or NULL. */
rung_ceiling *rung_ceilings_field(rung_ceilings *c, const char *name);

/* Compact JSON, keys sorted (caller frees with free()). */
char *rung_ceilings_to_json(const rung_ceilings *c);
/* RUNG_EINVAL on malformed JSON; unknown keys are ignored. */
int rung_ceilings_from_json(rung_ceilings *out, const char *json);

#endif

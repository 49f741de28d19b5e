/* Suspects (core/result.h, docs/CHECKS.md "Evidence: suspects") as the
 * command line and the screens show them: inert text (core/inert.h). */
#ifndef RUNG_APP_SUSPECTS_H
#define RUNG_APP_SUSPECTS_H

#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

/* "mutable-global: mutable __device__ global 'calls' (...)", made inert, into buf. */
const char *rung_suspect_text(char *buf, size_t len, const rung_suspect *s);


/* "mutable-global, impossible" (the kinds, in order) into buf; "" when none. */
const char *rung_suspect_kinds(char *buf, size_t len, const rung_result *r);

#endif

/* Suspects (core/result.h, docs/CHECKS.md "Evidence: suspects") as the
 * command line shows them: inert text (tui/draw.h's sanitize), one line each. */
#ifndef RUNG_TUI_SUSPECTS_H
#define RUNG_TUI_SUSPECTS_H

#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

/* "mutable-global: mutable __device__ global 'calls' (...)", made inert, into buf. */
const char *rung_suspect_text(char *buf, size_t len, const rung_suspect *s);

/* One line per suspect: "<prefix>kind: reason\n" ("[suspect] " for rung check). */
void rung_suspects_print(FILE *f, const rung_result *r, const char *prefix);

/* "mutable-global, impossible" (the kinds, in order) into buf; "" when none. */
const char *rung_suspect_kinds(char *buf, size_t len, const rung_result *r);

#endif

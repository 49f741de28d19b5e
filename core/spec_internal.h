/* Helpers shared by core/spec.c and core/spec_launch.c; not part of the public API. */
#ifndef RUNG_CORE_SPEC_INTERNAL_H
#define RUNG_CORE_SPEC_INTERNAL_H

#include "core/spec.h"

/* Evaluates e under ds; on error the message becomes "file:line: label key: <what>". */
int rung__expr_at(int64_t *out, const rung_expr_src *e, const rung_dimset *ds,
                  const char *file, const char *label, const char *key);
/* Sets "file:line: label key: <fmt>" (label and key may be NULL) and returns RUNG_EINVAL. */
int rung__fail(const char *file, int line, const char *label, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Fails with "[axis: ]got V, must be at least MIN", or "'TEXT' = V, ..." when text is not a literal. */
int rung__too_small(const char *file, int line, const char *label, const char *key, const char *axis,
                    const char *text, int64_t v, int64_t min);
/* Appends " (check sizes M=..,N=..)" to the last error message when ds is not the
 * benchmark shape; returns code. */
int rung__in_set(int code, const rung_dimset *ds, const rung_dimset *bench);
/* Splits text at top-level commas (outside parentheses) into trimmed, malloc'd parts.
 * Returns the count, or -1 when there are more than max, -2 when a part is empty, -3 on ENOMEM. */
int rung__split_top(char **parts, int max, const char *text, size_t len);
/* Evaluates a launch under the spec's [dims] and every [check] set. */
int rung__launch_check(const rung_launch *l, const rung_spec *s, const char *label);
/* Like rung_launch_eval with a chosen section label ("[launch]" or "rung:"). */
int rung__launch_eval(rung_geom *out, const rung_launch *l, const rung_dimset *ds, const char *label);

#endif

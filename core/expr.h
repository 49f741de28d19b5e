/* Launch-expression evaluator: integers with + - * / % ( ), unary minus,
 * cdiv(a,b), min(a,b,...), max(a,b,...), and dim names. 64-bit signed;
 * overflow, division by zero and unknown names are errors, not wraps. */
#ifndef RUNG_CORE_EXPR_H
#define RUNG_CORE_EXPR_H

#include <stdint.h>
#include "core/spec.h"

/* Evaluates `text` against `dims` (may be NULL). On error returns RUNG_EINVAL and
 * sets rung_error_last() to a message without location, e.g. "unknown dim 'Q'",
 * "overflow in 'M*N*K*K'", "division by zero", "expected ')' at column 7". */
int rung_expr_eval(int64_t *out, const char *text, const rung_dimset *dims);

/* Collects the identifiers used (not function names) into names (up to max); returns count or negative. */
int rung_expr_names(char names[][RUNG_NAME_MAX], int max, const char *text);

#endif

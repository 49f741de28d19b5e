/* ptxas -v log parsing (pure text). */
#ifndef RUNG_CORE_PTXAS_H
#define RUNG_CORE_PTXAS_H

#include "core/result.h"

/* Fills info for the kernel whose mangled name equals `mangled` (or the first
 * kernel when mangled is NULL). Returns 0, or RUNG_ENOTFOUND. */
int rung_ptxas_parse(rung_kinfo *out, const char *log, const char *mangled);

#endif

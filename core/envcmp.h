/* Whether two results were measured in the same environment. Timings from
 * different GPUs, drivers, clocks or power limits are never compared silently:
 * every delta between them is flagged with what differs. */
#ifndef RUNG_CORE_ENVCMP_H
#define RUNG_CORE_ENVCMP_H

#include <stddef.h>

#include "core/result.h"

/* Returns the number of differences between a and b (0: same environment, or
 * an environment is unknown), and describes them in why ("GPU NVIDIA H200 vs
 * NVIDIA H100; driver 580.159.04 vs 575.57"); why may be NULL. */
int rung_env_diff(char *why, size_t len, const rung_env *a, const rung_env *b);

#endif

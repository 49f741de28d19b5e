#include "core/envcmp.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void add(char *why, size_t len, size_t *at, int *n, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void add(char *why, size_t len, size_t *at, int *n, const char *fmt, ...)
{
	(*n)++;
	if (!why || *at + 1 >= len)
		return;
	if (*at) {
		int k = snprintf(why + *at, len - *at, "; ");
		*at += k > 0 ? (size_t)k : 0;
		if (*at >= len)
			*at = len - 1;
	}
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(why + *at, len - *at, fmt, ap);
	va_end(ap);
	*at += k > 0 ? (size_t)k : 0;
	if (*at >= len)
		*at = len - 1;
}

int rung_env_diff(char *why, size_t len, const rung_env *a, const rung_env *b)
{
	if (why && len)
		why[0] = 0;
	if (!a || !b || !a->valid || !b->valid)
		return 0;
	size_t at = 0;
	int n = 0;
	if (strcmp(a->gpu, b->gpu) != 0)
		add(why, len, &at, &n, "GPU %s vs %s", a->gpu, b->gpu);
	else if (a->uuid[0] && b->uuid[0] && strcmp(a->uuid, b->uuid) != 0)
		add(why, len, &at, &n, "another %s (%.12s vs %.12s)", a->gpu, a->uuid, b->uuid);
	if (strcmp(a->driver, b->driver) != 0)
		add(why, len, &at, &n, "driver %s vs %s", a->driver, b->driver);
	if (strcmp(a->cuda, b->cuda) != 0)
		add(why, len, &at, &n, "CUDA %s vs %s", a->cuda, b->cuda);
	if (a->sm_clock_mhz != b->sm_clock_mhz)
		add(why, len, &at, &n, "SM clock %d vs %d MHz", a->sm_clock_mhz, b->sm_clock_mhz);
	if (a->mem_clock_mhz != b->mem_clock_mhz)
		add(why, len, &at, &n, "memory clock %d vs %d MHz", a->mem_clock_mhz, b->mem_clock_mhz);
	if (!isnan(a->power_limit_w) && !isnan(b->power_limit_w) && fabs(a->power_limit_w - b->power_limit_w) > 0.5)
		add(why, len, &at, &n, "power limit %.0f vs %.0f W", a->power_limit_w, b->power_limit_w);
	if (a->persisting_l2_limit != b->persisting_l2_limit)
		add(why, len, &at, &n, "persisting-L2 limit %lld vs %lld B", (long long)a->persisting_l2_limit,
		    (long long)b->persisting_l2_limit);
	return n;
}

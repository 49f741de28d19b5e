#include "core/calib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rung_calib_format(char *buf, size_t len, const char *boot_id, double floor_ns, int n, long long at)
{
	int l = snprintf(buf, len, "rung-calib 1 boot %s floor_ns %.1f n %d at %lld\n", boot_id && *boot_id ? boot_id : "-",
			 floor_ns, n, at);
	return l > 0 && (size_t)l < len ? 0 : -1;
}

int rung_calib_parse(const char *text, const char *boot_id, double *floor_ns, int *n, long long *at)
{
	char boot[80];
	double f = NAN;
	int k = 0, used = 0;
	long long t = 0;
	if (!text || sscanf(text, "rung-calib 1 boot %79s floor_ns %lf n %d at %lld%n", boot, &f, &k, &t, &used) != 4)
		return -1;
	for (const char *p = text + used; *p; p++)
		if (*p != '\n' && *p != ' ')
			return -1;
	if (!isfinite(f) || f < 100.0 || f > 100000.0 || k < 1 || t < 0)
		return -1;
	if (!boot_id || strcmp(boot, boot_id) != 0)
		return 0;
	*floor_ns = f;
	*n = k;
	*at = t;
	return 1;
}

int rung_calib_offset(double record_floor_ms, double profiler_floor_ms, double median_ms, double *offset_ms,
		      char *why, size_t why_len)
{
	*offset_ms = NAN;
	if (!isfinite(record_floor_ms) || !isfinite(profiler_floor_ms) || !isfinite(median_ms)) {
		snprintf(why, why_len, "no launch floor measured");
		return 0;
	}
	double o = record_floor_ms - profiler_floor_ms, us = o * 1e3;
	if (us < RUNG_CALIB_MIN_US || us > RUNG_CALIB_MAX_US) {
		snprintf(why, why_len, "the launch floor's offset %+.2f us is outside %.0f to %.0f us", us,
			 RUNG_CALIB_MIN_US, RUNG_CALIB_MAX_US);
		return 0;
	}
	if (o > RUNG_CALIB_MAX_SHARE * median_ms) {
		snprintf(why, why_len, "the launch floor's offset %.2f us is over %.0f%% of the median", us,
			 RUNG_CALIB_MAX_SHARE * 100);
		return 0;
	}
	*offset_ms = o;
	return 1;
}

void rung_calib_name(char *buf, size_t len, const char *uuid, const char *driver)
{
	snprintf(buf, len, "%s-%s", uuid && *uuid ? uuid : "gpu", driver && *driver ? driver : "driver");
	for (char *p = buf; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' ||
		      *p == '-'))
			*p = '_';
}

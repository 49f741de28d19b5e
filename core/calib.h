/* The records' calibration (#31 item 2, docs/CHECKS.md "Kernels of 50 us and
 * more"): CUPTI's serial kernel record of a kernel reads a fixed launch floor
 * above the range profiler's gpu__time_duration (ncu's Duration): +1.27 to
 * +1.43 us from one block to 2^20 floats on the H200 (bench/h200_session8.sh).
 * The worker measures that floor on rung's own empty kernel: its records'
 * median now (cheap, every bench) and the profiler's median of it (about
 * 0.4 s, once per boot, driver and GPU: a line in the user's cache), and takes
 * the difference off every record. Pure: the line's format and the rule of
 * when the offset is taken. */
#ifndef RUNG_CORE_CALIB_H
#define RUNG_CORE_CALIB_H

#include <stddef.h>

/* The offset is taken only in [CALIB_MIN_US, CALIB_MAX_US] and below
 * CALIB_MAX_SHARE of the records' median. */
#define RUNG_CALIB_MIN_US 0.0
#define RUNG_CALIB_MAX_US 5.0
#define RUNG_CALIB_MAX_SHARE 0.25

/* The cache line: "rung-calib 1 boot <boot_id> floor_ns <x> n <k> at <unix>\n". */
int rung_calib_format(char *buf, size_t len, const char *boot_id, double floor_ns, int n, long long at);

/* Parses a cache line. 1 with *floor_ns, *n and *at set when it is well formed
 * and for this boot_id; 0 when it is for another boot (stale); -1 when
 * malformed or its floor is out of range (0.1 to 100 us). */
int rung_calib_parse(const char *text, const char *boot_id, double *floor_ns, int *n, long long *at);

/* The offset (ms) to take off every record: record_floor_ms (the records'
 * empty kernel now) minus profiler_floor_ms (the profiler's), when it is
 * within the bounds above for a records' median of median_ms. Returns 1 with
 * *offset_ms set, 0 with why filled (and *offset_ms NAN) otherwise. */
int rung_calib_offset(double record_floor_ms, double profiler_floor_ms, double median_ms, double *offset_ms,
		      char *why, size_t why_len);

/* The name of the cache file for a GPU and driver, under the cache directory's
 * calib/: the UUID and driver version with anything but [A-Za-z0-9.-] made '_'. */
void rung_calib_name(char *buf, size_t len, const char *uuid, const char *driver);

#endif

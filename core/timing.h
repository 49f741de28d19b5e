/* Per-phase wall-clock timing for RUNG_TIMING=1: phases accumulate by name and
 * are printed to stderr by rung_timing_flush. Everything is a no-op (a getenv
 * on first use) when the variable is unset. Not thread-safe: call from one
 * thread (the worker's main thread, the parent's). */
#ifndef RUNG_CORE_TIMING_H
#define RUNG_CORE_TIMING_H

#include <stdbool.h>
#include <stdint.h>

/* True when $RUNG_TIMING is set and not "0". */
bool rung_timing_enabled(void);
/* The one monotonic clock (CLOCK_MONOTONIC) of rung's elapsed times and
 * deadlines, in seconds. */
double rung_now_s(void);
/* The same clock in whole milliseconds (the worker protocol's deadlines). */
int64_t rung_now_ms(void);
/* Adds seconds to a phase (name must be a string literal: it is kept). */
void rung_timing_add(const char *phase, double seconds);
/* Adds now - t0 to the phase and returns now (for chaining phases). */
double rung_timing_lap(const char *phase, double t0);
/* Prints "rung timing [who] phase  12.3 ms (x3)" per phase in first-use order
 * and a total, then forgets them. */
void rung_timing_flush(const char *who);
/* Prints "rung timing [rss] what  12.3 MB" with this process's resident set
 * now (from /proc/self/statm; nothing where that cannot be read). */
void rung_timing_rss(const char *what);

#endif

/* A minimal parallel-for over numbered items on a persistent pool of pthreads
 * (started on first use, core/par.c). Items are
 * handed out in increasing order (an atomic counter), so which thread runs an
 * item varies between runs: callers that need a reproducible result write each
 * item's partial result to its own slot and merge the slots in item order. */
#ifndef RUNG_CORE_PAR_H
#define RUNG_CORE_PAR_H

#include <stdint.h>

/* Threads used: online CPUs (sysconf), at most 16, at least 1; $RUNG_THREADS
 * (1..16) overrides. */
int rung_par_threads(void);

/* Calls fn(ud, item) for item = 0 .. nitems-1 on up to rung_par_threads()
 * threads (the caller's thread is one of them). Returns when every item ran.
 * With one thread or one item it runs inline. fn must be thread-safe. */
void rung_par_for(int64_t nitems, void (*fn)(void *ud, int64_t item), void *ud);

#endif

/* Parallel-for on pthreads (see par.h). */
#include "core/par.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_THREADS 16

int rung_par_threads(void)
{
	const char *e = getenv("RUNG_THREADS");
	if (e && *e) {
		int v = atoi(e);
		if (v >= 1)
			return v > MAX_THREADS ? MAX_THREADS : v;
	}
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	return n > MAX_THREADS ? MAX_THREADS : (int)n;
}

typedef struct {
	void (*fn)(void *ud, int64_t item);
	void *ud;
	int64_t n;
	atomic_llong next;
} par_job;

static void *par_worker(void *arg)
{
	par_job *j = arg;
	for (;;) {
		int64_t i = (int64_t)atomic_fetch_add(&j->next, 1);
		if (i >= j->n)
			break;
		j->fn(j->ud, i);
	}
	return NULL;
}

void rung_par_for(int64_t nitems, void (*fn)(void *ud, int64_t item), void *ud)
{
	if (nitems <= 0)
		return;
	int nt = rung_par_threads();
	if (nt > nitems)
		nt = (int)nitems;
	par_job j = { fn, ud, nitems, 0 };
	atomic_init(&j.next, 0);
	pthread_t th[MAX_THREADS];
	int started = 0;
	for (int t = 1; t < nt; t++) {
		if (pthread_create(&th[started], NULL, par_worker, &j) != 0)
			break; /* fewer threads: the remaining ones share the items */
		started++;
	}
	par_worker(&j);
	for (int t = 0; t < started; t++)
		pthread_join(th[t], NULL);
}

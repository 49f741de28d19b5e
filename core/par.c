/* Parallel-for on a pool of pthreads (see par.h). The pool starts on the first
 * call that wants more than one thread and lives for the process: a call costs
 * a broadcast and a wait, not a thread creation per helper (the worker makes
 * dozens of calls per case, one per 4 MiB slab). One call at a time uses the
 * pool; a call made while another is in flight (another thread's, or a nested
 * one from inside an item) runs its items on the calling thread. */
#include "core/par.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
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
	int want; /* helpers that may join (threads - 1) */
} par_job;

static pthread_mutex_t call_mu = PTHREAD_MUTEX_INITIALIZER; /* one call on the pool at a time */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv_work = PTHREAD_COND_INITIALIZER, cv_idle = PTHREAD_COND_INITIALIZER;
static par_job *cur;       /* under mu: the call helpers may join, or NULL */
static unsigned long gen;  /* under mu: bumped per call */
static int joined, active; /* under mu: helpers that joined cur / are still in it */
static int started;        /* helpers running (only grows) */

static void run_items(par_job *j)
{
	for (;;) {
		int64_t i = (int64_t)atomic_fetch_add(&j->next, 1);
		if (i >= j->n)
			break;
		j->fn(j->ud, i);
	}
}

static void *helper(void *arg)
{
	(void)arg;
	unsigned long seen = 0;
	pthread_mutex_lock(&mu);
	for (;;) {
		while (gen == seen || !cur || joined >= cur->want) {
			if (gen != seen && (!cur || joined >= cur->want))
				seen = gen; /* this call is over or full: wait for the next */
			pthread_cond_wait(&cv_work, &mu);
		}
		seen = gen;
		par_job *j = cur;
		joined++;
		active++;
		pthread_mutex_unlock(&mu);
		run_items(j);
		pthread_mutex_lock(&mu);
		if (--active == 0)
			pthread_cond_signal(&cv_idle);
	}
	return NULL;
}

/* Starts helpers up to n (fewer if pthread_create fails). Under call_mu. */
static void grow(int n)
{
	while (started < n) {
		pthread_t th;
		pthread_attr_t at;
		pthread_attr_init(&at);
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		int e = pthread_create(&th, &at, helper, NULL);
		pthread_attr_destroy(&at);
		if (e != 0)
			break;
		started++;
	}
}

void rung_par_for(int64_t nitems, void (*fn)(void *ud, int64_t item), void *ud)
{
	if (nitems <= 0)
		return;
	int nt = rung_par_threads();
	if (nt > nitems)
		nt = (int)nitems;
	par_job j = { fn, ud, nitems, 0, nt - 1 };
	atomic_init(&j.next, 0);
	if (nt <= 1 || pthread_mutex_trylock(&call_mu) != 0) {
		run_items(&j); /* one thread, or the pool is busy (nested or concurrent call) */
		return;
	}
	grow(nt - 1);
	pthread_mutex_lock(&mu);
	cur = &j;
	gen++;
	joined = 0;
	pthread_cond_broadcast(&cv_work);
	pthread_mutex_unlock(&mu);
	run_items(&j);
	/* every item is handed out: close the call, then wait for the helpers in it */
	pthread_mutex_lock(&mu);
	cur = NULL;
	while (active > 0)
		pthread_cond_wait(&cv_idle, &mu);
	pthread_mutex_unlock(&mu);
	pthread_mutex_unlock(&call_mu);
}

/* The parallel-for pool: every item runs exactly once, across many calls (the
 * pool is reused), from two threads at once, and from inside an item (nested
 * calls run inline); RUNG_THREADS=1 runs inline on the caller. */
#include "harness.h"

#include <pthread.h>
#include <unistd.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/par.h"

typedef struct {
	atomic_int *hits;
	atomic_int nested;
	int64_t nested_n;
	pthread_t caller;
	atomic_int off_caller; /* items that ran on another thread than the caller */
} job;

static void count_item(void *ud, int64_t i)
{
	job *j = ud;
	atomic_fetch_add(&j->hits[i], 1);
	if (!pthread_equal(pthread_self(), j->caller))
		atomic_fetch_add(&j->off_caller, 1);
}

static int all_once(const atomic_int *hits, int64_t n)
{
	for (int64_t i = 0; i < n; i++)
		if (atomic_load(&hits[i]) != 1)
			return 0;
	return 1;
}

/* One rung_par_for over n counted items from this thread: 1 when every item
 * ran exactly once; *off_caller gets how many ran on another thread. */
static int count_run(atomic_int *hits, int64_t n, int *off_caller)
{
	for (int64_t i = 0; i < n; i++)
		atomic_init(&hits[i], 0); /* no other thread touches them between calls */
	job j = { .hits = hits, .caller = pthread_self() };
	atomic_init(&j.off_caller, 0);
	rung_par_for(n, count_item, &j);
	*off_caller = atomic_load(&j.off_caller);
	return all_once(hits, n);
}

static void t_every_item_once(void)
{
	enum { N = 5000 };
	atomic_int *hits = calloc(N, sizeof(*hits));
	int bad = 0, moved = 0;
	for (int call = 0; call < 300; call++) {
		int off = 0;
		bad += !count_run(hits, 1 + (call * 37) % N, &off);
		moved += off > 0;
	}
	CHECK_INT(bad, 0);
	(void)moved; /* how many calls the helpers joined depends on scheduling: not asserted */
	free(hits);
}

/* With more than one thread, the helpers take part: the caller's first item
 * waits (up to 20 s, however loaded the machine) until another thread has run
 * an item, so the check does not depend on how the threads are scheduled. */
typedef struct {
	pthread_t caller;
	atomic_int off;
	atomic_int waited_out;
} wait_job;

static void wait_item(void *ud, int64_t i)
{
	wait_job *w = ud;
	(void)i;
	if (!pthread_equal(pthread_self(), w->caller)) {
		atomic_fetch_add(&w->off, 1);
		return;
	}
	for (int k = 0; k < 20000 && !atomic_load(&w->off); k++)
		usleep(1000);
	if (!atomic_load(&w->off))
		atomic_store(&w->waited_out, 1);
}

static void t_helpers_take_part(void)
{
	if (rung_par_threads() < 2)
		return;
	wait_job w = { .caller = pthread_self() };
	atomic_init(&w.off, 0);
	atomic_init(&w.waited_out, 0);
	rung_par_for(64, wait_item, &w);
	CHECK(atomic_load(&w.off) > 0);
	CHECK_INT(atomic_load(&w.waited_out), 0);
}

static void nested_item(void *ud, int64_t i)
{
	job *j = ud;
	(void)i;
	atomic_int inner[64];
	int off = 0;
	if (count_run(inner, 64, &off) && off == 0)
		atomic_fetch_add(&j->nested, 1); /* ran, and inline on this thread */
}

static void t_nested_runs_inline(void)
{
	job j = { .caller = pthread_self() };
	atomic_init(&j.nested, 0);
	rung_par_for(40, nested_item, &j);
	CHECK_INT(atomic_load(&j.nested), 40);
}

static void *other_caller(void *arg)
{
	int *ok = arg;
	enum { N = 3000 };
	atomic_int *hits = calloc(N, sizeof(*hits));
	for (int call = 0; call < 200; call++) {
		int off = 0;
		*ok += count_run(hits, N, &off);
	}
	free(hits);
	return NULL;
}

static void t_two_callers(void)
{
	int ok1 = 0, ok2 = 0;
	pthread_t a, b;
	CHECK_INT(pthread_create(&a, NULL, other_caller, &ok1), 0);
	CHECK_INT(pthread_create(&b, NULL, other_caller, &ok2), 0);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	CHECK_INT(ok1, 200);
	CHECK_INT(ok2, 200);
}

static void t_one_thread_inline(void)
{
	setenv("RUNG_THREADS", "1", 1);
	CHECK_INT(rung_par_threads(), 1);
	atomic_int hits[100];
	int off = -1;
	CHECK(count_run(hits, 100, &off));
	CHECK_INT(off, 0);
	unsetenv("RUNG_THREADS");
	setenv("RUNG_THREADS", "4", 1);
	CHECK_INT(rung_par_threads(), 4);
	unsetenv("RUNG_THREADS");
}

int main(void)
{
	T_RUN(t_every_item_once);
	T_RUN(t_helpers_take_part);
	T_RUN(t_nested_runs_inline);
	T_RUN(t_two_callers);
	T_RUN(t_one_thread_inline);
	return t_done();
}

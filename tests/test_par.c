/* The parallel-for pool: every item runs exactly once, across many calls (the
 * pool is reused), from two threads at once, and from inside an item (nested
 * calls run inline); RUNG_THREADS=1 runs inline on the caller. */
#include "harness.h"

#include <pthread.h>
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

static void t_every_item_once(void)
{
	enum { N = 5000 };
	atomic_int *hits = calloc(N, sizeof(*hits));
	int bad = 0, moved = 0;
	for (int call = 0; call < 300; call++) {
		int64_t n = 1 + (call * 37) % N;
		for (int64_t i = 0; i < n; i++)
			atomic_store(&hits[i], 0);
		job j = { .hits = hits, .caller = pthread_self() };
		atomic_init(&j.off_caller, 0);
		rung_par_for(n, count_item, &j);
		bad += !all_once(hits, n);
		moved += atomic_load(&j.off_caller) > 0;
	}
	CHECK_INT(bad, 0);
	/* with more than one CPU, helpers take part in some calls */
	if (rung_par_threads() > 1)
		CHECK(moved > 0);
	free(hits);
}

static void nested_item(void *ud, int64_t i)
{
	job *j = ud;
	(void)i;
	atomic_int inner[64];
	for (int k = 0; k < 64; k++)
		atomic_init(&inner[k], 0);
	job in = { .hits = inner, .caller = pthread_self() };
	atomic_init(&in.off_caller, 0);
	rung_par_for(64, count_item, &in);
	if (all_once(inner, 64) && atomic_load(&in.off_caller) == 0)
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
		for (int i = 0; i < N; i++)
			atomic_store(&hits[i], 0);
		job j = { .hits = hits, .caller = pthread_self() };
		atomic_init(&j.off_caller, 0);
		rung_par_for(N, count_item, &j);
		*ok += all_once(hits, N);
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
	for (int i = 0; i < 100; i++)
		atomic_init(&hits[i], 0);
	job j = { .hits = hits, .caller = pthread_self() };
	atomic_init(&j.off_caller, 0);
	rung_par_for(100, count_item, &j);
	CHECK(all_once(hits, 100));
	CHECK_INT(atomic_load(&j.off_caller), 0);
	unsetenv("RUNG_THREADS");
	setenv("RUNG_THREADS", "4", 1);
	CHECK_INT(rung_par_threads(), 4);
	unsetenv("RUNG_THREADS");
}

int main(void)
{
	T_RUN(t_every_item_once);
	T_RUN(t_nested_runs_inline);
	T_RUN(t_two_callers);
	T_RUN(t_one_thread_inline);
	return t_done();
}

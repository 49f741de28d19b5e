/* RUNG_TIMING phase accounting (see timing.h). */
#include "core/timing.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_PHASES 48

/* asked from compile threads and pool workers at once: the flag atomic, the phases under a lock */
static atomic_int enabled = -1;
static pthread_mutex_t phases_mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
	const char *name;
	double s;
	int n;
} phases[MAX_PHASES];
static int nphases;

bool rung_timing_enabled(void)
{
	int v = atomic_load(&enabled);
	if (v < 0) {
		const char *e = getenv("RUNG_TIMING");
		v = e && *e && strcmp(e, "0") != 0;
		atomic_store(&enabled, v);
	}
	return v;
}

static struct timespec monotonic(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts;
}

double rung_now_s(void)
{
	struct timespec ts = monotonic();
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int64_t rung_now_ms(void)
{
	struct timespec ts = monotonic();
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void rung_timing_add(const char *phase, double seconds)
{
	if (!rung_timing_enabled())
		return;
	pthread_mutex_lock(&phases_mu);
	for (int i = 0; i < nphases; i++) {
		if (phases[i].name == phase || !strcmp(phases[i].name, phase)) {
			phases[i].s += seconds;
			phases[i].n++;
			pthread_mutex_unlock(&phases_mu);
			return;
		}
	}
	if (nphases < MAX_PHASES) {
		phases[nphases].name = phase;
		phases[nphases].s = seconds;
		phases[nphases].n = 1;
		nphases++;
	}
	pthread_mutex_unlock(&phases_mu);
}

double rung_timing_lap(const char *phase, double t0)
{
	double t = rung_now_s();
	rung_timing_add(phase, t - t0);
	return t;
}

void rung_timing_flush(const char *who)
{
	if (!rung_timing_enabled())
		return;
	pthread_mutex_lock(&phases_mu);
	if (nphases == 0) {
		pthread_mutex_unlock(&phases_mu);
		return;
	}
	double total = 0;
	for (int i = 0; i < nphases; i++) {
		fprintf(stderr, "rung timing [%s] %-28s %9.1f ms", who, phases[i].name, phases[i].s * 1e3);
		if (phases[i].n > 1)
			fprintf(stderr, " (x%d)", phases[i].n);
		fputc('\n', stderr);
		total += phases[i].s;
	}
	fprintf(stderr, "rung timing [%s] %-28s %9.1f ms\n", who, "sum of phases", total * 1e3);
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) == 0) /* ru_maxrss is in KiB on Linux */
		fprintf(stderr, "rung timing [%s] %-28s %9.1f MB\n", who, "peak RSS of this process", (double)ru.ru_maxrss / 1024.0);
	nphases = 0;
	pthread_mutex_unlock(&phases_mu);
}

void rung_timing_rss(const char *what)
{
	if (!rung_timing_enabled())
		return;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return;
	long size = 0, res = 0;
	int got = fscanf(f, "%ld %ld", &size, &res);
	fclose(f);
	long page = sysconf(_SC_PAGESIZE);
	if (got == 2 && page > 0)
		fprintf(stderr, "rung timing [rss] %-36s %9.1f MB\n", what, (double)res * (double)page / 1e6);
}

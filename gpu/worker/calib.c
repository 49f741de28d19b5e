/* The records' launch floor (core/calib.h): rung's empty kernel (rung_empty,
 * gpu/worker/flush.c), each launch after the L2 flush as a bench sample is,
 *  - FLOOR_N launches under CUPTI's records, after FLOOR_WARM untimed: their
 *    median is the records' floor now (about 1 ms of GPU time; every bench);
 *  - PROF_N launches under the range profiler, each its own range
 *    (rung_cupti_durations): the profiler's floor, gpu__time_duration as ncu
 *    reports it. The profiler session costs about 0.4 s on the H200, so its
 *    median is kept in the user's cache (rung_fs_cache_dir, calib/<GPU
 *    UUID>-<driver>, one line, core/calib.h) for this boot: measured again
 *    after a reboot or a driver update, or when the line is malformed.
 * The offset is the first minus the second, taken off every record when
 * rung_calib_offset allows it. What was done is in bench.calibration. */
#include "gpu/worker/calib.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/calib.h"
#include "core/err.h"
#include "core/fs.h"
#include "core/stats.h"
#include "core/timing.h"
#include "gpu/cupti.h"
#include "gpu/cupti_prof.h"
#include "gpu/worker/flush.h"
#include "gpu/worker/report.h"

#define FLOOR_WARM 3
#define FLOOR_N 41
#define PROF_N 20

static CUresult flushed_empty(rung_wctx *c)
{
	CUresult r = rung__flush_l2(c);
	return r == CUDA_SUCCESS ? rung__empty_launch(c) : r;
}

/* The records' median of the empty kernel, ms; NAN with why. */
static double record_floor(rung_wctx *c, char *why, size_t wl)
{
	if (rung_cupti_start("rung_empty") != 0) {
		rung__sfmt(why, wl, "CUPTI's records did not start");
		return NAN;
	}
	CUresult r = CUDA_SUCCESS;
	for (int i = 0; i < FLOOR_WARM && r == CUDA_SUCCESS; i++)
		r = flushed_empty(c);
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuStreamSynchronize(c->stream);
	rung_cupti_mark();
	for (int i = 0; i < FLOOR_N && r == CUDA_SUCCESS; i++)
		r = flushed_empty(c);
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuStreamSynchronize(c->stream);
	double ns[FLOOR_N * 2];
	int got = r == CUDA_SUCCESS ? rung_cupti_collect(ns, FLOOR_N * 2) : 0;
	rung_cupti_stop();
	if (r != CUDA_SUCCESS) {
		char d[160];
		rung_cu_describe(d, sizeof(d), r);
		rung__sfmt(why, wl, "the empty kernel: %s", d);
		return NAN;
	}
	if (got != FLOOR_N) {
		rung__sfmt(why, wl, "%d records for %d launches of the empty kernel", got, FLOOR_N);
		return NAN;
	}
	return rung_median(ns, got) * 1e-6;
}

static CUresult prof_launch(void *ud)
{
	rung_wctx *c = ud;
	CUresult r = rung__empty_launch(c);
	return r == CUDA_SUCCESS ? rung_cu.cuStreamSynchronize(c->stream) : r;
}

static CUresult prof_between(void *ud)
{
	rung_wctx *c = ud;
	CUresult r = rung__flush_l2(c);
	return r == CUDA_SUCCESS ? rung_cu.cuStreamSynchronize(c->stream) : r;
}

/* The profiler's median of the empty kernel, ns; NAN with why. */
static double profiler_floor(rung_wctx *c, int *got, char *why, size_t wl)
{
	double ns[PROF_N];
	CUresult lerr = prof_between(c);
	*got = 0;
	int rc = -1;
	if (lerr == CUDA_SUCCESS) {
		rung_cupti_busy_pause(true);
		rc = rung_cupti_durations(ns, got, PROF_N, PROF_N, c->ctx, c->dev, prof_launch, prof_between, c, &lerr,
					  why, wl);
		rung_cupti_busy_pause(false);
	}
	if (lerr != CUDA_SUCCESS) {
		char d[160];
		rung_cu_describe(d, sizeof(d), lerr);
		rung__sfmt(why, wl, "the empty kernel under the profiler: %s", d);
		return NAN;
	}
	if (rc != 0) {
		rung_error_clear();
		return NAN; /* why set */
	}
	if (*got < PROF_N / 2) {
		rung__sfmt(why, wl, "the profiler gave %d durations for %d launches", *got, PROF_N);
		return NAN;
	}
	return rung_median(ns, *got);
}

static bool boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	if (!f)
		return false;
	bool ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return ok && *buf;
}

/* The cache's calib/ directory (made 0700) and the file's name; false when
 * there is no cache (RUNG_CACHE_DIR=off, no HOME). */
static bool cache_path(const rung_wctx *c, char *dir, size_t dl, char *name, size_t nl)
{
	if (rung_fs_cache_dir(dir, dl) < 0) {
		rung_error_clear();
		return false;
	}
	size_t l = strlen(dir);
	if (l + 6 >= dl)
		return false;
	memcpy(dir + l, "calib", 6);
	rung_calib_name(name, nl, c->env.uuid, c->env.driver);
	return true;
}

static void utc(char *buf, size_t len, long long at)
{
	time_t t = (time_t)at;
	struct tm tm;
	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(buf, len, "%lld", at);
}

/* The profiler's floor in ms, from the cache or measured now (and then kept):
 * how says which. NAN with why. */
static double profiler_floor_ms(rung_wctx *c, char *how, size_t hl, char *why, size_t wl)
{
	char boot[80], dir[1024], name[256], path[1400];
	bool have_boot = boot_id(boot, sizeof(boot));
	bool keep = have_boot && cache_path(c, dir, sizeof(dir), name, sizeof(name));
	if (keep) {
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		char *text = NULL;
		size_t len = 0;
		double ns = NAN;
		int n = 0;
		long long at = 0;
		if (rung_fs_read_file(&text, &len, path, 512) == 0 && rung_calib_parse(text, boot, &ns, &n, &at) == 1) {
			free(text);
			char t[40];
			utc(t, sizeof(t), at);
			rung__sfmt(how, hl, "profiler floor cached from %s (%d launches)", t, n);
			return ns * 1e-6;
		}
		free(text);
		rung_error_clear();
	}
	double t0 = rung_now_s();
	int got = 0;
	double ns = profiler_floor(c, &got, why, wl);
	rung_timing_lap("bench: the profiler's launch floor (measured, not cached)", t0);
	if (!isfinite(ns))
		return NAN;
	rung__sfmt(how, hl, "profiler floor measured now (%d launches%s)", got, keep ? "" : ", not cached");
	if (keep && rung_fs_mkdirs(dir, 0700) == 0) {
		char line[256];
		int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0 && rung_calib_format(line, sizeof(line), boot, ns, got, (long long)time(NULL)) == 0 &&
		    rung_fs_write_in(fd, name, line, strlen(line), path) < 0)
			fprintf(stderr, "rung worker: the launch floor is not kept: %s\n", rung_error_last());
		if (fd >= 0)
			close(fd);
	}
	rung_error_clear();
	return ns * 1e-6;
}

int rung__calibrate_records(rung_wctx *c, rung_bench *b, double *samples, int n, double rse_target)
{
	const char *e = getenv("RUNG_RECORD_CAL");
	if (e && !strcmp(e, "off")) {
		rung__sfmt(b->calibration, sizeof(b->calibration), "not calibrated: RUNG_RECORD_CAL=off");
		return 0;
	}
	double t0 = rung_now_s();
	char why[400] = "", how[128] = "";
	b->record_floor = record_floor(c, why, sizeof(why));
	rung_timing_lap("bench: the records' launch floor", t0);
	if (isfinite(b->record_floor))
		b->profiler_floor = profiler_floor_ms(c, how, sizeof(how), why, sizeof(why));
	double off = NAN;
	if (!why[0])
		rung_calib_offset(b->record_floor, b->profiler_floor, b->median, &off, why, sizeof(why));
	if (!isfinite(off)) {
		rung__sfmt(b->calibration, sizeof(b->calibration), "not calibrated: %s", why[0] ? why : "no offset");
		fprintf(stderr, "rung worker: the records are not calibrated: %s\n", b->calibration + 16);
		return 0;
	}
	double rec = b->median;
	for (int i = 0; i < n; i++)
		samples[i] -= off;
	if (rung_bench_fill(b, samples, n, rse_target))
		return -1;
	b->record_median = rec;
	b->record_offset = off;
	rung__sfmt(b->calibration, sizeof(b->calibration), "%s", how);
	rung__sfmt(b->method, sizeof(b->method), "cupti-activity-calibrated");
	return 0;
}

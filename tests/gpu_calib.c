/* The records' calibration on a GPU (#31 item 2; core/calib.h,
 * gpu/worker/calib.c) on tests/tasks/calib, saxpy over 2^24 floats (about
 * 57 us on the H200: timed by the records, not the profiler's window):
 *  - a worker with a fresh cache measures the profiler's launch floor, keeps
 *    it in calib/<UUID>-<driver> for this boot, and takes the offset (records'
 *    floor minus the profiler's, 0 to 5 us) off every record: the median is
 *    the records' own less the offset, and the method says so;
 *  - the next bench reads the floor from the cache (nothing measured again);
 *  - a malformed line and a line of another boot are measured again and
 *    rewritten;
 *  - RUNG_RECORD_CAL=off: the records as they are, and the reason;
 *  - RUNG_CACHE_DIR=off: measured for each bench, kept nowhere.
 * Prints the figures for the report. Exit 77 (skipped) without a GPU. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_eval.h"
#include "core/calib.h"
#include "core/err.h"
#include "core/spec.h"
#include "gpu/worker.h"
#include "harness.h"

#define TASK RUNG_TEST_DIR "/tasks/calib"

static rung_spec *SPEC;
static char *SRC;
static char CACHE[256], FILE_PATH[640], BOOT[80];

/* One evaluation on w into *r (bench checked to have run); false otherwise. */
static bool eval(rung_worker *w, rung_result *r)
{
	rung_job job = {.spec = SPEC, .kernel_src = SRC, .kernel_file = "saxpy.cu", .ref_file = SPEC->reference,
			.seed = 20261202, .seed_set = true, .budget_s = 0.5, .label = "saxpy"};
	int e = t_app_evaluate(r, w, &job, NULL, NULL);
	if (e < 0) {
		fprintf(stderr, "evaluate: %s\n", rung_error_last());
		return false;
	}
	if (rung_result_status(r) != RUNG_S_OK || !r->bench.valid) {
		fprintf(stderr, "not timed: %s\n", rung_result_reason(r));
		rung_result_clear(r);
		return false;
	}
	const rung_bench *b = &r->bench;
	printf("     %s: median %.3f us, records %.3f us, offset %.3f us (records' floor %.3f, profiler's %.3f); %s\n",
	       b->method, b->median * 1e3, b->record_median * 1e3, b->record_offset * 1e3, b->record_floor * 1e3,
	       b->profiler_floor * 1e3, b->calibration);
	return true;
}

static rung_worker *open_with(const char *var, const char *val)
{
	char *old = getenv(var) ? strdup(getenv(var)) : NULL;
	setenv(var, val, 1); /* read by the worker as it starts */
	rung_worker_opts o = {.exe = RUNG_BIN};
	rung_worker *w = NULL;
	rung_env env;
	if (rung_worker_open(&w, &o) || rung_worker_env(&env, w)) {
		fprintf(stderr, "worker (%s=%s): %s\n", var, val, rung_error_last());
		rung_worker_close(w);
		w = NULL;
	}
	if (old)
		setenv(var, old, 1);
	else
		unsetenv(var);
	free(old);
	return w;
}

/* A calibrated bench: the offset taken off the records' own median. */
static void check_calibrated(const rung_result *r, const char *how)
{
	const rung_bench *b = &r->bench;
	CHECK_STR(b->method, "cupti-activity-calibrated");
	CHECK(b->record_offset > 0 && b->record_offset <= 0.005);
	CHECK_NEAR(b->record_offset, b->record_floor - b->profiler_floor, 1e-12);
	CHECK_NEAR(b->median, b->record_median - b->record_offset, 1e-9);
	CHECK(b->profiler_floor > 0.0001 && b->profiler_floor < b->record_floor);
	CHECK(b->median >= 0.05 * 0.9); /* a kernel the records time (else the window would) */
	CHECK_CONTAINS(b->calibration, how);
}

/* The profiler's floor (ms) the cache file holds for this boot; NAN (and the
 * case failed) when it is missing, malformed or for another boot. */
static double kept_floor_ms(void)
{
	char *line = t_slurp(FILE_PATH, NULL);
	double ns = NAN;
	int n = 0;
	long long at = 0;
	int ok = line ? rung_calib_parse(line, BOOT, &ns, &n, &at) : -1;
	CHECK_INT(ok, 1);
	free(line);
	return ok == 1 ? ns * 1e-6 : NAN;
}

static void t_measured_then_cached(void)
{
	rung_worker *w = open_with("RUNG_CACHE_DIR", CACHE);
	CHECK(w != NULL);
	if (!w)
		return;
	rung_result r;
	CHECK(access(FILE_PATH, F_OK) != 0);
	if (eval(w, &r)) {
		check_calibrated(&r, "profiler floor measured now (20 launches)");
		CHECK_NEAR(kept_floor_ms(), r.bench.profiler_floor, 1e-6);
		rung_result_clear(&r);
	}
	if (eval(w, &r)) { /* the same worker: from the cache now */
		check_calibrated(&r, "profiler floor cached from ");
		rung_result_clear(&r);
	}
	/* a malformed line, then another boot's: measured again, the line rewritten */
	const char *planted[] = {"rung-calib 1 boot x floor_ns junk\n", "rung-calib 1 boot another-boot floor_ns 900.0 n 20 at 1\n"};
	for (int i = 0; i < 2; i++) {
		CHECK_INT(t_write(FILE_PATH, planted[i]), 0);
		if (eval(w, &r)) {
			check_calibrated(&r, "profiler floor measured now");
			CHECK(isfinite(kept_floor_ms()));
			rung_result_clear(&r);
		}
	}
	rung_worker_close(w);
}

static void t_off(void)
{
	rung_worker *w = open_with("RUNG_RECORD_CAL", "off");
	CHECK(w != NULL);
	rung_result r;
	if (w && eval(w, &r)) {
		CHECK_STR(r.bench.method, "cupti-activity");
		CHECK(isnan(r.bench.record_offset) && isnan(r.bench.record_median));
		CHECK_STR(r.bench.calibration, "not calibrated: RUNG_RECORD_CAL=off");
		rung_result_clear(&r);
	}
	rung_worker_close(w);
}

static void t_no_cache(void)
{
	rung_worker *w = open_with("RUNG_CACHE_DIR", "off");
	CHECK(w != NULL);
	rung_result r;
	for (int i = 0; w && i < 2; i++)
		if (eval(w, &r)) {
			check_calibrated(&r, "measured now (20 launches, not cached)");
			rung_result_clear(&r);
		}
	rung_worker_close(w);
}

int main(void)
{
	rung_worker *w0;
	rung_env env;
	int rc = t_gpu_open(&w0, &env);
	if (rc)
		return rc;
	rung_worker_close(w0);
	if (rung_spec_load(&SPEC, TASK) || !(SRC = t_slurp(TASK "/saxpy.cu", NULL))) {
		fprintf(stderr, "%s: %s\n", TASK, rung_error_last());
		return 1;
	}
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	if (!f || !fgets(BOOT, sizeof(BOOT), f)) {
		fprintf(stderr, "no boot_id\n");
		return 1;
	}
	fclose(f);
	BOOT[strcspn(BOOT, "\n")] = 0;
	const char *d = t_tmpdir();
	snprintf(CACHE, sizeof(CACHE), "%s/cache", d);
	char name[256];
	rung_calib_name(name, sizeof(name), env.uuid, env.driver);
	snprintf(FILE_PATH, sizeof(FILE_PATH), "%s/calib/%s", CACHE, name);
	T_RUN(t_measured_then_cached);
	T_RUN(t_off);
	T_RUN(t_no_cache);
	rung_spec_free(SPEC);
	free(SRC);
	return t_done();
}

/* Minimal test harness: each tests/test_*.c is one executable with a main()
 * that calls T_RUN(fn) per case and returns t_done(). Exit 77 = skipped. */
#ifndef RUNG_TESTS_HARNESS_H
#define RUNG_TESTS_HARNESS_H

#include <stdio.h>
#include <string.h>
#include <math.h>

#include "gpu/worker.h"

extern int t_failures, t_cases, t_case_failed;
extern const char *t_current;

#define T_SKIP 77

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: %s: CHECK(%s) failed\n", __FILE__, __LINE__, t_current, #cond); \
	t_case_failed = 1; } } while (0)
#define CHECK_INT(a, b) do { long long _a = (long long)(a), _b = (long long)(b); if (_a != _b) { \
	fprintf(stderr, "%s:%d: %s: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, t_current, #a, _a, #b, _b); \
	t_case_failed = 1; } } while (0)
#define CHECK_NEAR(a, b, tol) do { double _a = (double)(a), _b = (double)(b); if (!(fabs(_a - _b) <= (tol))) { \
	fprintf(stderr, "%s:%d: %s: %s == %.17g, expected %.17g (tol %g)\n", __FILE__, __LINE__, t_current, #a, _a, _b, (double)(tol)); \
	t_case_failed = 1; } } while (0)
#define CHECK_STR(a, b) do { const char *_a = (a), *_b = (b); if (!_a || !_b || strcmp(_a, _b) != 0) { \
	fprintf(stderr, "%s:%d: %s: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, t_current, #a, _a ? _a : "(null)", _b ? _b : "(null)"); \
	t_case_failed = 1; } } while (0)
#define CHECK_CONTAINS(hay, needle) do { const char *_h = (hay), *_n = (needle); if (!_h || !strstr(_h, _n)) { \
	fprintf(stderr, "%s:%d: %s: \"%s\" does not contain \"%s\"\n", __FILE__, __LINE__, t_current, _h ? _h : "(null)", _n); \
	t_case_failed = 1; } } while (0)

#define T_RUN(fn) t_run(#fn, fn)
/* Runs one case; with RUNG_TEST_SHARD=I/N in the environment only every Nth
 * case from the Ith (counting from 0) runs, the others are left out. */
void t_run(const char *name, void (*fn)(void));
/* Prints "N passed, N failed" and returns the process exit code. */
int t_done(void);
/* Runs a shell command, captures stdout+stderr into a malloc'd string; returns exit status. */
int t_sh(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Creates a fresh temporary directory (mkdtemp), returns a static-lifetime copy. */
const char *t_tmpdir(void);
/* Reads a whole file, NUL-terminated (caller frees); NULL when it cannot be read.
 * *len (if not NULL) gets its size. */
char *t_slurp(const char *path, size_t *len);
/* Writes a file (creating parent dirs). Returns 0 on success. */
int t_write(const char *path, const char *text);

/* For the GPU tests (tests/gpu_*.c): SIGPIPE ignored, a worker opened on the
 * rung binary and the device read into *env. Returns 0 after printing
 * "device: NAME (ARCH), driver D, CUDA C"; T_SKIP after printing "skipped:
 * WHY" when there is no driver or device (the worker is closed, *w is NULL);
 * 1 on any other error. */
int t_gpu_open(rung_worker **w, rung_env *env);

#endif

/* Kernel output on the GPU (tests/exploits/prints: a correct vadd whose every
 * one of 256 x 256 threads printf's a line with a screen clear, a window title
 * and a BEL):
 *  - `rung check` passes run, check and bench well before the deadline, prints
 *    an [output] line with the first lines inert, and writes no control byte to
 *    its stdout or stderr;
 *  - `rung check --json` carries the output: more than 64 KiB printed, exactly
 *    the first 64 KiB kept, the escapes in the text (JSON-escaped on the wire).
 * Exit 77 (skipped) without a CUDA driver or device. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "core/result.h"
#include "gpu/protocol.h"
#include "gpu/worker.h"
#include "harness.h"

static const char *tmp;

static char *slurp_in(const char *name, size_t *n)
{
	char p[1024];
	snprintf(p, sizeof(p), "%s/%s", tmp, name);
	return t_slurp(p, n);
}

static void no_controls(const char *name)
{
	size_t n = 0;
	char *s = slurp_in(name, &n);
	CHECK(s != NULL);
	if (!s)
		return;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\n') || c == 0x7f) {
			fprintf(stderr, "%s: control byte 0x%02x at %zu\n", name, c, i);
			t_case_failed = 1;
			break;
		}
	}
	free(s);
}

static void test_prints_check_and_bench(void)
{
	char *sh = NULL;
	int64_t t0 = rung_now_ms();
	int rc = t_sh(&sh, "cd %s/exploits/prints && %s check --seed 11 >%s/out 2>%s/err", RUNG_TEST_DIR, RUNG_BIN, tmp,
		      tmp);
	int64_t dt = rung_now_ms() - t0;
	free(sh);
	char *out = slurp_in("out", NULL), *err = slurp_in("err", NULL);
	printf("     rung check tests/exploits/prints: exit %d in %lld ms\n%s%s", rc, (long long)dt, out ? out : "",
	       err ? err : "");
	CHECK_INT(rc, 0);
	CHECK(dt < 60000);
	CHECK_CONTAINS(out, "[run] ok ");
	CHECK_CONTAINS(out, "[check] ok ");
	CHECK_CONTAINS(out, "[bench] ok ");
	CHECK_CONTAINS(out, "[output] the kernel printed ");
	CHECK_CONTAINS(out, " (the first 64.0 KiB kept); its first 5 lines:\n  | thread ");
	CHECK_CONTAINS(out, " \\x1b[2J\\x1b]0;pwned\\x07 c = a + b\n");
	no_controls("out");
	no_controls("err");
	free(out);
	free(err);
}

static void test_prints_json(void)
{
	char *sh = NULL;
	int rc = t_sh(&sh, "cd %s/exploits/prints && %s check --json --seed 12 >%s/out.json 2>%s/err", RUNG_TEST_DIR,
		      RUNG_BIN, tmp, tmp);
	free(sh);
	CHECK_INT(rc, 0);
	no_controls("out.json");
	no_controls("err");
	char *text = slurp_in("out.json", NULL);
	json_t *j = text ? json_loads(text, 0, NULL) : NULL;
	CHECK(j != NULL);
	json_t *res = json_object_get(j, "result");
	CHECK_STR(json_string_value(json_object_get(json_object_get(json_object_get(res, "steps"), "check"), "status")), "ok");
	CHECK_STR(json_string_value(json_object_get(json_object_get(json_object_get(res, "steps"), "bench"), "status")), "ok");
	json_t *o = json_object_get(res, "output");
	json_int_t bytes = json_integer_value(json_object_get(o, "bytes"));
	json_int_t dropped = json_integer_value(json_object_get(o, "dropped"));
	const char *t = json_string_value(json_object_get(o, "text"));
	printf("     output: %lld bytes, %lld dropped\n", (long long)bytes, (long long)dropped);
	CHECK(bytes > RUNG_OUTPUT_KEEP);
	CHECK_INT(dropped, bytes - RUNG_OUTPUT_KEEP);
	/* all ASCII: the stored text is the first 64 KiB byte for byte */
	CHECK(t && strlen(t) == RUNG_OUTPUT_KEEP);
	CHECK(t && !strncmp(t, "thread ", 7));
	CHECK_CONTAINS(t, " \x1b[2J\x1b]0;pwned\x07 c = a + b\nthread ");
	json_decref(j);
	free(text);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	rung_worker *w;
	rung_worker_opts o = {.exe = RUNG_BIN};
	if (rung_worker_open(&w, &o))
		return 1;
	rung_env env;
	int rc = rung_worker_env(&env, w);
	rung_worker_close(w);
	if (rc == RUNG_ENODEV) {
		printf("skipped: %s\n", rung_error_last());
		return T_SKIP;
	}
	if (rc) {
		fprintf(stderr, "worker: %s\n", rung_error_last());
		return 1;
	}
	printf("device: %s (%s), driver %s\n", env.gpu, env.arch, env.driver);
	tmp = t_tmpdir();
	T_RUN(test_prints_check_and_bench);
	T_RUN(test_prints_json);
	char *sh = NULL;
	t_sh(&sh, "rm -rf '%s'", tmp);
	free(sh);
	return t_done();
}

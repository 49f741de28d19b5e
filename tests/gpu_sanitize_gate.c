/* Sanitize before best on a GPU (#25 item 1, docs/CHECKS.md "Sanitize before
 * best"), through the real binary: a repository of the exploit suite's
 * softmax task whose versions are the honest kernel (tests/exploits/good),
 * the three races of the suite (smem_race, warp_volatile, cpasync_early:
 * they usually pass the value checks) and a comment-only copy of the honest
 * kernel. After `rung eval --all`:
 *  - exactly one version is best (rung log --json), and it is sanitized;
 *  - no racy version is sanitized (a run on one must find its race), and
 *    every passing version faster than the best failed its run (or, past
 *    RUNG_GATE_MAX_TRIES, is not sanitized);
 *  - a second `rung eval` sanitizes nothing (stored, once per machine code);
 * and the cost of the gate is printed (`stats: sanitize before best: ...`).
 * Exit 77 (skipped) without a CUDA device or without compute-sanitizer. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/timing.h"
#include "gpu/sanitize.h"
#include "gpu/worker.h"
#include "harness.h"

static const char *racy[] = {"smem_race", "warp_volatile", "cpasync_early"};

static void t_gate(void)
{
	const char *dir = t_tmpdir();
	char *out = NULL;
	int rc = t_sh(&out,
		      "set -e; cd %s && git init -q -b main repo && cd repo && git config user.name A && "
		      "git config user.email a@x && cp -r %s/exploits/good softmax && git add -A && git commit -qm good && "
		      "for k in %s %s %s; do cp %s/exploits/$k/kernel.cu softmax/kernel.cu && git commit -qam $k; done && "
		      "cp %s/exploits/good/kernel.cu softmax/kernel.cu && echo '// a comment' >> softmax/kernel.cu && "
		      "git commit -qam good-comment",
		      dir, RUNG_TEST_DIR, racy[0], racy[1], racy[2], RUNG_TEST_DIR, RUNG_TEST_DIR);
	CHECK_INT(rc, 0);
	free(out);
	int64_t t0 = rung_now_ms();
	rc = t_sh(&out, "cd %s/repo && %s eval --all --stats 2>&1", dir, RUNG_BIN);
	int64_t ms = rung_now_ms() - t0;
	printf("%s", out ? out : "");
	printf("     rung eval --all --stats: %.2f s wall, exit %d\n", (double)ms / 1000, rc);
	CHECK(rc == 0 || rc == 1); /* 1: a race was found in a version the gate ran */
	CHECK_CONTAINS(out, "rung eval: best ");
	CHECK(!strstr(out ? out : "", "is provisional"));
	free(out);
	rc = t_sh(&out, "cd %s/repo && %s log --json 2>/dev/null", dir, RUNG_BIN);
	CHECK_INT(rc, 0);
	int nbest = 0;
	double best_ms = NAN;
	json_t *rows[16];
	int n = 0;
	for (char *line = out ? strtok(out, "\n") : NULL; line && n < 16; line = strtok(NULL, "\n")) {
		json_t *j = json_loads(line, 0, NULL);
		if (!j)
			continue;
		rows[n++] = j;
		if (json_is_true(json_object_get(j, "best"))) {
			nbest++;
			CHECK_STR(json_string_value(json_object_get(j, "sanitize_state")), "sanitized");
			best_ms = json_number_value(json_object_get(j, "median_ms"));
		}
	}
	CHECK_INT(n, 5);
	CHECK_INT(nbest, 1);
	for (int i = 0; i < n; i++) {
		const char *subj = json_string_value(json_object_get(rows[i], "subject"));
		const char *st = json_string_value(json_object_get(rows[i], "sanitize_state"));
		double m = json_number_value(json_object_get(rows[i], "median_ms"));
		if (!json_is_number(json_object_get(rows[i], "median_ms")))
			m = NAN;
		printf("     %-14s %-14s median %.5f ms%s\n", subj ? subj : "?", st ? st : "?", m,
		       json_is_true(json_object_get(rows[i], "best")) ? "  best" : "");
		for (int k = 0; k < 3; k++)
			if (subj && !strcmp(subj, racy[k]))
				CHECK(!st || strcmp(st, "sanitized") != 0); /* the sanitizer must see its race */
		if (json_is_true(json_object_get(rows[i], "pass")) && isfinite(m) && isfinite(best_ms) && m < best_ms &&
		    !json_is_true(json_object_get(rows[i], "best")))
			CHECK(st && (!strcmp(st, "failed") || !strcmp(st, "not-sanitized")));
	}
	for (int i = 0; i < n; i++)
		json_decref(rows[i]);
	free(out);
	/* stored: nothing sanitized again */
	rc = t_sh(&out, "cd %s/repo && %s eval 2>&1", dir, RUNG_BIN);
	CHECK(!strstr(out ? out : "", "sanitizing"));
	free(out);
	t_sh(&out, "rm -rf %s", dir);
	free(out);
}

int main(void)
{
	rung_worker *w;
	rung_env env;
	int rc = t_gpu_open(&w, &env);
	if (rc)
		return rc;
	rung_worker_close(w);
	char cs[4096];
	if (!rung_sanitizer_find(cs, sizeof(cs))) {
		printf("skipped: %s\n", RUNG_SANITIZER_NOT_FOUND);
		return T_SKIP;
	}
	T_RUN(t_gate);
	return t_done();
}

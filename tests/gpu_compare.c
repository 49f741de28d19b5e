/* A/B comparison is verified (docs/CHECKS.md, "Compare is verified too"), on the
 * exploit suite's softmax (tests/exploits/): call_counter and no_work are
 * honest for their first two launches at the benchmark shape after a load and
 * cheat from the third. Compare runs two verified warm-up rounds (one launch of
 * each per round), so their third launch is timed round 1, and every compare
 * loads both modules fresh: the disagreement is at timed round 1 each time, in
 * the same worker too. Honest pairs get a timing verdict with every launch
 * verified. Exit 77 (skipped) without a CUDA driver or device. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/spec.h"
#include "core/stats.h"
#include "gpu/compile.h"
#include "gpu/worker.h"
#include "harness.h"

#define ROWS 1024 /* the exploit tasks' benchmark shape: R x C */
#define COLS 2048

static rung_worker *W;
static rung_spec *SPEC; /* tests/exploits/good/rung.ini: A's spec, used for both */

typedef struct {
	char *src;
	char file[64];
	rung_compiled k;
} version;

static int load(version *v, const char *name, const char *file, const char *prefix)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/exploits/%s/kernel.cu", RUNG_TEST_DIR, name);
	char *text = t_slurp(path, NULL);
	if (!text)
		return -1;
	size_t n = strlen(text) + strlen(prefix) + 1;
	v->src = malloc(n);
	snprintf(v->src, n, "%s%s", prefix, text);
	free(text);
	snprintf(v->file, sizeof(v->file), "%s", file);
	rung_compile_req r = {.src = v->src, .file = v->file, .entry = SPEC->entry, .arch = SPEC->arch};
	int rc = rung_compile(&v->k, &r);
	if (rc)
		fprintf(stderr, "%s: %s\n", v->file, v->k.error[0] ? v->k.error : rung_error_last());
	return rc;
}

static void unload(version *v)
{
	rung_compiled_clear(&v->k);
	free(v->src);
}

static void compare(rung_ab *ab, version *a, version *b)
{
	CHECK_INT(rung_compare_versions(ab, W, SPEC, a->src, a->file, &a->k, b->src, b->file, &b->k, 0.3), 0);
	printf("     %-18s vs %-18s %s%s n=%d verified=%d sets=%d verify %.3f ms\n", a->file, b->file,
	       ab->identical ? "identical " : "", ab->failed || ab->disagree ? ab->reason : "", ab->n, ab->verified,
	       ab->sets, ab->verify_ms);
}

static version good, good2, call_counter, no_work, global_counter;

static void test_identical_code_is_same(void)
{
	rung_ab ab;
	compare(&ab, &good, &good2);
	CHECK(ab.identical);
	CHECK(!ab.disagree && !ab.failed);
	rung_ab_clear(&ab);
}

/* One of them cheats from its third launch: odd rows keep B's (or A's) poison. */
static void expect_disagree(version *a, version *b, const char *who, int64_t count, int64_t row)
{
	rung_ab ab;
	compare(&ab, a, b);
	CHECK(!ab.identical && !ab.failed);
	CHECK(ab.disagree);
	CHECK_INT(ab.round, 1);
	CHECK(ab.round_timed);
	CHECK_STR(ab.kernel, "");
	CHECK_STR(ab.arg, "y");
	CHECK_INT(ab.count, count);
	CHECK_INT(ab.rank, 2);
	CHECK_INT(ab.first[0], row);
	CHECK_INT(ab.first[1], 0);
	char want[160];
	snprintf(want, sizeof(want), "A and B disagree at timed round 1 (%lld elements of y, first at (%lld,0), %lld left unwritten by %s",
		 (long long)count, (long long)row, (long long)count, who);
	CHECK_CONTAINS(ab.reason, want);
	CHECK_CONTAINS(ab.reason, "one of them behaves differently when timed; rung check each");
	CHECK_INT(ab.verified, 4); /* the two warm-up rounds */
	CHECK_INT(ab.n, 0);
	rung_ab_clear(&ab);
}

static void test_call_counter_as_b(void)
{
	expect_disagree(&good, &call_counter, "B", (int64_t)ROWS / 2 * COLS, 1);
}

static void test_call_counter_as_a(void)
{
	expect_disagree(&call_counter, &good, "A", (int64_t)ROWS / 2 * COLS, 1);
}

static void test_no_work(void)
{
	expect_disagree(&good, &no_work, "B", (int64_t)ROWS * COLS, 0);
}

/* Both honest (one keeps a statistics counter in a __device__ global): a
 * verdict, every launch verified, both input sets used. */
static void test_honest_pair_gets_a_verdict(void)
{
	rung_ab ab;
	compare(&ab, &good, &global_counter);
	CHECK(!ab.identical && !ab.failed && !ab.disagree);
	CHECK(ab.n >= 10);
	CHECK(ab.verified >= 2 * (2 + ab.n)); /* warm-up and timed rounds, two launches each */
	CHECK_INT(ab.sets, 2);
	CHECK(isfinite(ab.verify_ms) && ab.verify_ms > 0);
	rung_compare cmp;
	CHECK_INT(rung_compare_samples(&cmp, ab.a, ab.n, ab.b, ab.n, 0, 0x5eed), 0);
	printf("     %s B/A=%.3f [%.3f, %.3f]\n", rung_cmp_verdict_name(cmp.verdict), cmp.ratio, cmp.lo, cmp.hi);
	rung_ab_clear(&ab);
}

/* The command line: the disagreement is the verdict, exit 1. This test's own
 * worker (W) holds a context on the device meanwhile, which rung compare
 * rightly reports as a shared GPU: --allow-shared gives the verdict anyway. */
static void test_cli(void)
{
	char *out = NULL;
	int rc = t_sh(&out, "cd %s/exploits && %s compare --allow-shared --budget 0.3 good/kernel.cu call_counter/kernel.cu", RUNG_TEST_DIR,
		      RUNG_BIN);
	CHECK_INT(rc, 1);
	CHECK_CONTAINS(out, "DISAGREE A and B disagree at timed round 1 (");
	CHECK(!strstr(out, "FASTER") && !strstr(out, "SLOWER") && !strstr(out, "SAME"));
	free(out);
	rc = t_sh(&out, "cd %s/exploits && %s compare --allow-shared --json --budget 0.3 good/kernel.cu global_counter/kernel.cu",
		  RUNG_TEST_DIR, RUNG_BIN);
	CHECK_INT(rc, 0);
	CHECK_CONTAINS(out, "\"verified\":");
	CHECK(!strstr(out, "DISAGREE"));
	free(out);
}

int main(void)
{
	rung_env env;
	int rc = t_gpu_open(&W, &env);
	if (rc)
		return rc;
	if (rung_spec_load(&SPEC, RUNG_TEST_DIR "/exploits/good")) {
		fprintf(stderr, "%s\n", rung_error_last());
		return 1;
	}
	if (load(&good, "good", "good.cu", "") ||
	    load(&good2, "good", "good_v2.cu", "// the same code, one comment line more\n") ||
	    load(&call_counter, "call_counter", "call_counter.cu", "") || load(&no_work, "no_work", "no_work.cu", "") ||
	    load(&global_counter, "global_counter", "global_counter.cu", ""))
		return 1;
	T_RUN(test_identical_code_is_same);
	T_RUN(test_call_counter_as_b);
	T_RUN(test_call_counter_as_a);
	T_RUN(test_no_work);
	T_RUN(test_call_counter_as_b); /* again in the same worker: the module is fresh */
	T_RUN(test_honest_pair_gets_a_verdict);
	T_RUN(test_cli);
	unload(&good);
	unload(&good2);
	unload(&call_counter);
	unload(&no_work);
	unload(&global_counter);
	rung_spec_free(SPEC);
	rung_worker_close(W);
	return t_done();
}

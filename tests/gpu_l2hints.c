/* rung's L2 flush between timed launches against loads with cache-policy
 * hints (#25 item 4; docs/CHECKS.md "The L2 flush and cache-policy hints"),
 * on tests/tasks/l2hints: a sum over 16 MiB of input, which fits in the
 * H200's L2, timed by rung's bench (one launch per sample, the flush before
 * each), in three kernels:
 *   plain.cu  - normal loads;
 *   policy.cu - createpolicy.fractional.L2::evict_last + ld.global.L2::cache_hint;
 *   range.cu  - createpolicy.range.global.L2::evict_last over the input + cache_hint.
 * First the premise: with RUNG_FLUSH=none (a worker of its own) plain.cu is
 * served from L2 and its median is clearly below the flushed one (else the
 * size tells nothing and the test fails, saying so). Then the check: under
 * the default flush each hinted kernel's median is no more than 10 % below
 * plain.cu's and clearly above the L2-hot median; a hint that survived the
 * flush would make it time like the L2-hot run. Prints the four medians for
 * the report. Exit 77 (skipped) without a CUDA driver or device. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/spec.h"
#include "gpu/worker.h"
#include "harness.h"
#include "app_eval.h"

#define TASK RUNG_TEST_DIR "/tasks/l2hints"

static rung_worker *W;       /* the default flush (sweep) */
static rung_worker *W_NOFLUSH; /* RUNG_FLUSH=none */
static rung_spec *SPEC;

/* The bench median (ms) of kernel (a file of the task) on worker w; NAN when
 * it did not pass or was not timed (said on stderr). */
static double median_of(rung_worker *w, const char *kernel)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", TASK, kernel);
	char *src = t_slurp(path, NULL);
	CHECK(src != NULL);
	if (!src)
		return NAN;
	rung_job job = {.spec = SPEC, .kernel_src = src, .kernel_file = kernel, .ref_file = SPEC->reference,
			.seed = 20261202, .seed_set = true, .budget_s = 1.0, .label = kernel};
	rung_result r;
	int e = t_app_evaluate(&r, w, &job, NULL, NULL);
	double m = NAN;
	if (e < 0)
		fprintf(stderr, "%s: %s\n", kernel, rung_error_last());
	else if (rung_result_status(&r) != RUNG_S_OK || !r.bench.valid)
		fprintf(stderr, "%s: not timed: %s\n", kernel, rung_result_reason(&r));
	else
		m = r.bench.median;
	rung_result_clear(&r);
	free(src);
	return m;
}

static void t_flush_evicts_hinted_lines(void)
{
	double hot = median_of(W_NOFLUSH, "plain.cu");
	double cold = median_of(W, "plain.cu");
	double policy = median_of(W, "policy.cu");
	double range = median_of(W, "range.cu");
	double policy_hot = median_of(W_NOFLUSH, "policy.cu");
	printf("     medians (ms): plain no flush %.5f, plain %.5f, policy %.5f (no flush %.5f), range %.5f\n", hot, cold,
	       policy, policy_hot, range);
	CHECK(isfinite(hot) && isfinite(cold) && isfinite(policy) && isfinite(range));
	/* the premise: L2 residency shows at this size */
	if (!(hot < 0.8 * cold))
		fprintf(stderr, "premise failed: 16 MiB served from L2 (%.5f ms) is not clearly faster than from DRAM "
				"(%.5f ms): this GPU's L2 cannot be told apart by this test\n",
			hot, cold);
	CHECK(hot < 0.8 * cold);
	/* the check: hinted loads after the flush time as cold as plain ones */
	CHECK(policy > 0.9 * cold);
	CHECK(range > 0.9 * cold);
	CHECK(policy > 1.15 * hot);
	CHECK(range > 1.15 * hot);
}

int main(void)
{
	rung_env env;
	int rc = t_gpu_open(&W, &env);
	if (rc)
		return rc;
	if (rung_spec_load(&SPEC, TASK)) {
		fprintf(stderr, "%s: %s\n", TASK, rung_error_last());
		rung_worker_close(W);
		return 1;
	}
	setenv("RUNG_FLUSH", "none", 1); /* read by the worker when it starts */
	rung_worker_opts o = {.exe = RUNG_BIN};
	rung_env env2;
	if (rung_worker_open(&W_NOFLUSH, &o) || rung_worker_env(&env2, W_NOFLUSH)) { /* started now, with the variable */
		fprintf(stderr, "worker (RUNG_FLUSH=none): %s\n", rung_error_last());
		rung_worker_close(W);
		return 1;
	}
	unsetenv("RUNG_FLUSH");
	T_RUN(t_flush_evicts_hinted_lines);
	rung_worker_close(W_NOFLUSH);
	rung_worker_close(W);
	rung_spec_free(SPEC);
	return t_done();
}

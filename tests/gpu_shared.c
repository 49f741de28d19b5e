/* A second process on the GPU is seen and stored with the timing (#18 item
 * 12, docs/CHECKS.md "A shared GPU"): tests/tasks/sgemm is evaluated in one
 * worker, first alone (no process of ours is listed), then with a second
 * `rung worker` holding a context on the device: the result's bench.shared
 * lists that process (pid, command "rung") and `rung check`'s bench line
 * names it; rung compare's A/B rounds list it too. About 10 s. Exit 77
 * (skipped) without a CUDA driver or device. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli/report.h"
#include "core/err.h"
#include "core/spec.h"
#include "gpu/compile.h"
#include "gpu/worker.h"
#include "harness.h"
#include "app_eval.h"

static rung_worker *W;
static rung_spec *SPEC;
static char *SRC;

/* The parent pid of pid (/proc/PID/stat), or -1. */
static int parent_of(int pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *p = strrchr(buf, ')'); /* after "pid (comm)" */
	int ppid = -1;
	if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1)
		return -1;
	return ppid;
}

/* The entry of s that is a child of this test (a worker it started), or -1. */
static int ours(const rung_gpu_procs *s)
{
	for (int i = 0; i < s->n; i++)
		if (parent_of(s->p[i].pid) == (int)getpid())
			return i;
	return -1;
}

static void eval_sgemm(rung_result *r)
{
	rung_job job = {.spec = SPEC, .kernel_src = SRC, .kernel_file = "sgemm.cu", .ref_file = SPEC->reference,
			.seed = 20261201, .seed_set = true, .budget_s = 0.3, .label = "sgemm"};
	CHECK_INT(t_app_evaluate(r, W, &job, NULL, NULL), 0);
	CHECK_INT(r->steps[RUNG_STEP_BENCH].status, RUNG_S_OK);
	char s[512];
	rung_gpu_procs_str(s, sizeof(s), &r->bench.shared);
	printf("     bench median %.4f ms, NVML lists read=%d: %s\n", r->bench.median, r->bench.shared.read,
	       s[0] ? s : "(no other process)");
}

static void test_alone_then_shared(void)
{
	rung_result r;
	eval_sgemm(&r);
	CHECK(r.bench.shared.read); /* NVML comes with the driver */
	CHECK_INT(ours(&r.bench.shared), -1);
	rung_result_clear(&r);

	/* a second process with a context on the device: another worker */
	rung_worker *w2 = NULL;
	rung_worker_opts o = {.exe = RUNG_BIN};
	CHECK_INT(rung_worker_open(&w2, &o), 0);
	rung_env env2;
	CHECK_INT(rung_worker_env(&env2, w2), 0); /* its hello: the context exists */
	eval_sgemm(&r);
	int k = ours(&r.bench.shared);
	CHECK(k >= 0);
	if (k >= 0) {
		CHECK_STR(r.bench.shared.p[k].name, "rung");
		char want[96], *line = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&line, &len);
		rung_check_print_gpu_step(f, &r, SPEC, RUNG_STEP_BENCH);
		fclose(f);
		snprintf(want, sizeof(want), "pid %d rung", r.bench.shared.p[k].pid);
		CHECK_CONTAINS(line, "shared GPU: ");
		CHECK_CONTAINS(line, want);
		printf("     %s", line);
		free(line);
	}
	CHECK(rung_bench_shared(&r.bench));
	/* the JSON round trip keeps it (the store, the worker protocol) */
	char *j = rung_result_to_json(&r);
	rung_result back;
	CHECK_INT(rung_result_from_json(&back, j), 0);
	CHECK_INT(ours(&back.bench.shared), k);
	rung_result_clear(&back);
	free(j);
	rung_result_clear(&r);

	/* rung compare's A/B rounds see it too */
	rung_compiled ka, kb;
	const char *needle = "float acc = 0.0f;";
	const char *at = strstr(SRC, needle);
	CHECK(at != NULL);
	char *srcb = malloc(strlen(SRC) + 64);
	if (at && srcb) {
		/* the same result, other machine code (0 * a runtime value is not folded) */
		sprintf(srcb, "%.*sfloat acc = 0.0f * (float)blockIdx.z;%s", (int)(at - SRC), SRC, at + strlen(needle));
		rung_compile_req ra = {.src = SRC, .file = "a.cu", .entry = SPEC->entry, .arch = SPEC->arch};
		rung_compile_req rb = {.src = srcb, .file = "b.cu", .entry = SPEC->entry, .arch = SPEC->arch};
		CHECK_INT(rung_compile(&ka, &ra), 0);
		CHECK_INT(rung_compile(&kb, &rb), 0);
		rung_ab ab;
		CHECK_INT(rung_compare_versions(&ab, W, SPEC, SRC, "a.cu", &ka, srcb, "b.cu", &kb, 0.3), 0);
		CHECK(!ab.identical && !ab.failed && !ab.disagree);
		CHECK(ab.shared.read);
		CHECK(ours(&ab.shared) >= 0);
		char s[512];
		rung_gpu_procs_str(s, sizeof(s), &ab.shared);
		printf("     compare n=%d: %s\n", ab.n, s);
		rung_ab_clear(&ab);
		rung_compiled_clear(&ka);
		rung_compiled_clear(&kb);
	}
	free(srcb);
	rung_worker_close(w2);
}

int main(void)
{
	rung_env env;
	int rc = t_gpu_open(&W, &env);
	if (rc)
		return rc;
	char dir[1024], path[1100];
	snprintf(dir, sizeof(dir), "%s/tasks/sgemm", RUNG_TEST_DIR);
	snprintf(path, sizeof(path), "%s/sgemm.cu", dir);
	if (rung_spec_load(&SPEC, dir) || !(SRC = t_slurp(path, NULL))) {
		fprintf(stderr, "%s: %s\n", dir, rung_error_last());
		return 1;
	}
	T_RUN(test_alone_then_shared);
	free(SRC);
	rung_spec_free(SPEC);
	rung_worker_close(W);
	return t_done();
}

/* Scratch arguments on the GPU (issue #16, docs/SPEC.md "The sidecar" and
 * "[arg NAME]"): tests/tasks/scratch's PTX kernel reads its float of the
 * global scratch, adds x[i], writes the sum back to the scratch and to y[i],
 * and writes NaN when its profile scratch pointer is not null. y equals x (the
 * reference, compared with atol = rtol = 0) only when the scratch is a buffer
 * of zeros before the launch, so:
 *  - `rung check` passes run, check (every size set and seed, then the second
 *    run of the run case) and bench (each warm-up and timed launch verified)
 *    only when the worker zeroes the scratch before every launch (a reused,
 *    unzeroed one gives 2x from the second launch on), passes a buffer for the
 *    global scratch the sidecar adds (a null one faults) and a null pointer
 *    for the profile scratch of size 0;
 *  - the same with the scratch arguments declared in rung.ini
 *    (size = 512*cdiv(N,128), size = 0);
 *  - `rung compare` of a CUDA version (3 parameters) against the PTX one
 *    (3 + the 2 added) verifies every launch of both.
 * Exit 77 (skipped) without a CUDA driver or device. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "gpu/worker.h"
#include "harness.h"

static const char *tmp;

static char *slurp_in(const char *name)
{
	char p[1024];
	snprintf(p, sizeof(p), "%s/%s", tmp, name);
	return t_slurp(p, NULL);
}

/* rung check in tmp/DIR; its stdout and stderr printed; the exit code. */
static int check_in(const char *dir, char **out)
{
	char *sh = NULL;
	int rc = t_sh(&sh, "cd %s && %s check --seed 5 %s >out 2>err", tmp, RUNG_BIN, dir);
	free(sh);
	*out = slurp_in("out");
	char *err = slurp_in("err");
	printf("     rung check %s: exit %d\n%s%s", dir, rc, *out ? *out : "", err ? err : "");
	free(err);
	return rc;
}

static void test_added_scratch(void)
{
	char *sh = NULL;
	CHECK_INT(t_sh(&sh, "cp -r %s/tasks/scratch %s/added", RUNG_TEST_DIR, tmp), 0);
	free(sh);
	char *out = NULL;
	CHECK_INT(check_in("added", &out), 0);
	CHECK_CONTAINS(out, "[scratch] global_scratch 400384 bytes (512 per program), profile_scratch null; added after [arg n]");
	CHECK_CONTAINS(out, "[run] ok");
	CHECK_CONTAINS(out, "[check] ok ");
	CHECK_CONTAINS(out, "[bench] ok ");
	free(out);
}

static void test_declared_scratch(void)
{
	char *sh = NULL;
	CHECK_INT(t_sh(&sh, "cp -r %s/tasks/scratch %s/declared && printf '[arg gs]\\nkind = scratch\\nsize = "
			   "512*cdiv(N,128)\\n[arg ps]\\nkind = scratch\\nsize = 0\\n' >>%s/declared/rung.ini",
		       RUNG_TEST_DIR, tmp, tmp), 0);
	free(sh);
	char *out = NULL;
	CHECK_INT(check_in("declared", &out), 0);
	CHECK(out && !strstr(out, "[scratch]"));
	CHECK_CONTAINS(out, "[check] ok ");
	CHECK_CONTAINS(out, "[bench] ok ");
	free(out);
}

static void test_compare_cuda_and_ptx(void)
{
	char *sh = NULL;
	int rc = t_sh(&sh,
		      "set -e; cd %s && cp -r %s/tasks/scratch repo && cd repo && git init -q . && "
		      "git config user.name A && git config user.email a@example.com && "
		      "sed 's/copy_ref/copy_kernel/' reference.cu >copy.cu && cp rung.ini rung.ini.ptx && "
		      "sed -i 's/^kernel = scratch.ptx/kernel = copy.cu/; s/^entry = scratch_kernel/entry = copy_kernel/' "
		      "rung.ini && git add rung.ini reference.cu copy.cu && git commit -qm cuda && "
		      "mv rung.ini.ptx rung.ini && git add rung.ini scratch.ptx scratch.json && git commit -qm ptx",
		      tmp, RUNG_TEST_DIR);
	CHECK_INT(rc, 0);
	free(sh);
	rc = t_sh(&sh, "cd %s/repo && %s compare --allow-shared HEAD~1 HEAD >../cmp 2>../cmp.err", tmp, RUNG_BIN);
	free(sh);
	char *out = slurp_in("cmp"), *err = slurp_in("cmp.err");
	printf("     rung compare HEAD~1 HEAD: exit %d\n%s%s", rc, out ? out : "", err ? err : "");
	CHECK_INT(rc, 0);
	CHECK_CONTAINS(out, " verified=");
	CHECK(out && !strstr(out, "DISAGREE"));
	free(out);
	free(err);
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
	T_RUN(test_added_scratch);
	T_RUN(test_declared_scratch);
	T_RUN(test_compare_cuda_and_ptx);
	char *sh = NULL;
	t_sh(&sh, "rm -rf '%s'", tmp);
	free(sh);
	return t_done();
}

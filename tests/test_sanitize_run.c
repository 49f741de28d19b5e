/* The sanitize rung's process side (gpu/sanitize.c) without a GPU and without
 * compute-sanitizer: where the tool is looked for, the command line rung
 * builds, the job cut to the smallest check shape, and the whole rung with a
 * fake compute-sanitizer (a shell script that records its argv, writes a
 * report from tests/fixtures/sanitize/ to the --log-file and runs the rest of
 * its command line) in front of a fake worker: findings, SKIPPED without the
 * tool or a device, FAILED when the report is missing or the tool complains,
 * the deadline kill reaching the worker under the wrapper, the log removed. */
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "core/rng.h"
#include "gpu/plan.h"
#include "gpu/sanitize.h"
#include "gpu/worker.h"
#include "harness.h"
#include "app_eval.h"

static const char *dir; /* scratch: fakes, fixtures, $TMPDIR */

static const char *write_exec(const char *name, const char *body)
{
	static char path[8][600];
	static int k;
	char *p = path[k++ % 8];
	snprintf(p, 600, "%s/%s", dir, name);
	t_write(p, body);
	chmod(p, 0755);
	return p;
}

static void fixture_as(const char *fixture, const char *tool)
{
	char src[600], dst[600];
	snprintf(src, sizeof(src), "%s/fixtures/sanitize/%s", RUNG_TEST_DIR, fixture);
	snprintf(dst, sizeof(dst), "%s/%s.log", dir, tool);
	char *text = fixture[0] ? t_slurp(src, NULL) : NULL;
	CHECK(text || !fixture[0]);
	t_write(dst, text ? text : "");
	free(text);
}

static void t_find(void)
{
	char buf[4096];
	unsetenv("RUNG_COMPUTE_SANITIZER");
	setenv("PATH", "/nonexistent", 1);
	setenv("CUDA_HOME", "/nonexistent", 1);
	struct stat st;
	bool system_one = stat("/usr/local/cuda/bin/compute-sanitizer", &st) == 0;
	CHECK_INT(rung_sanitizer_find(buf, sizeof(buf)), system_one);
	/* on PATH */
	char bin[600], home[600], p[700];
	snprintf(bin, sizeof(bin), "%s/bin1", dir);
	snprintf(home, sizeof(home), "%s/cuda", dir);
	mkdir(bin, 0755);
	snprintf(p, sizeof(p), "%s/compute-sanitizer", bin);
	t_write(p, "#!/bin/sh\nexit 0\n");
	chmod(p, 0755);
	char path[1400];
	snprintf(path, sizeof(path), "/nonexistent:%s", bin);
	setenv("PATH", path, 1);
	CHECK(rung_sanitizer_find(buf, sizeof(buf)));
	CHECK_STR(buf, p);
	/* not executable: skipped */
	chmod(p, 0644);
	CHECK_INT(rung_sanitizer_find(buf, sizeof(buf)), system_one);
	/* $CUDA_HOME/bin */
	snprintf(p, sizeof(p), "%s/bin/compute-sanitizer", home);
	t_write(p, "#!/bin/sh\nexit 0\n");
	chmod(p, 0755);
	setenv("CUDA_HOME", home, 1);
	CHECK(rung_sanitizer_find(buf, sizeof(buf)));
	CHECK_STR(buf, p);
	/* the override: a path as it is, or none */
	setenv("RUNG_COMPUTE_SANITIZER", "none", 1);
	CHECK(!rung_sanitizer_find(buf, sizeof(buf)));
	setenv("RUNG_COMPUTE_SANITIZER", "/nonexistent/compute-sanitizer", 1);
	CHECK(!rung_sanitizer_find(buf, sizeof(buf)));
	setenv("RUNG_COMPUTE_SANITIZER", p, 1);
	CHECK(rung_sanitizer_find(buf, sizeof(buf)));
	CHECK_STR(buf, p);
	unsetenv("RUNG_COMPUTE_SANITIZER");
}

static void t_argv(void)
{
	const char *argv[16];
	char store[16];
	int n = rung_sanitize_argv(argv, 16, store, sizeof(store), "/opt/cuda/bin/compute-sanitizer", RUNG_SAN_RACECHECK,
				   "/tmp/rung-sanitize-AbC123", 100);
	CHECK_INT(n, 9);
	const char *want[] = {"/opt/cuda/bin/compute-sanitizer", "--tool", "racecheck", "--target-processes", "all",
			      "--log-file", "/tmp/rung-sanitize-AbC123", "--print-limit", "100"};
	for (int i = 0; i < 9 && i < n; i++)
		CHECK_STR(argv[i], want[i]);
	CHECK(argv[n] == NULL);
	/* compute-sanitizer expands %p, %q{VAR} in the log name: never given one */
	CHECK_INT(rung_sanitize_argv(argv, 16, store, sizeof(store), "cs", RUNG_SAN_MEMCHECK, "/tmp/%q{HOME}", 100), -1);
	CHECK_INT(rung_sanitize_argv(argv, 16, store, sizeof(store), "cs", (rung_san_tool)RUNG_NSAN_TOOLS, "/tmp/x", 100),
		  -1);
	CHECK_INT(rung_sanitize_argv(argv, 4, store, sizeof(store), "cs", RUNG_SAN_MEMCHECK, "/tmp/x", 100), -1);
}

/* The plan of tests/tasks/sgemm cut for the sanitizer: one shape, the one
 * with the fewest elements, one seed. */
static void t_plan_smallest(void)
{
	rung_spec *spec = NULL;
	CHECK_INT(rung_spec_load(&spec, RUNG_TEST_DIR "/tasks/sgemm"), 0);
	if (!spec)
		return;
	rung_launch kl;
	memset(&kl, 0, sizeof(kl));
	char *src = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/sgemm.cu", NULL);
	CHECK(rung_launch_from_source(&kl, spec, src, "sgemm.cu") >= 0);
	rung_plan *p = malloc(sizeof(*p));
	CHECK_INT(rung_plan_build(p, spec, &kl, &kl, 7), 0);
	CHECK_INT(p->nshapes, 2); /* M=127,N=65,K=33, then the benchmark shape 256x256x128 */
	int best = -1;
	double best_n = 0;
	for (int s = 0; s < p->nshapes; s++) {
		double n = 0;
		for (int i = 0; i < p->nargs; i++)
			if (p->args[i].kind != RUNG_ARG_SCALAR)
				n += (double)p->shapes[s].numel[i];
		if (best < 0 || n < best_n)
			best = s, best_n = n;
	}
	rung_dimset want = p->shapes[best].dims;
	uint64_t seed0 = p->seeds[0];
	CHECK_INT(best, 0);
	CHECK_INT(rung_plan_sanitize(p), best);
	CHECK_INT(p->nshapes, 1);
	CHECK_INT(p->nseeds, 1);
	CHECK(p->seeds[0] == seed0);
	char a[256], b[256];
	rung_dimset_format(a, sizeof(a), &p->shapes[0].dims);
	rung_dimset_format(b, sizeof(b), &want);
	CHECK_STR(a, b);
	free(p);
	free(src);
	rung_launch_clear(&kl);
	rung_spec_free(spec);
}

#define HELLO_OK "printf '%s\\n' '{\"type\":\"hello\",\"proto\":1,\"ok\":true,\"env\":{\"valid\":true,\"gpu\":\"Fake GPU\",\"arch\":\"sm_90\",\"sms\":3}}' >&0\n"

/* A worker that saves the job header, answers with a passing run and check,
 * and waits for the end of its input. */
static const char *fake_worker(void)
{
	char body[2048];
	snprintf(body, sizeof(body),
		 "#!/bin/sh\n%s"
		 "IFS= read -r line\n"
		 "printf '%%s\\n' \"$line\" > %s/job.json\n"
		 "res='{\"steps\":{\"run\":{\"status\":\"ok\"},\"check\":{\"status\":\"ok\"},\"bench\":{\"status\":\"SKIPPED\","
		 "\"reason\":\"not requested\"}},\"metrics\":[{\"output\":\"c\",\"n\":1000,\"pass\":true}],\"nshapes\":1,"
		 "\"nseeds\":1}'\n"
		 "printf '{\"type\":\"result\",\"fatal\":false,\"blobs\":[%%d]}\\n%%s' ${#res} \"$res\" >&0\n"
		 "cat > /dev/null\n",
		 HELLO_OK, dir);
	return write_exec("worker.sh", body);
}

/* compute-sanitizer stand-in: records its argv, copies DIR/<tool>.log to
 * the --log-file, runs the rest of the command line (the worker). */
static const char *fake_sanitizer(void)
{
	char body[2048];
	snprintf(body, sizeof(body),
		 "#!/bin/sh\n"
		 "printf '%%s\\n' \"$0\" \"$@\" >> %s/argv.txt\n"
		 "echo --- >> %s/argv.txt\n"
		 "while [ $# -gt 0 ]; do\n"
		 "  case \"$1\" in\n"
		 "    --tool) tool=$2; shift 2;;\n"
		 "    --log-file) log=$2; shift 2;;\n"
		 "    --target-processes|--print-limit) shift 2;;\n"
		 "    *) break;;\n"
		 "  esac\n"
		 "done\n"
		 "cat %s/$tool.log > \"$log\"\n"
		 "\"$@\"\n",
		 dir, dir, dir);
	return write_exec("compute-sanitizer", body);
}

typedef struct {
	rung_spec *spec;
	char *src;
	rung_job job;
	rung_compiled kc, rc;
	rung_result r;
} vers;

/* tests/faults/good compiled, with a result holding its compile rung. */
static int vers_open(vers *v)
{
	memset(v, 0, sizeof(*v));
	if (rung_spec_load(&v->spec, RUNG_TEST_DIR "/faults/good"))
		return -1;
	v->src = t_slurp(RUNG_TEST_DIR "/faults/good/kernel.cu", NULL);
	v->job = (rung_job){.spec = v->spec, .kernel_src = v->src, .kernel_file = "kernel.cu", .ref_file = "reference.cu",
			    .seed = 11, .seed_set = true};
	int rc = t_app_compile(&v->r, &v->kc, &v->rc, &v->job, "sm_90");
	return rc == 0 ? 0 : -1;
}

static void vers_close(vers *v)
{
	rung_result_clear(&v->r);
	rung_compiled_clear(&v->kc);
	rung_compiled_clear(&v->rc);
	free(v->src);
	rung_spec_free(v->spec);
}

static int count_logs(void)
{
	int n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)))
		n += !strncmp(e->d_name, "rung-sanitize-", 14);
	if (d)
		closedir(d);
	return n;
}

static void t_rung_with_fakes(void)
{
	const char *cs = fake_sanitizer();
	const char *wk = fake_worker();
	/* one run per tool at the check shape here (t_bench_shape: the second one) */
	setenv("RUNG_SANITIZE_BENCH_LIMIT", "0", 1);
	setenv("RUNG_COMPUTE_SANITIZER", cs, 1);
	setenv("RUNG_WORKER_EXE", wk, 1);
	setenv("TMPDIR", dir, 1);
	fixture_as("memcheck_oob.txt", "memcheck");
	fixture_as("racecheck_clean.txt", "racecheck");
	char argv_path[600];
	snprintf(argv_path, sizeof(argv_path), "%s/argv.txt", dir);
	unlink(argv_path);
	vers v;
	CHECK_INT(vers_open(&v), 0);
	CHECK_INT(rung_sanitize_version(&v.r, &v.job, &v.kc, &v.rc, RUNG_SAN_DEFAULT, NULL, NULL), 0);
	const rung_step *st = &v.r.steps[RUNG_STEP_SANITIZE];
	CHECK_INT(st->status, RUNG_S_FAILED);
	CHECK_STR(st->reason, "memcheck: invalid __global__ read of size 4 bytes at kernel.cu:6 in vadd by thread (232,0,0) "
			      "in block (3,0,0): address 0x7f3c7f2ff000 is out of bounds (2 reports)");
	CHECK_INT(v.r.sanitize_tools, RUNG_SAN_DEFAULT);
	CHECK(v.r.nsanitize >= 3);
	CHECK(isfinite(st->wall_ms) && st->wall_ms >= 0);

	/* the command lines rung ran: its own strings only, one run per tool */
	char *args = t_slurp(argv_path, NULL);
	CHECK(args != NULL);
	char want[8192];
	char log_prefix[700];
	snprintf(log_prefix, sizeof(log_prefix), "%s/rung-sanitize-", dir);
	const char *tools[] = {"memcheck", "racecheck"};
	const char *p = args;
	for (int t = 0; t < 2 && p; t++) {
		snprintf(want, sizeof(want), "%s\n--tool\n%s\n--target-processes\nall\n--log-file\n%s", cs, tools[t],
			 log_prefix);
		CHECK(!strncmp(p, want, strlen(want)));
		const char *q = p + strlen(want);
		q = strchr(q, '\n');
		snprintf(want, sizeof(want), "\n--print-limit\n100\n%s\nworker\n--socket\n--connect\n", wk);
		CHECK(q && !strncmp(q, want, strlen(want)));
		/* then the private socket path the parent listens on */
		const char *sock = q ? q + strlen(want) : NULL;
		CHECK(sock && strstr(sock, "/rung-worker-") && strstr(sock, "/w.sock\n---\n"));
		q = sock ? strstr(sock, "\n---\n") : NULL;
		p = q ? q + 5 : NULL;
	}
	CHECK(p && !*p);
	free(args);
	/* nothing left behind */
	CHECK_INT(count_logs(), 0);

	/* the job: the smallest check shape (N=1000, not the benchmark's 4096), one seed, no bench */
	char jpath[600];
	snprintf(jpath, sizeof(jpath), "%s/job.json", dir);
	char *text = t_slurp(jpath, NULL);
	json_t *j = text ? json_loads(text, 0, NULL) : NULL;
	rung_plan *plan = malloc(sizeof(*plan));
	CHECK_INT(rung_plan_from_json(plan, j), 0);
	CHECK_INT(plan->nshapes, 1);
	CHECK_INT(plan->shapes[0].numel[2], 1000);
	CHECK_INT(plan->nseeds, 1);
	CHECK(plan->seeds[0] == rung_seed_derive(11, 0));
	CHECK(plan->flags & RUNG_JOB_NO_BENCH);
	CHECK(plan->flags & RUNG_JOB_SANITIZE);
	free(plan);
	json_decref(j);
	free(text);

	/* one tool more on that result: its findings join the earlier ones */
	fixture_as("clean.txt", "synccheck");
	CHECK_INT(rung_sanitize_version(&v.r, &v.job, &v.kc, &v.rc, RUNG_SAN_BIT(RUNG_SAN_SYNCCHECK), NULL, NULL), 0);
	CHECK_INT(v.r.sanitize_tools, RUNG_SAN_DEFAULT | RUNG_SAN_BIT(RUNG_SAN_SYNCCHECK));
	CHECK_INT(st->status, RUNG_S_FAILED);
	CHECK_CONTAINS(st->reason, "memcheck: invalid __global__ read of size 4 bytes at kernel.cu:6");

	/* a race in a kernel of neither name is the candidate's (nothing else ran) */
	v.r.steps[RUNG_STEP_SANITIZE].status = RUNG_S_NONE; /* a fresh result */
	fixture_as("racecheck_analysis.txt", "racecheck");
	CHECK_INT(rung_sanitize_version(&v.r, &v.job, &v.kc, &v.rc, RUNG_SAN_BIT(RUNG_SAN_RACECHECK), NULL, NULL), 0);
	CHECK_INT(st->status, RUNG_S_FAILED);
	CHECK_STR(st->reason, "racecheck: race between read at k.cu:10 and write at k.cu:13 (25776 hazards)");
	CHECK_INT(v.r.sanitize_tools, RUNG_SAN_BIT(RUNG_SAN_RACECHECK));

	/* a clean report from both: ok, with the tools named */
	v.r.steps[RUNG_STEP_SANITIZE].status = RUNG_S_NONE;
	fixture_as("racecheck_clean.txt", "racecheck");
	fixture_as("clean.txt", "memcheck");
	CHECK_INT(rung_sanitize_version(&v.r, &v.job, &v.kc, &v.rc, RUNG_SAN_DEFAULT, NULL, NULL), 0);
	CHECK_INT(st->status, RUNG_S_OK);
	CHECK_STR(st->reason, "no findings (memcheck, racecheck); 1 host-side report (rung's own CUDA calls) not counted");

	/* the tool complains, or writes no summary: never a pass */
	fixture_as("tool_error.txt", "memcheck");
	CHECK_INT(rung_sanitize_version(&v.r, &v.job, &v.kc, &v.rc, RUNG_SAN_BIT(RUNG_SAN_MEMCHECK), NULL, NULL), 0);
	CHECK_INT(st->status, RUNG_S_FAILED);
	CHECK_STR(st->reason, "memcheck: compute-sanitizer failed: Error: Target application terminated before first "
			      "instrumented API call");
	fixture_as("", "memcheck");
	CHECK_INT(rung_sanitize_version(&v.r, &v.job, &v.kc, &v.rc, RUNG_SAN_BIT(RUNG_SAN_MEMCHECK), NULL, NULL), 0);
	CHECK_INT(st->status, RUNG_S_FAILED);
	CHECK_STR(st->reason, "memcheck: no report (compute-sanitizer ended without its summary: exit status 0)");
	CHECK_INT(count_logs(), 0);

	/* no compute-sanitizer: SKIPPED with where it was looked for */
	setenv("RUNG_COMPUTE_SANITIZER", "none", 1);
	CHECK_INT(rung_sanitize_version(&v.r, &v.job, &v.kc, &v.rc, RUNG_SAN_DEFAULT, NULL, NULL), 0);
	CHECK_INT(st->status, RUNG_S_SKIPPED);
	CHECK_STR(st->reason, "compute-sanitizer not found (looked in PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)");
	CHECK_INT(v.r.sanitize_tools, 0);
	CHECK_INT(rung_result_status(&v.r), RUNG_S_SKIPPED); /* not a pass */
	setenv("RUNG_COMPUTE_SANITIZER", "/nonexistent/cs", 1);
	CHECK_INT(rung_sanitize_version(&v.r, &v.job, &v.kc, &v.rc, RUNG_SAN_DEFAULT, NULL, NULL), 0);
	CHECK_INT(st->status, RUNG_S_SKIPPED);
	CHECK_CONTAINS(st->reason, "$RUNG_COMPUTE_SANITIZER");

	/* no device: SKIPPED with the worker's reason */
	setenv("RUNG_COMPUTE_SANITIZER", cs, 1);
	const char *nodev = write_exec("nodev.sh", "#!/bin/sh\nprintf '%s\\n' '{\"type\":\"hello\",\"proto\":1,\"ok\":false,"
						   "\"reason\":\"no CUDA driver found (libcuda.so.1)\"}' >&0\n");
	setenv("RUNG_WORKER_EXE", nodev, 1);
	CHECK_INT(rung_sanitize_version(&v.r, &v.job, &v.kc, &v.rc, RUNG_SAN_DEFAULT, NULL, NULL), 0);
	CHECK_INT(st->status, RUNG_S_SKIPPED);
	CHECK_STR(st->reason, "no CUDA driver found (libcuda.so.1)");
	CHECK_INT(count_logs(), 0);
	unsetenv("RUNG_WORKER_EXE");
	unsetenv("RUNG_COMPUTE_SANITIZER");
	vers_close(&v);
}

static int count_runs(const char *argv_path)
{
	char *args = t_slurp(argv_path, NULL);
	int n = 0;
	for (const char *p = args; p && (p = strstr(p, "\n---\n")); p += 5)
		n++;
	free(args);
	return n;
}

/* The second run of each tool, at the benchmark shape (#25 item 2): its job
 * is the benchmark shape only, one seed, normal inputs; its cost is recorded
 * per tool, and it is left out where the verdict is FAILED already or the
 * limit is 0. */
static void t_bench_shape(void)
{
	const char *cs = fake_sanitizer();
	const char *wk = fake_worker();
	setenv("RUNG_COMPUTE_SANITIZER", cs, 1);
	setenv("RUNG_WORKER_EXE", wk, 1);
	setenv("TMPDIR", dir, 1);
	unsetenv("RUNG_SANITIZE_BENCH_LIMIT");
	CHECK(rung_sanitize_bench_limit_s() == RUNG_SANITIZE_BENCH_LIMIT_S);
	char argv_path[600];
	snprintf(argv_path, sizeof(argv_path), "%s/argv.txt", dir);
	unlink(argv_path);
	fixture_as("racecheck_clean.txt", "racecheck");
	fixture_as("memcheck_oob.txt", "memcheck");
	vers v;
	CHECK_INT(vers_open(&v), 0);
	CHECK_INT(rung_sanitize_version(&v.r, &v.job, &v.kc, &v.rc, RUNG_SAN_BIT(RUNG_SAN_RACECHECK), NULL, NULL), 0);
	const rung_step *st = &v.r.steps[RUNG_STEP_SANITIZE];
	CHECK_INT(st->status, RUNG_S_OK);
	CHECK_INT(count_runs(argv_path), 2);
	CHECK_INT(v.r.sanitize_bench[RUNG_SAN_RACECHECK], RUNG_SANB_COVERED);
	CHECK(v.r.sanitize_ms[RUNG_SAN_RACECHECK] > 0 && v.r.sanitize_bench_ms[RUNG_SAN_RACECHECK] > 0);
	CHECK(v.r.sanitize_bench_limit_s == RUNG_SANITIZE_BENCH_LIMIT_S);
	CHECK(v.r.sanitize_ms[RUNG_SAN_MEMCHECK] == 0);
	/* the last job: the benchmark shape (N=4096), one seed, normal only */
	char jpath[600];
	snprintf(jpath, sizeof(jpath), "%s/job.json", dir);
	char *text = t_slurp(jpath, NULL);
	json_t *j = text ? json_loads(text, 0, NULL) : NULL;
	rung_plan *plan = malloc(sizeof(*plan));
	CHECK_INT(rung_plan_from_json(plan, j), 0);
	CHECK_INT(plan->nshapes, 1);
	CHECK_INT(plan->shapes[0].numel[2], 4096);
	CHECK_INT(plan->nseeds, 1);
	CHECK_INT(plan->ndists, 1);
	CHECK(plan->flags & RUNG_JOB_SANITIZE);
	CHECK(plan->flags & RUNG_JOB_SANITIZE_BENCH);
	CHECK(plan->flags & RUNG_JOB_NO_BENCH);
	free(plan);
	json_decref(j);
	free(text);
	/* the record keeps it: through the result JSON and back */
	char *rj = rung_result_to_json(&v.r);
	rung_result back;
	rung_result_init(&back);
	CHECK(rj != NULL);
	CHECK_INT(rung_result_from_json(&back, rj ? rj : "{}"), 0);
	CHECK_INT(back.sanitize_bench[RUNG_SAN_RACECHECK], RUNG_SANB_COVERED);
	CHECK(back.sanitize_bench_ms[RUNG_SAN_RACECHECK] > 0);
	CHECK(back.sanitize_bench_limit_s == RUNG_SANITIZE_BENCH_LIMIT_S);
	rung_result_clear(&back);
	free(rj);

	/* a finding at the check shape: FAILED already, no second run */
	unlink(argv_path);
	v.r.steps[RUNG_STEP_SANITIZE].status = RUNG_S_NONE;
	CHECK_INT(rung_sanitize_version(&v.r, &v.job, &v.kc, &v.rc, RUNG_SAN_BIT(RUNG_SAN_MEMCHECK), NULL, NULL), 0);
	CHECK_INT(st->status, RUNG_S_FAILED);
	CHECK_INT(count_runs(argv_path), 1);
	CHECK_INT(v.r.sanitize_bench[RUNG_SAN_MEMCHECK], RUNG_SANB_NOT_NEEDED);

	/* limit 0: not run there, and recorded so */
	unlink(argv_path);
	setenv("RUNG_SANITIZE_BENCH_LIMIT", "0", 1);
	v.r.steps[RUNG_STEP_SANITIZE].status = RUNG_S_NONE;
	CHECK_INT(rung_sanitize_version(&v.r, &v.job, &v.kc, &v.rc, RUNG_SAN_BIT(RUNG_SAN_RACECHECK), NULL, NULL), 0);
	CHECK_INT(st->status, RUNG_S_OK);
	CHECK_INT(count_runs(argv_path), 1);
	CHECK_INT(v.r.sanitize_bench[RUNG_SAN_RACECHECK], RUNG_SANB_OFF);
	setenv("RUNG_SANITIZE_BENCH_LIMIT", "junk", 1);
	CHECK(rung_sanitize_bench_limit_s() == RUNG_SANITIZE_BENCH_LIMIT_S);
	unsetenv("RUNG_SANITIZE_BENCH_LIMIT");
	unsetenv("RUNG_WORKER_EXE");
	unsetenv("RUNG_COMPUTE_SANITIZER");
	vers_close(&v);
}

/* A worker that hangs under the wrapper: the deadline kill takes the whole
 * process group, the worker included, and the rung says the run stopped. */
static void t_deadline_kills_the_group(void)
{
	const char *cs = fake_sanitizer();
	char body[1024];
	snprintf(body, sizeof(body), "#!/bin/sh\n%secho $$ > %s/worker.pid\nexec sleep 60\n", HELLO_OK, dir);
	const char *wk = write_exec("hang.sh", body);
	setenv("RUNG_COMPUTE_SANITIZER", cs, 1);
	setenv("RUNG_WORKER_EXE", wk, 1);
	setenv("RUNG_DEADLINE", "1", 1);
	setenv("TMPDIR", dir, 1);
	fixture_as("clean.txt", "memcheck");
	vers v;
	CHECK_INT(vers_open(&v), 0);
	CHECK_INT(rung_sanitize_version(&v.r, &v.job, &v.kc, &v.rc, RUNG_SAN_BIT(RUNG_SAN_MEMCHECK), NULL, NULL), 0);
	const rung_step *st = &v.r.steps[RUNG_STEP_SANITIZE];
	CHECK_INT(st->status, RUNG_S_FAILED);
	CHECK_STR(st->reason, "memcheck: the sanitized run stopped (run: killed at deadline after 1.0 s (kernel never "
			      "finished?))");
	char ppath[600];
	snprintf(ppath, sizeof(ppath), "%s/worker.pid", dir);
	char *pid_text = t_slurp(ppath, NULL);
	CHECK(pid_text != NULL);
	pid_t pid = pid_text ? (pid_t)atoi(pid_text) : 0;
	free(pid_text);
	/* gone (or a zombie waiting for init) within a few seconds */
	bool gone = false;
	for (int i = 0; i < 200 && pid > 0 && !gone; i++) {
		char spath[64], *stat_text;
		snprintf(spath, sizeof(spath), "/proc/%d/stat", (int)pid);
		stat_text = t_slurp(spath, NULL);
		const char *rp = stat_text ? strrchr(stat_text, ')') : NULL;
		gone = !stat_text || (rp && rp[1] == ' ' && rp[2] == 'Z');
		free(stat_text);
		if (!gone) {
			struct timespec ts = {0, 20 * 1000000};
			nanosleep(&ts, NULL);
		}
	}
	CHECK(gone);
	if (!gone && pid > 0)
		kill(pid, SIGKILL);
	CHECK_INT(count_logs(), 0);
	unsetenv("RUNG_DEADLINE");
	unsetenv("RUNG_WORKER_EXE");
	unsetenv("RUNG_COMPUTE_SANITIZER");
	vers_close(&v);
}

int main(void)
{
	dir = t_tmpdir();
	char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	T_RUN(t_find);
	if (path)
		setenv("PATH", path, 1);
	free(path);
	unsetenv("CUDA_HOME");
	T_RUN(t_argv);
	T_RUN(t_plan_smallest);
	T_RUN(t_rung_with_fakes);
	T_RUN(t_bench_shape);
	T_RUN(t_deadline_kills_the_group);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return t_done();
}

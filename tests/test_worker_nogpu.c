/* The worker machinery without a GPU: protocol framing round trips (blobs,
 * deadline, end of stream, malformed frames), the job plan built from a real
 * spec and its JSON round trip, the parent's handling of a worker that hangs,
 * crashes or says "no device" (fake workers written as shell scripts), and
 * `rung check` on this machine: compile works, GPU rungs are SKIPPED, exit 4. */
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/err.h"
#include "core/rng.h"
#include "gpu/compile.h"
#include "gpu/cubin.h"
#include "gpu/plan.h"
#include "gpu/protocol.h"
#include "gpu/worker.h"
#include "harness.h"

/* --- framing ------------------------------------------------------------------ */

static void test_frame_roundtrip_with_blobs(void)
{
	int sv[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	size_t big = 3u << 20; /* larger than the socket buffer: the writer must be concurrent */
	pid_t pid = fork();
	if (pid == 0) {
		close(sv[0]);
		unsigned char *b = malloc(big);
		for (size_t i = 0; i < big; i++)
			b[i] = (unsigned char)(i * 7 + 3);
		json_t *h = json_pack("{s:s,s:i}", "type", "job", "x", 42);
		rung_blob blobs[3] = {{b, big}, {"", 0}, {"hello\nworld", 11}};
		int rc = rung_msg_write(sv[1], h, blobs, 3);
		json_t *h2 = json_pack("{s:s}", "type", "quit");
		rc |= rung_msg_write(sv[1], h2, NULL, 0);
		_exit(rc ? 1 : 0);
	}
	close(sv[1]);
	rung_chan ch;
	rung_chan_init(&ch, sv[0]);
	rung_msg m;
	CHECK_INT(rung_msg_read(&m, &ch, rung_proto_now_ms() + 10000), 0);
	CHECK_STR(m.type, "job");
	CHECK_INT(json_integer_value(json_object_get(m.json, "x")), 42);
	CHECK_INT(m.nblobs, 3);
	CHECK_INT(m.blobs[0].len, big);
	bool same = true;
	const unsigned char *d = m.blobs[0].data;
	for (size_t i = 0; i < big && same; i++)
		same = d[i] == (unsigned char)(i * 7 + 3);
	CHECK(same);
	CHECK_INT(m.blobs[1].len, 0);
	CHECK_INT(m.blobs[2].len, 11);
	CHECK_STR((const char *)m.blobs[2].data, "hello\nworld");
	rung_msg_free(&m);
	CHECK_INT(rung_msg_read(&m, &ch, -1), 0);
	CHECK_STR(m.type, "quit");
	CHECK_INT(m.nblobs, 0);
	rung_msg_free(&m);
	/* then end of stream */
	CHECK_INT(rung_msg_read(&m, &ch, rung_proto_now_ms() + 5000), RUNG_EIO);
	CHECK_CONTAINS(rung_error_last(), "end of stream");
	int st;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	rung_chan_free(&ch);
	close(sv[0]);
}

static void test_frame_deadline(void)
{
	int sv[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	/* half a line, never finished */
	CHECK(write(sv[1], "{\"type\":\"pro", 12) == 12);
	rung_chan ch;
	rung_chan_init(&ch, sv[0]);
	rung_msg m;
	int64_t t0 = rung_proto_now_ms();
	CHECK_INT(rung_msg_read(&m, &ch, t0 + 150), RUNG_ETIMEOUT);
	int64_t dt = rung_proto_now_ms() - t0;
	CHECK(dt >= 140 && dt < 2000);
	rung_chan_free(&ch);
	close(sv[0]);
	close(sv[1]);
}

static void test_frame_malformed(void)
{
	const char *bad[] = {"not json\n", "[1,2]\n", "{\"x\":1}\n", "{\"type\":\"a\",\"blobs\":[-1]}\n",
			     "{\"type\":\"a\",\"blobs\":\"x\"}\n"};
	const char *want[] = {"malformed header", "not an object", "without a type", "bad blob size", "bad \"blobs\""};
	for (int i = 0; i < 5; i++) {
		int sv[2];
		CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
		CHECK(write(sv[1], bad[i], strlen(bad[i])) == (ssize_t)strlen(bad[i]));
		rung_chan ch;
		rung_chan_init(&ch, sv[0]);
		rung_msg m;
		CHECK_INT(rung_msg_read(&m, &ch, rung_proto_now_ms() + 2000), RUNG_EIO);
		CHECK_CONTAINS(rung_error_last(), want[i]);
		rung_chan_free(&ch);
		close(sv[0]);
		close(sv[1]);
	}
	/* a blob cut short by end of stream */
	int sv[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	const char *s = "{\"type\":\"result\",\"blobs\":[10]}\nabc";
	CHECK(write(sv[1], s, strlen(s)) == (ssize_t)strlen(s));
	close(sv[1]);
	rung_chan ch;
	rung_chan_init(&ch, sv[0]);
	rung_msg m;
	CHECK_INT(rung_msg_read(&m, &ch, rung_proto_now_ms() + 2000), RUNG_EIO);
	CHECK_CONTAINS(rung_error_last(), "end of stream");
	rung_chan_free(&ch);
	close(sv[0]);
}

/* A header that announces blobs of 4 GiB and then ends: the reader must not
 * allocate what was announced before the bytes arrive (issue item 5). Run in a
 * child whose address space is capped 256 MiB above what it already maps, so an
 * up-front malloc of 4 GiB fails (ENOMEM, or an ASan abort), while reading as
 * the data come needs only a little. */
static void test_frame_announced_size_not_allocated(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		int sv[2];
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
			_exit(2);
		const char *s = "{\"type\":\"job\",\"blobs\":[4294967296,4294967296]}\n0123456789";
		if (write(sv[1], s, strlen(s)) != (ssize_t)strlen(s))
			_exit(2);
		close(sv[1]);
		unsigned long pages = 0;
		FILE *f = fopen("/proc/self/statm", "r");
		if (!f || fscanf(f, "%lu", &pages) != 1)
			_exit(2);
		fclose(f);
		struct rlimit rl;
		rl.rlim_cur = rl.rlim_max = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (256u << 20);
		if (setrlimit(RLIMIT_AS, &rl) != 0)
			_exit(2);
		rung_chan ch;
		rung_chan_init(&ch, sv[0]);
		rung_msg m;
		int rc = rung_msg_read(&m, &ch, rung_proto_now_ms() + 5000);
		const char *why = rung_error_last();
		if (rc != RUNG_EIO || !strstr(why, "end of stream")) {
			fprintf(stderr, "rung_msg_read: %d %s\n", rc, why);
			_exit(1);
		}
		rung_chan_free(&ch);
		_exit(0);
	}
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* --- plan ------------------------------------------------------------------ */

static void test_plan_from_sgemm_spec(void)
{
	rung_spec *spec = NULL;
	CHECK_INT(rung_spec_load(&spec, RUNG_TEST_DIR "/tasks/sgemm"), 0);
	if (!spec)
		return;
	char *src = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/sgemm.cu", NULL);
	rung_launch kl, rl;
	CHECK_INT(rung_launch_from_source(&kl, spec, src, "sgemm.cu"), 1);
	CHECK_INT(rung_launch_from_source(&rl, spec, "// no launch line", "reference.cu"), 0);
	rung_plan *p = malloc(sizeof(*p)), *q = malloc(sizeof(*q));
	CHECK_INT(rung_plan_build(p, spec, &kl, &rl, 0x1234), 0);
	/* one [check] set (M=127,N=65,K=33) then the benchmark shape */
	CHECK_INT(p->nshapes, 2);
	CHECK(!p->shapes[0].bench);
	CHECK(p->shapes[1].bench);
	int64_t v;
	CHECK_INT(rung_dimset_get(&v, &p->shapes[0].dims, "N"), 0);
	CHECK_INT(v, 65);
	/* args: M N K scalars, A (M,K), B (K,N), C (M,N) */
	CHECK_INT(p->nargs, 6);
	CHECK_STR(p->args[5].name, "C");
	CHECK_INT(p->args[5].kind, RUNG_ARG_OUTPUT);
	CHECK_INT(p->shapes[0].ival[0], 127);
	CHECK_INT(p->shapes[0].ival[2], 33);
	CHECK_INT(p->shapes[0].rank[3], 2);
	CHECK_INT(p->shapes[0].extent[3][0], 127);
	CHECK_INT(p->shapes[0].extent[3][1], 33);
	CHECK_INT(p->shapes[0].numel[5], 127 * 65);
	CHECK_INT(p->shapes[1].numel[5], 256 * 256);
	/* grid = cdiv(N,32), cdiv(M,32); block 32x32 */
	CHECK_INT(p->shapes[0].geom.grid[0], 3);
	CHECK_INT(p->shapes[0].geom.grid[1], 4);
	CHECK_INT(p->shapes[1].geom.grid[0], 8);
	CHECK_INT(p->shapes[1].geom.block[1], 32);
	CHECK_INT(p->shapes[1].ref_geom.grid[0], 8);
	CHECK_INT(p->nseeds, 2);
	CHECK(p->seeds[0] == rung_seed_derive(0x1234, 0));
	CHECK(p->seeds[1] == rung_seed_derive(0x1234, 1));
	CHECK(p->has_atol && p->has_rtol && !p->has_min_psnr);
	CHECK_NEAR(p->flops, 2.0 * 256 * 256 * 128, 0);
	CHECK_NEAR(p->bytes, 4.0 * (256 * 128 + 128 * 256 + 256 * 256), 0);
	CHECK_INT(rung_plan_first_output(p), 5);

	snprintf(p->kernel.lowered, sizeof(p->kernel.lowered), "_Z5sgemmILi32EEviiiPKfS1_Pf");
	p->budget_s = 0.75;
	p->flags = 2;
	json_t *j = rung_plan_to_json(p);
	char *text = json_dumps(j, JSON_COMPACT);
	json_t *j2 = json_loads(text, 0, NULL);
	CHECK_INT(rung_plan_from_json(q, j2), 0);
	CHECK_STR(q->kernel.lowered, "_Z5sgemmILi32EEviiiPKfS1_Pf");
	CHECK_STR(q->kernel.name, "sgemm<32>");
	CHECK_STR(q->ref.name, "sgemm_ref");
	CHECK(q->has_ref);
	CHECK_INT(q->nshapes, 2);
	CHECK_INT(q->nargs, 6);
	CHECK(q->seeds[1] == p->seeds[1]);
	CHECK(q->base_seed == 0x1234);
	CHECK_NEAR(q->atol, p->atol, 0);
	CHECK_NEAR(q->flops, p->flops, 0);
	CHECK_NEAR(q->budget_s, 0.75, 0);
	CHECK_INT(q->flags, 2);
	bool same = true;
	for (int s = 0; s < 2; s++) {
		same = same && q->shapes[s].bench == p->shapes[s].bench &&
		       memcmp(&q->shapes[s].geom, &p->shapes[s].geom, sizeof(rung_geom)) == 0 &&
		       memcmp(q->shapes[s].numel, p->shapes[s].numel, sizeof(p->shapes[s].numel)) == 0 &&
		       memcmp(q->shapes[s].ival, p->shapes[s].ival, sizeof(p->shapes[s].ival)) == 0 &&
		       q->shapes[s].dims.n == p->shapes[s].dims.n;
	}
	CHECK(same);
	/* a damaged plan is refused with a message */
	json_object_set_new(j2, "shapes", json_integer(3));
	CHECK_INT(rung_plan_from_json(q, j2), RUNG_EIO);
	CHECK_CONTAINS(rung_error_last(), "malformed job (shapes)");
	json_decref(j);
	json_decref(j2);
	free(text);
	free(p);
	free(q);
	free(src);
	rung_launch_free(&kl);
	rung_launch_free(&rl);
	rung_spec_free(spec);
}

static const char *vadd_ini = "[task]\nname = v\nkernel = k.cu\nentry = vadd\nreference = r.cu\nreference_entry = vadd\n"
			      "[dims]\nN = 4096\nB = 1\n"
			      "[arg a]\nkind = input\ndtype = f32\nshape = N\n"
			      "[arg c]\nkind = output\ndtype = f32\nshape = N\n"
			      "[arg n]\nkind = scalar\ndtype = i32\nvalue = N\n"
			      "[arg s]\nkind = scalar\ndtype = f32\nvalue = 0.5\n"
			      "[launch]\ngrid = cdiv(N,256)\nblock = 256\n";

static void test_plan_odd_shape(void)
{
	rung_spec *spec = NULL;
	CHECK_INT(rung_spec_parse(&spec, vadd_ini, "rung.ini", "."), 0);
	if (!spec)
		return;
	rung_plan *p = malloc(sizeof(*p));
	CHECK_INT(rung_plan_build(p, spec, &spec->launch, &spec->launch, 7), 0);
	/* no [check] sizes: one odd shape (every dim minus 1, at least 1), then the benchmark */
	CHECK_INT(p->nshapes, 2);
	int64_t v;
	rung_dimset_get(&v, &p->shapes[0].dims, "N");
	CHECK_INT(v, 4095);
	rung_dimset_get(&v, &p->shapes[0].dims, "B");
	CHECK_INT(v, 1);
	CHECK_INT(p->shapes[0].ival[2], 4095);
	CHECK_INT(p->shapes[0].geom.grid[0], 16);
	CHECK_NEAR(p->shapes[0].fval[3], 0.5, 0);
	CHECK_INT(p->nseeds, 3);
	CHECK(isnan(p->flops));
	free(p);
	rung_spec_free(spec);
}

/* --- the parent with fake workers ------------------------------------------- */

static const char *fake_dir;

static const char *write_fake(const char *name, const char *body)
{
	static char path[16][512];
	static int k;
	char *p = path[k++ % 16];
	snprintf(p, 512, "%s/%s", fake_dir, name);
	char text[4096];
	snprintf(text, sizeof(text), "#!/bin/sh\n%s", body);
	t_write(p, text);
	chmod(p, 0755);
	return p;
}

#define HELLO_OK "printf '%s\\n' '{\"type\":\"hello\",\"proto\":1,\"ok\":true,\"env\":{\"valid\":true,\"gpu\":\"Fake GPU\",\"arch\":\"sm_90\",\"sms\":3}}'\n"

static int eval_task(rung_result *r, rung_worker *w, double deadline)
{
	rung_spec *spec = NULL;
	int rc = rung_spec_load(&spec, RUNG_TEST_DIR "/tasks/sgemm");
	if (rc)
		return rc;
	char *src = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/sgemm.cu", NULL);
	rung_job job = {.spec = spec, .kernel_src = src, .kernel_file = "sgemm.cu", .ref_file = "reference.cu",
			.seed = 99, .seed_set = true, .deadline_s = deadline};
	rc = rung_evaluate(r, w, &job, NULL, NULL);
	free(src);
	rung_spec_free(spec);
	return rc;
}

static void test_fake_worker_hangs(void)
{
	const char *exe = write_fake("hang.sh", HELLO_OK "exec sleep 60\n");
	rung_worker_opts o = {.exe = exe};
	rung_worker *w;
	CHECK_INT(rung_worker_open(&w, &o), 0);
	rung_env env;
	CHECK_INT(rung_worker_env(&env, w), 0);
	CHECK_STR(env.gpu, "Fake GPU");
	CHECK_INT(env.sms, 3);
	rung_result r;
	int64_t t0 = rung_proto_now_ms();
	CHECK_INT(eval_task(&r, w, 0.5), 0);
	int64_t dt = rung_proto_now_ms() - t0;
	CHECK(dt < 20000);
	CHECK_INT(r.steps[RUNG_STEP_COMPILE].status, RUNG_S_OK);
	CHECK_INT(r.steps[RUNG_STEP_RUN].status, RUNG_S_FAILED);
	CHECK_STR(r.steps[RUNG_STEP_RUN].reason, "killed at deadline after 0.5 s (kernel never finished?)");
	CHECK_INT(r.steps[RUNG_STEP_CHECK].status, RUNG_S_NONE);
	CHECK(r.base_seed == 99);
	rung_result_clear(&r);
	/* the next job gets a fresh worker (which hangs again) */
	CHECK_INT(eval_task(&r, w, 0.3), 0);
	CHECK_STR(r.steps[RUNG_STEP_RUN].reason, "killed at deadline after 0.3 s (kernel never finished?)");
	rung_result_clear(&r);
	rung_worker_close(w);
}

static void test_fake_worker_crashes_in_check(void)
{
	/* reads the job header, reports progress in check, then dies of SIGSEGV */
	const char *exe = write_fake("crash.sh", HELLO_OK
				     "read line\n"
				     "printf '%s\\n' '{\"type\":\"progress\",\"step\":\"run\",\"frac\":0,\"msg\":\"M=256\"}'\n"
				     "printf '%s\\n' '{\"type\":\"progress\",\"step\":\"check\",\"frac\":0.5,\"msg\":\"M=127\"}'\n"
				     "kill -SEGV $$\n");
	rung_worker_opts o = {.exe = exe};
	rung_worker *w;
	CHECK_INT(rung_worker_open(&w, &o), 0);
	rung_result r;
	CHECK_INT(eval_task(&r, w, 10), 0);
	CHECK_INT(r.steps[RUNG_STEP_RUN].status, RUNG_S_OK);
	CHECK_INT(r.steps[RUNG_STEP_CHECK].status, RUNG_S_FAILED);
	CHECK_CONTAINS(r.steps[RUNG_STEP_CHECK].reason, "worker crashed (");
	CHECK_CONTAINS(r.steps[RUNG_STEP_CHECK].reason, "signal 11)");
	CHECK_INT(r.steps[RUNG_STEP_BENCH].status, RUNG_S_NONE);
	rung_result_clear(&r);
	rung_worker_close(w);
}

static void test_fake_worker_no_device(void)
{
	const char *exe = write_fake("nodev.sh", "printf '%s\\n' '{\"type\":\"hello\",\"proto\":1,\"ok\":false,"
					      "\"reason\":\"no CUDA driver found (libcuda.so.1)\"}'\n");
	rung_worker_opts o = {.exe = exe};
	rung_worker *w;
	CHECK_INT(rung_worker_open(&w, &o), 0);
	rung_env env;
	CHECK_INT(rung_worker_env(&env, w), RUNG_ENODEV);
	CHECK_STR(rung_error_last(), "no CUDA driver found (libcuda.so.1)");
	rung_result r;
	CHECK_INT(eval_task(&r, w, 10), 0);
	CHECK_INT(r.steps[RUNG_STEP_COMPILE].status, RUNG_S_OK);
	CHECK(r.compile.cubin_bytes > 0);
	for (int s = RUNG_STEP_RUN; s <= RUNG_STEP_BENCH; s++) {
		CHECK_INT(r.steps[s].status, RUNG_S_SKIPPED);
		CHECK_STR(r.steps[s].reason, "no CUDA driver found (libcuda.so.1)");
	}
	rung_result_clear(&r);
	rung_worker_close(w);
}

/* The job the parent sends for each fault task: captured by a fake worker and
 * parsed back as the real worker would. */
static void test_fault_jobs_reach_the_worker(void)
{
	char body[2048];
	snprintf(body, sizeof(body), "%s"
		 "IFS= read -r line\n"
		 "printf '%%s\\n' \"$line\" > %s/job.json\n"
		 "printf '%%s\\n' '{\"type\":\"error\",\"step\":\"run\",\"reason\":\"fake worker\",\"fatal\":true}'\n",
		 HELLO_OK, fake_dir);
	const char *exe = write_fake("capture.sh", body);
	rung_worker_opts o = {.exe = exe};
	rung_worker *w;
	CHECK_INT(rung_worker_open(&w, &o), 0);
	const char *faults[] = {"good", "launch_bounds", "too_much_smem", "illegal_address", "never_ends", "oob_write",
				"unwritten", "nan_output", "input_modified", "device_oom", "reference_fails"};
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
		char dir[1024], path[1200], jpath[1024];
		snprintf(dir, sizeof(dir), "%s/faults/%s", RUNG_TEST_DIR, faults[i]);
		snprintf(path, sizeof(path), "%s/kernel.cu", dir);
		snprintf(jpath, sizeof(jpath), "%s/job.json", fake_dir);
		unlink(jpath);
		rung_spec *spec = NULL;
		CHECK_INT(rung_spec_load(&spec, dir), 0);
		if (!spec)
			continue;
		char *src = t_slurp(path, NULL);
		rung_job job = {.spec = spec, .kernel_src = src, .kernel_file = "kernel.cu", .ref_file = "reference.cu",
				.seed = 5, .seed_set = true};
		rung_result r;
		CHECK_INT(rung_evaluate(&r, w, &job, NULL, NULL), 0);
		CHECK_INT(r.steps[RUNG_STEP_COMPILE].status, RUNG_S_OK);
		CHECK_INT(r.steps[RUNG_STEP_RUN].status, RUNG_S_FAILED);
		CHECK_STR(r.steps[RUNG_STEP_RUN].reason, "fake worker");
		char *text = t_slurp(jpath, NULL);
		CHECK(text != NULL);
		json_t *j = text ? json_loads(text, 0, NULL) : NULL;
		rung_plan *p = malloc(sizeof(*p));
		CHECK_INT(rung_plan_from_json(p, j), 0);
		CHECK_STR(p->kernel.name, "vadd");
		CHECK_STR(p->ref.name, "vadd_ref");
		CHECK_STR(p->kernel.lowered, "vadd"); /* extern "C" */
		CHECK_INT(p->nshapes, 2);
		CHECK_INT(p->nargs, 4);
		json_t *blobs = json_object_get(j, "blobs");
		CHECK_INT(json_array_size(blobs), 2);
		CHECK(json_integer_value(json_array_get(blobs, 0)) == (json_int_t)r.compile.cubin_bytes);
		if (!strcmp(faults[i], "device_oom")) {
			CHECK_INT(p->shapes[1].numel[2], INT64_C(68719476736));
			CHECK_INT(p->shapes[1].ival[3], INT64_C(68719476736));
			CHECK_INT(p->shapes[1].geom.grid[0], INT64_C(268435456));
		} else if (!strcmp(faults[i], "too_much_smem")) {
			CHECK_INT(p->shapes[1].geom.smem, 300000);
		} else if (!strcmp(faults[i], "launch_bounds")) {
			CHECK_INT(p->shapes[1].geom.block[0], 1024);
			CHECK_INT(p->shapes[1].ref_geom.block[0], 256); /* the reference keeps [launch] */
		} else {
			CHECK_INT(p->shapes[0].numel[2], 1000);
			CHECK_INT(p->shapes[1].numel[2], 4096);
			CHECK_INT(p->shapes[1].geom.grid[0], 16);
		}
		free(p);
		json_decref(j);
		free(text);
		free(src);
		rung_result_clear(&r);
		rung_spec_free(spec);
	}
	rung_worker_close(w);
}

static void test_exec_failure(void)
{
	rung_worker_opts o = {.exe = "/nonexistent/rung"};
	rung_worker *w;
	CHECK_INT(rung_worker_open(&w, &o), 0);
	rung_env env;
	CHECK_INT(rung_worker_env(&env, w), RUNG_EIO);
	CHECK_CONTAINS(rung_error_last(), "worker could not be started (exec failed)");
	rung_worker_close(w);
}

/* --- the real worker on this machine (no driver) ---------------------------- */

static bool have_driver(void)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (h)
		dlclose(h);
	return h != NULL;
}

static void test_real_worker_without_driver(void)
{
	if (have_driver()) {
		printf("skip %s: a CUDA driver is installed here\n", t_current);
		return;
	}
	rung_worker_opts o = {.exe = RUNG_BIN};
	rung_worker *w;
	CHECK_INT(rung_worker_open(&w, &o), 0);
	rung_env env;
	CHECK_INT(rung_worker_env(&env, w), RUNG_ENODEV);
	CHECK_STR(rung_error_last(), "no CUDA driver found (libcuda.so.1)");
	rung_result r;
	CHECK_INT(eval_task(&r, w, 10), 0);
	CHECK_INT(r.steps[RUNG_STEP_COMPILE].status, RUNG_S_OK);
	CHECK_INT(r.steps[RUNG_STEP_RUN].status, RUNG_S_SKIPPED);
	CHECK_CONTAINS(r.steps[RUNG_STEP_RUN].reason, "no CUDA driver found");
	rung_result_clear(&r);
	rung_worker_close(w);
}

static void test_rung_check_without_driver(void)
{
	if (have_driver()) {
		printf("skip %s: a CUDA driver is installed here\n", t_current);
		return;
	}
	char *out = NULL;
	int rc = t_sh(&out, "cd %s/tasks/sgemm && %s check --seed 7", RUNG_TEST_DIR, RUNG_BIN);
	CHECK_INT(rc, 4); /* RUNG_EXIT_NOGPU */
	CHECK_CONTAINS(out, "[compile] ok regs=");
	CHECK_CONTAINS(out, "[run] SKIPPED no CUDA driver found");
	CHECK_CONTAINS(out, "seed=7");
	free(out);
	rc = t_sh(&out, "cd %s/tasks/sgemm && %s check --compile-only", RUNG_TEST_DIR, RUNG_BIN);
	CHECK_INT(rc, 0);
	CHECK_CONTAINS(out, "[compile] ok");
	CHECK(!strstr(out, "[run]"));
	free(out);
	/* the worker command itself says hello with the reason, then exits */
	rc = t_sh(&out, "%s worker </dev/null", RUNG_BIN);
	CHECK_INT(rc, 0);
	CHECK_CONTAINS(out, "\"type\":\"hello\"");
	CHECK_CONTAINS(out, "no CUDA driver found (libcuda.so.1)");
	free(out);
}

/* --- compare: identical machine code needs no GPU ---------------------------- */

static void test_cubin_same_code(void)
{
	char *good = t_slurp(RUNG_TEST_DIR "/faults/good/kernel.cu", NULL);
	char *other = t_slurp(RUNG_TEST_DIR "/faults/unwritten/kernel.cu", NULL);
	CHECK(good && other);
	if (!good || !other)
		return;
	/* same code under another file name and with an extra comment line */
	size_t n = strlen(good);
	char *moved = malloc(n + 64);
	snprintf(moved, n + 64, "// a comment that moves every line\n%s", good);
	rung_compiled a, b, c;
	rung_compile_req ra = {.src = good, .file = "a.cu", .entry = "vadd"};
	rung_compile_req rb = {.src = moved, .file = "b.cu", .entry = "vadd"};
	rung_compile_req rc = {.src = other, .file = "a.cu", .entry = "vadd"};
	CHECK_INT(rung_compile(&a, &ra), 0);
	CHECK_INT(rung_compile(&b, &rb), 0);
	CHECK_INT(rung_compile(&c, &rc), 0);
	CHECK(a.cubin_len > 0 && (a.cubin_len != b.cubin_len || memcmp(a.cubin, b.cubin, a.cubin_len) != 0));
	CHECK_INT(rung_cubin_same_code(a.cubin, a.cubin_len, b.cubin, b.cubin_len), 1);
	CHECK_INT(rung_cubin_same_code(a.cubin, a.cubin_len, c.cubin, c.cubin_len), 0);
	CHECK_INT(rung_cubin_same_code(a.cubin, a.cubin_len, "not an elf at all, really not", 29), RUNG_EINVAL);
	CHECK_INT(rung_cubin_same_code(a.cubin, 100, a.cubin, a.cubin_len), RUNG_EINVAL);
	rung_compiled_free(&a);
	rung_compiled_free(&b);
	rung_compiled_free(&c);
	free(moved);
	free(good);
	free(other);
}

static void test_rung_compare_cli(void)
{
	const char *dir = t_tmpdir();
	char *out = NULL;
	CHECK_INT(t_sh(&out, "cp %s/faults/good/rung.ini %s/faults/good/reference.cu %s/ && cp %s/faults/good/kernel.cu %s/a.cu && "
			     "(echo '// v2: same code'; cat %s/faults/good/kernel.cu) > %s/b.cu && cp %s/faults/unwritten/kernel.cu %s/c.cu",
		       RUNG_TEST_DIR, RUNG_TEST_DIR, dir, RUNG_TEST_DIR, dir, RUNG_TEST_DIR, dir, RUNG_TEST_DIR, dir),
		  0);
	free(out);
	int rc = t_sh(&out, "cd %s && %s compare a.cu b.cu", dir, RUNG_BIN);
	CHECK_INT(rc, 0);
	CHECK_STR(out, "SAME identical machine code\n");
	free(out);
	if (!have_driver()) {
		rc = t_sh(&out, "cd %s && %s compare a.cu c.cu", dir, RUNG_BIN);
		CHECK_INT(rc, 4);
		CHECK_CONTAINS(out, "SKIPPED no CUDA driver found");
		free(out);
	}
	rc = t_sh(&out, "cd %s && %s compare a.cu", dir, RUNG_BIN);
	CHECK_INT(rc, 2);
	CHECK_CONTAINS(out, "needs two versions");
	free(out);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	fake_dir = t_tmpdir();
	T_RUN(test_frame_roundtrip_with_blobs);
	T_RUN(test_frame_deadline);
	T_RUN(test_frame_malformed);
	T_RUN(test_frame_announced_size_not_allocated);
	T_RUN(test_plan_from_sgemm_spec);
	T_RUN(test_plan_odd_shape);
	T_RUN(test_fake_worker_hangs);
	T_RUN(test_fake_worker_crashes_in_check);
	T_RUN(test_fake_worker_no_device);
	T_RUN(test_fault_jobs_reach_the_worker);
	T_RUN(test_exec_failure);
	T_RUN(test_real_worker_without_driver);
	T_RUN(test_rung_check_without_driver);
	T_RUN(test_cubin_same_code);
	T_RUN(test_rung_compare_cli);
	return t_done();
}

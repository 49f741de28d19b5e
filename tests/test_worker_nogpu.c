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
#include "core/inert.h"
#include "core/rng.h"
#include "core/roofline_guard.h"
#include "gpu/capture.h"
#include "gpu/compile.h"
#include "gpu/cubin.h"
#include "gpu/plan.h"
#include "gpu/protocol.h"
#include "gpu/worker.h"
#include "gitfix.h"
#include "harness.h"
#include "app_eval.h"
#include "vcs/ceil_store.h"
#include "vcs/repo.h"
#include "vcs/store.h"

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
	CHECK_INT(rung_msg_read(&m, &ch, rung_now_ms() + 10000), 0);
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
	rung_msg_clear(&m);
	CHECK_INT(rung_msg_read(&m, &ch, -1), 0);
	CHECK_STR(m.type, "quit");
	CHECK_INT(m.nblobs, 0);
	rung_msg_clear(&m);
	/* then end of stream */
	CHECK_INT(rung_msg_read(&m, &ch, rung_now_ms() + 5000), RUNG_EIO);
	CHECK_CONTAINS(rung_error_last(), "end of stream");
	int st;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	rung_chan_clear(&ch);
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
	int64_t t0 = rung_now_ms();
	CHECK_INT(rung_msg_read(&m, &ch, t0 + 150), RUNG_ETIMEOUT);
	int64_t dt = rung_now_ms() - t0;
	CHECK(dt >= 140 && dt < 2000);
	rung_chan_clear(&ch);
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
		CHECK_INT(rung_msg_read(&m, &ch, rung_now_ms() + 2000), RUNG_EIO);
		CHECK_CONTAINS(rung_error_last(), want[i]);
		rung_chan_clear(&ch);
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
	CHECK_INT(rung_msg_read(&m, &ch, rung_now_ms() + 2000), RUNG_EIO);
	CHECK_CONTAINS(rung_error_last(), "end of stream");
	rung_chan_clear(&ch);
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
		int rc = rung_msg_read(&m, &ch, rung_now_ms() + 5000);
		const char *why = rung_error_last();
		if (rc != RUNG_EIO || !strstr(why, "end of stream")) {
			fprintf(stderr, "rung_msg_read: %d %s\n", rc, why);
			_exit(1);
		}
		rung_chan_clear(&ch);
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
	CHECK(!q->nondeterministic); /* the default travels as absent */
	CHECK(!strstr(text, "nondeterministic"));
	bool same = true;
	for (int s = 0; s < 2; s++) {
		same = same && q->shapes[s].bench == p->shapes[s].bench &&
		       memcmp(&q->shapes[s].geom, &p->shapes[s].geom, sizeof(rung_geom)) == 0 &&
		       memcmp(q->shapes[s].numel, p->shapes[s].numel, sizeof(p->shapes[s].numel)) == 0 &&
		       memcmp(q->shapes[s].ival, p->shapes[s].ival, sizeof(p->shapes[s].ival)) == 0 &&
		       q->shapes[s].dims.n == p->shapes[s].dims.n;
	}
	CHECK(same);
	/* [check] deterministic = false travels to the worker */
	p->nondeterministic = true;
	json_t *jn = rung_plan_to_json(p);
	CHECK_INT(rung_plan_from_json(q, jn), 0);
	CHECK(q->nondeterministic);
	json_decref(jn);
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
	rung_launch_clear(&kl);
	rung_launch_clear(&rl);
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

/* Plan from vadd_ini (with N = n_dim when not NULL) plus extra spec text (NULL on failure; caller frees). */
static rung_plan *vadd_plan_n(const char *n_dim, const char *extra)
{
	char text[2048];
	snprintf(text, sizeof(text), "%s%s", vadd_ini, extra);
	char *n = strstr(text, "N = 4096\n");
	if (n_dim && n) {
		char rest[2048];
		snprintf(rest, sizeof(rest), "%s", n + strlen("N = 4096\n"));
		snprintf(n, sizeof(text) - (size_t)(n - text), "N = %s\n%s", n_dim, rest);
	}
	rung_spec *spec = NULL;
	if (rung_spec_parse(&spec, text, "rung.ini", ".")) {
		fprintf(stderr, "  %s\n", rung_error_last());
		return NULL;
	}
	rung_plan *p = malloc(sizeof(*p));
	if (rung_plan_build(p, spec, &spec->launch, &spec->launch, 7)) {
		fprintf(stderr, "  %s\n", rung_error_last());
		free(p);
		p = NULL;
	}
	rung_spec_free(spec);
	return p;
}

static rung_plan *vadd_plan(const char *extra)
{
	return vadd_plan_n(NULL, extra);
}

static char *plan_text(const rung_plan *p)
{
	json_t *j = rung_plan_to_json(p);
	char *t = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(j);
	return t;
}

/* [check] inputs in the plan: the distributions travel as "inputs" only when
 * there are more than normal (a spec without them gives the same job as before),
 * and rung_plan_cases is the case list docs/CHECKS.md describes. */
static void test_plan_inputs(void)
{
	rung_plan *plain = vadd_plan(""), *normal = vadd_plan("[check]\ninputs = normal\n");
	rung_plan *three = vadd_plan("[check]\ninputs = ints, normal, wide\n");
	CHECK(plain && normal && three);
	if (!plain || !normal || !three)
		return;
	char *tp = plan_text(plain), *tn = plan_text(normal), *t3 = plan_text(three);
	CHECK_STR(tp, tn);
	CHECK(!strstr(tp, "inputs"));
	json_t *jp = json_loads(tp, 0, NULL);
	const char *key;
	json_t *val;
	char keys[512] = "";
	json_object_foreach(jp, key, val) {
		strncat(keys, key, sizeof(keys) - strlen(keys) - 2);
		strcat(keys, " ");
	}
	CHECK_STR(keys, "args base_seed budget_s bytes flags flops kernel reference seeds shapes tol type ");
	json_decref(jp);
	CHECK_INT(plain->ndists, 1);
	CHECK_INT(plain->dists[0], RUNG_DIST_NORMAL);
	/* normal only: the check sets with every seed, plus the run case, in the old order */
	rung_plan_case cs[RUNG_PLAN_MAX_CASES];
	CHECK_INT(plain->nshapes, 2);
	CHECK_INT(plain->nseeds, 3);
	CHECK_INT(rung_plan_cases(plain, cs, RUNG_PLAN_MAX_CASES), 1 + 3);
	CHECK(cs[0].run && cs[0].shape == 1 && cs[0].seed == 0 && cs[0].dist == RUNG_DIST_NORMAL);
	for (int k = 0; k < 3; k++)
		CHECK(!cs[1 + k].run && cs[1 + k].shape == 0 && cs[1 + k].seed == k && cs[1 + k].dist == RUNG_DIST_NORMAL);

	/* normal, then the others as written; the round trip keeps them */
	CHECK_INT(three->ndists, 3);
	CHECK_INT(three->dists[1], RUNG_DIST_INTS);
	CHECK_INT(three->dists[2], RUNG_DIST_WIDE);
	CHECK_CONTAINS(t3, "\"inputs\":[\"normal\",\"ints\",\"wide\"]");
	rung_plan *q = malloc(sizeof(*q));
	json_t *j3 = json_loads(t3, 0, NULL);
	CHECK_INT(rung_plan_from_json(q, j3), 0);
	CHECK_INT(q->ndists, 3);
	CHECK(memcmp(q->dists, three->dists, sizeof(q->dists)) == 0);
	char *tq = plan_text(q);
	CHECK_STR(tq, t3);
	free(tq);
	/* each further distribution: every check shape with the first seed, after normal */
	int n = rung_plan_cases(three, cs, RUNG_PLAN_MAX_CASES);
	CHECK_INT(n, 1 + 3 + 2);
	CHECK(cs[4].shape == 0 && cs[4].seed == 0 && cs[4].dist == RUNG_DIST_INTS && !cs[4].run);
	CHECK(cs[5].shape == 0 && cs[5].seed == 0 && cs[5].dist == RUNG_DIST_WIDE && !cs[5].run);
	CHECK_INT(rung_plan_cases(three, NULL, 0), n); /* counting only */
	CHECK_INT(rung_plan_cases(three, cs, 2), n);   /* writes 2, still counts all */
	/* the result's count of runs agrees with the case list */
	rung_result r;
	rung_result_init(&r);
	r.nshapes = three->nshapes;
	r.nseeds = three->nseeds;
	r.ninputs = three->ndists;
	memcpy(r.inputs, three->dists, sizeof(r.inputs));
	CHECK_INT(rung_result_runs(&r), n);
	r.ninputs = 0;
	CHECK_INT(rung_result_runs(&r), rung_plan_cases(plain, NULL, 0));
	/* plans from elsewhere: normal first, known names, each once */
	const char *bad[] = { "[\"wide\"]", "[\"normal\",\"normal\"]", "[\"normal\",\"wid\"]", "[]", "\"normal\"" };
	for (int k = 0; k < 5; k++) {
		json_object_set_new(j3, "inputs", json_loads(bad[k], JSON_DECODE_ANY, NULL));
		CHECK_INT(rung_plan_from_json(q, j3), RUNG_EIO);
		CHECK_CONTAINS(rung_error_last(), "malformed job (inputs)");
	}
	json_decref(j3);
	free(q);
	free(tp);
	free(tn);
	free(t3);
	free(plain);
	free(normal);
	free(three);

	/* special: its mask travels with the plan (all six when the spec names none) */
	rung_plan *sp = vadd_plan("[check]\ninputs = normal, special\nspecial = -inf, max\n");
	rung_plan *spall = vadd_plan("[check]\ninputs = normal, special\n");
	CHECK(sp && spall);
	if (sp && spall) {
		uint32_t want = (1u << RUNG_SPECIAL_NEG_INF) | (1u << RUNG_SPECIAL_MAX);
		CHECK_INT(sp->special, want);
		CHECK_INT(spall->special, RUNG_SPECIAL_ALL);
		char *ts = plan_text(sp);
		CHECK_CONTAINS(ts, "\"special\":33");
		rung_plan *qs = malloc(sizeof(*qs));
		json_t *js = json_loads(ts, 0, NULL);
		CHECK_INT(rung_plan_from_json(qs, js), 0);
		CHECK_INT(qs->special, want);
		CHECK(qs->ndists == 2 && qs->dists[1] == RUNG_DIST_SPECIAL);
		json_object_set_new(js, "special", json_integer(64));
		CHECK_INT(rung_plan_from_json(qs, js), RUNG_EIO);
		json_decref(js);
		free(qs);
		free(ts);
	}
	free(sp);
	free(spall);
	/* the default wide travels as such: the worker judges it leniently */
	rung_plan *dflt = vadd_plan("[check]\ninputs = normal, wide\n");
	if (dflt) {
		CHECK(!dflt->inputs_default);
		dflt->inputs_default = true;
		char *td = plan_text(dflt);
		CHECK_CONTAINS(td, "\"inputs_default\":true");
		rung_plan *qd = malloc(sizeof(*qd));
		json_t *jd = json_loads(td, 0, NULL);
		CHECK_INT(rung_plan_from_json(qd, jd), 0);
		CHECK(qd->inputs_default);
		json_decref(jd);
		free(qd);
		free(td);
	}
	free(dflt);

	/* several check sets and seeds */
	rung_plan *many = vadd_plan("[check]\nsizes = N=127; N=1; N=4095\nseeds = 2\ninputs = normal, constant\n");
	CHECK(many != NULL);
	if (many) {
		CHECK_INT(many->nshapes, 4);
		n = rung_plan_cases(many, cs, RUNG_PLAN_MAX_CASES);
		CHECK_INT(n, 1 + 3 * 2 + 3);
		const int want[][3] = { { 3, 0, 0 }, { 0, 0, 0 }, { 0, 1, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 2, 0, 0 }, { 2, 1, 0 },
					{ 0, 0, 1 }, { 1, 0, 1 }, { 2, 0, 1 } };
		for (int k = 0; k < n && k < 10; k++) {
			CHECK_INT(cs[k].shape, want[k][0]);
			CHECK_INT(cs[k].seed, want[k][1]);
			CHECK_INT(cs[k].dist, want[k][2] ? RUNG_DIST_CONSTANT : RUNG_DIST_NORMAL);
			CHECK(cs[k].run == (k == 0));
		}
		free(many);
	}
	/* only the benchmark shape (every dim is 1: no odd shape): a further distribution runs there */
	rung_plan *one = vadd_plan_n("1", "[check]\ninputs = normal, wide\n");
	CHECK(one != NULL);
	if (one) {
		CHECK_INT(one->nshapes, 1);
		n = rung_plan_cases(one, cs, RUNG_PLAN_MAX_CASES);
		CHECK_INT(n, 2);
		CHECK(cs[1].shape == 0 && cs[1].seed == 0 && cs[1].dist == RUNG_DIST_WIDE && !cs[1].run);
		free(one);
	}
}

/* --- the parent with fake workers ------------------------------------------- */

static const char *fake_dir;

static const char *write_fake(const char *name, const char *body)
{
	static char path[16][512];
	static int k;
	char *p = path[k++ % 16];
	snprintf(p, 512, "%s/%s", fake_dir, name);
	size_t n = strlen(body) + 16;
	char *text = malloc(n);
	CHECK(text != NULL);
	if (!text)
		return p;
	snprintf(text, n, "#!/bin/sh\n%s", body);
	t_write(p, text);
	free(text);
	chmod(p, 0755);
	return p;
}

/* Fake workers speak the protocol as the real one does when the parent starts
 * it (`rung worker --socket`): both ways on stdin (a socket), so they write
 * their messages with >&0; their stdout and stderr are the parent's capture. */
#define HELLO_OK "printf '%s\\n' '{\"type\":\"hello\",\"proto\":1,\"ok\":true,\"env\":{\"valid\":true,\"gpu\":\"Fake GPU\",\"arch\":\"sm_90\",\"sms\":3}}' >&0\n"

static int eval_task(rung_result *r, rung_worker *w, double deadline)
{
	rung_spec *spec = NULL;
	int rc = rung_spec_load(&spec, RUNG_TEST_DIR "/tasks/sgemm");
	if (rc)
		return rc;
	char *src = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/sgemm.cu", NULL);
	rung_job job = {.spec = spec, .kernel_src = src, .kernel_file = "sgemm.cu", .ref_file = "reference.cu",
			.seed = 99, .seed_set = true, .deadline_s = deadline};
	rc = t_app_evaluate(r, w, &job, NULL, NULL);
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
	int64_t t0 = rung_now_ms();
	CHECK_INT(eval_task(&r, w, 0.5), 0);
	int64_t dt = rung_now_ms() - t0;
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
				     "printf '%s\\n' '{\"type\":\"progress\",\"step\":\"run\",\"frac\":0,\"msg\":\"M=256\"}' >&0\n"
				     "printf '%s\\n' '{\"type\":\"progress\",\"step\":\"check\",\"frac\":0.5,\"msg\":\"M=127\"}' >&0\n"
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
					      "\"reason\":\"no CUDA driver found (libcuda.so.1)\"}' >&0\n");
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
		 "printf '%%s\\n' '{\"type\":\"error\",\"step\":\"run\",\"reason\":\"fake worker\",\"fatal\":true}' >&0\n",
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
		CHECK_INT(t_app_evaluate(&r, w, &job, NULL, NULL), 0);
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

/* --- the kernel's output: captured, bounded, never on our terminal ------------ */

/* Our own stdout and stderr go to a file while the parent works, so a test can
 * show that nothing the worker printed reached them raw. */
static void own_output_begin(int saved[2], const char *path)
{
	fflush(stdout);
	fflush(stderr);
	saved[0] = dup(1);
	saved[1] = dup(2);
	FILE *f = fopen(path, "w");
	if (f) {
		dup2(fileno(f), 1);
		dup2(fileno(f), 2);
		fclose(f);
	}
}

static void own_output_end(int saved[2])
{
	fflush(stdout);
	fflush(stderr);
	dup2(saved[0], 1);
	dup2(saved[1], 2);
	close(saved[0]);
	close(saved[1]);
}

/* One line the fake kernel prints, as the shell's printf writes it: a screen
 * clear, an OSC 52 clipboard write ended by BEL, and two bytes that are not UTF-8. */
#define PRINTS_FMT "tid %d \033[2J \033]52;c;cHduZWQ=\007 \377\376 done\n"
#define PRINTS_SH "tid %%d \\033[2J \\033]52;c;cHduZWQ=\\007 \\377\\376 done\\n"
#define RESULT_OK "{\"steps\":{\"run\":{\"status\":\"ok\"},\"check\":{\"status\":\"ok\"},\"bench\":{\"status\":\"ok\"}}}"

/* A fake worker answers a job after printing about 120 KB in five bursts over
 * 1.5 s, with no protocol message in between (more than the 1 s deadline:
 * output is activity; the bound is 3 s), plus an assert-like line on stderr and rung's own diagnostics
 * there (which must reach our stderr, inert). */
static void test_fake_worker_prints(void)
{
	char body[4096];
	snprintf(body, sizeof(body),
		 "%s"
		 "read line\n"
		 "printf '%%s\\n' '{\"type\":\"progress\",\"step\":\"run\",\"frac\":0,\"msg\":\"M=256\"}' >&0\n"
		 "i=0\n"
		 "for burst in 1 2 3 4 5; do\n"
		 "  n=0; while [ $n -lt 600 ]; do printf '" PRINTS_SH "' $i; i=$((i+1)); n=$((n+1)); done\n"
		 "  sleep 0.3\n"
		 "done\n"
		 "printf 'kernel.cu:5: void k(): block: [0,0,0], thread: [1,0,0] Assertion `0` failed.\\n' >&2\n"
		 "printf 'rung timing [worker] fake phase 1.0 ms\\nrung worker: evil \\033[2J\\n' >&2\n"
		 "printf '%%s\\n' '{\"type\":\"result\",\"fatal\":false,\"blobs\":[%zu]}' >&0\n"
		 "printf '%%s' '%s' >&0\n"
		 "read line\n",
		 HELLO_OK, strlen(RESULT_OK), RESULT_OK);
	const char *exe = write_fake("prints.sh", body);
	/* what the kernel printed, byte for byte */
	size_t total = 0, cap = 1 << 20;
	char *want = malloc(cap);
	for (int i = 0; i < 3000; i++)
		total += (size_t)snprintf(want + total, cap - total, PRINTS_FMT, i);
	const char *assert_line = "kernel.cu:5: void k(): block: [0,0,0], thread: [1,0,0] Assertion `0` failed.\n";
	CHECK(total > RUNG_OUTPUT_KEEP);

	rung_worker_opts o = {.exe = exe};
	rung_worker *w;
	CHECK_INT(rung_worker_open(&w, &o), 0);
	char own[600];
	snprintf(own, sizeof(own), "%s/own_output.txt", fake_dir);
	int saved[2];
	rung_result r;
	own_output_begin(saved, own);
	int64_t t0 = rung_now_ms();
	int rc = eval_task(&r, w, 1.0);
	int64_t dt = rung_now_ms() - t0;
	rung_worker_close(w);
	own_output_end(saved);

	CHECK_INT(rc, 0);
	CHECK(dt >= 1500); /* the bursts took 1.5 s: longer than the deadline */
	for (int s = RUNG_STEP_RUN; s <= RUNG_STEP_BENCH; s++)
		CHECK_INT(r.steps[s].status, RUNG_S_OK);
	CHECK_STR(r.steps[RUNG_STEP_RUN].reason, "");
	/* exactly the first 64 KiB, in the stored form; the rest counted */
	char *first = rung_inert_utf8(want, RUNG_OUTPUT_KEEP);
	CHECK(r.output != NULL);
	CHECK(r.output && !strcmp(r.output, first));
	CHECK_CONTAINS(r.output, "tid 0 \x1b[2J \x1b]52;c;cHduZWQ=\x07 \\xff\\xfe done\ntid 1 ");
	CHECK_INT(r.output_bytes, (int64_t)(total + strlen(assert_line)));
	CHECK_INT(r.output_dropped, r.output_bytes - RUNG_OUTPUT_KEEP);
	/* nothing of it on our stdout or stderr; rung's own lines there, inert */
	size_t n = 0;
	char *mine = t_slurp(own, &n);
	CHECK(mine != NULL);
	CHECK(mine && !memchr(mine, '\x1b', n) && !memchr(mine, '\x07', n));
	CHECK(mine && !strstr(mine, "tid ") && !strstr(mine, "Assertion"));
	CHECK_CONTAINS(mine, "rung timing [worker] fake phase 1.0 ms\n");
	CHECK_CONTAINS(mine, "rung worker: evil \\x1b[2J\n");
	/* the record keeps it: JSON escapes the controls */
	char *js = rung_result_to_json(&r);
	CHECK(js && !strchr(js, '\x1b'));
	CHECK_CONTAINS(js, "\"output\":{\"text\":\"tid 0 \\u001B[2J \\u001B]52;c;cHduZWQ=\\u0007 \\\\xff\\\\xfe done\\ntid 1 ");
	rung_result back;
	CHECK_INT(rung_result_from_json(&back, js), 0);
	CHECK(back.output && r.output && !strcmp(back.output, r.output));
	CHECK_INT(back.output_dropped, r.output_dropped);
	rung_result_clear(&back);
	free(js);
	free(mine);
	free(first);
	free(want);
	rung_result_clear(&r);
}

/* The flood cap (issue 25): output extends the deadline to 30 windows after the
 * last message, but never past 20 s of it unless the window itself is longer. */
static void test_capture_flood_cap(void)
{
	rung_capture c;
	memset(&c, 0, sizeof(c));
	c.since_ms = 1000;
	c.window_ms = 500; /* 30 x 0.5 s = 15 s: under the flood cap */
	CHECK_INT(rung__capture_cap(&c), 1000 + 15000);
	c.window_ms = 10000; /* the default deadline: 20 s, not 300 s */
	CHECK_INT(rung__capture_cap(&c), 1000 + RUNG_OUTPUT_FLOOD_MS);
	c.window_ms = 60000; /* RUNG_DEADLINE=60: a window longer than the cap stands */
	CHECK_INT(rung__capture_cap(&c), 1000 + 60000);
}

/* A fake worker that floods its stdout and never answers is still killed:
 * output extends the 0.5 s deadline, but to 30 x 0.5 s at most. It floods its
 * stderr with lines that look like rung's own too: those reach our stderr
 * inert and bounded (64 KiB, then one line that says how much was held back).
 * The flood comes in bursts of 100 lines 10 ms apart (hundreds of KiB a second,
 * far past both bounds), so that its 15 s do not take a whole core. */
static void test_fake_worker_floods_forever(void)
{
	const char *exe = write_fake("flood.sh", HELLO_OK
				     "read line\n"
				     "while :; do i=0; while [ $i -lt 100 ]; do "
				     "printf 'flood \\033[2J \\033]52;c;eA==\\007\\n'; "
				     "printf 'rung evil \\033[2J\\n' >&2; i=$((i + 1)); done; sleep 0.01; done\n");
	rung_worker_opts o = {.exe = exe};
	rung_worker *w;
	CHECK_INT(rung_worker_open(&w, &o), 0);
	char own[600];
	snprintf(own, sizeof(own), "%s/own_flood.txt", fake_dir);
	int saved[2];
	rung_result r;
	own_output_begin(saved, own);
	int64_t t0 = rung_now_ms();
	int rc = eval_task(&r, w, 0.5);
	int64_t dt = rung_now_ms() - t0;
	rung_worker_close(w);
	own_output_end(saved);

	CHECK_INT(rc, 0);
	CHECK(dt >= 14000 && dt < 45000);
	CHECK_INT(r.steps[RUNG_STEP_RUN].status, RUNG_S_FAILED);
	CHECK_CONTAINS(r.steps[RUNG_STEP_RUN].reason, "killed at deadline after 15.");
	CHECK_CONTAINS(r.steps[RUNG_STEP_RUN].reason, "but sent no progress; kernel never finished?)");
	CHECK_INT(r.steps[RUNG_STEP_CHECK].status, RUNG_S_NONE);
	CHECK(r.output && strlen(r.output) == RUNG_OUTPUT_KEEP); /* all ASCII and controls: one byte each */
	const char *two = "flood \x1b[2J \x1b]52;c;eA==\x07\nflood ";
	CHECK(r.output && !strncmp(r.output, two, strlen(two)));
	CHECK(r.output_bytes > RUNG_OUTPUT_KEEP);
	CHECK_INT(r.output_dropped, r.output_bytes - RUNG_OUTPUT_KEEP);
	size_t n = 0;
	char *mine = t_slurp(own, &n);
	CHECK(mine != NULL);
	CHECK(mine && !memchr(mine, '\x1b', n) && !strstr(mine, "flood"));
	CHECK_CONTAINS(mine, "rung evil \\x1b[2J\n");
	CHECK_CONTAINS(mine, " more of its diagnostics not shown\n");
	CHECK(n < 4 * RUNG_FORWARD_MAX);
	free(mine);
	rung_result_clear(&r);
}

/* `rung check` in text mode names what the kernel printed and shows its first
 * lines inert; --json carries it JSON-escaped. Neither writes a control byte. */
static void test_rung_check_shows_output_inert(void)
{
	char body[2048];
	snprintf(body, sizeof(body),
		 "%s"
		 "read line\n"
		 "i=0; while [ $i -lt 7 ]; do printf 'line %%d \\033[2J \\033]52;c;eA==\\007 \\302\\233 \\342\\200\\256 ok\\n' $i; i=$((i+1)); done\n"
		 "printf '%%s\\n' '{\"type\":\"result\",\"fatal\":false,\"blobs\":[%zu]}' >&0\n"
		 "printf '%%s' '%s' >&0\n"
		 "read line\n",
		 HELLO_OK, strlen(RESULT_OK), RESULT_OK);
	const char *exe = write_fake("prints7.sh", body);
	char *out = NULL;
	int rc = t_sh(&out, "cd %s/tasks/sgemm && RUNG_WORKER_EXE=%s %s check --seed 7", RUNG_TEST_DIR, exe, RUNG_BIN);
	CHECK_INT(rc, 0);
	CHECK(out && !strchr(out, '\x1b') && !strchr(out, '\x07'));
	CHECK_CONTAINS(out, "[run] ok ");
	CHECK_CONTAINS(out, "\n[output] the kernel printed 245 B (7 lines); its first 5 lines:\n"
			    "  | line 0 \\x1b[2J \\x1b]52;c;eA==\\x07 \\u{009B} \\u{202E} ok\n"
			    "  | line 1 ");
	CHECK_CONTAINS(out, "  | line 4 \\x1b[2J \\x1b]52;c;eA==\\x07 \\u{009B} \\u{202E} ok\n"
			    "  (rung check --json or the detail screen shows the rest)\n");
	CHECK(out && !strstr(out, "line 5"));
	free(out);
	rc = t_sh(&out, "cd %s/tasks/sgemm && RUNG_WORKER_EXE=%s %s check --json --seed 7", RUNG_TEST_DIR, exe, RUNG_BIN);
	CHECK_INT(rc, 0);
	CHECK(out && !strchr(out, '\x1b') && !strchr(out, '\x07'));
	/* C1 and bidi controls are text in the record: no JSON writer passes them raw */
	CHECK_CONTAINS(out, "\"output\":{\"text\":\"line 0 \\u001B[2J \\u001B]52;c;eA==\\u0007 \\\\u{009B} \\\\u{202E} ok\\nline 1 ");
	CHECK(out && !strstr(out, "\xc2\x9b") && !strstr(out, "\xe2\x80\xae"));
	CHECK_CONTAINS(out, "\"bytes\":245,\"dropped\":0}");
	free(out);
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
	rung_compiled_clear(&a);
	rung_compiled_clear(&b);
	rung_compiled_clear(&c);
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
		CHECK_CONTAINS(out, "timing: SKIPPED (no GPU: no CUDA driver found");
		free(out);
	}
	rc = t_sh(&out, "cd %s && %s compare a.cu", dir, RUNG_BIN);
	CHECK_INT(rc, 2);
	CHECK_CONTAINS(out, "needs two versions");
	free(out);
}

/* --- compare: the verified answer, through fake workers ---------------------- */

/* A compare_result that stops at a disagreement, and one with samples. */
#define CMP_DISAGREE "{\"type\":\"compare_result\",\"a\":[],\"b\":[],\"method\":\"events\",\"dropped\":0,\"fatal\":false," \
	"\"reason\":\"A and B disagree at timed round 7 (12288 elements of y, first at (1,0)): one of them behaves differently when timed; rung check each\"," \
	"\"verified\":16,\"sets\":2,\"verify_ms\":0.25,\"order\":\"alternate\"," \
	"\"disagree\":{\"round\":7,\"timed\":true,\"kernel\":\"\",\"arg\":\"y\",\"count\":12288,\"first\":[1,0]}}"
#define CMP_TIMED "{\"type\":\"compare_result\",\"a\":[1,1,1,1,1,1,1,1,1,1,1,1],\"b\":[0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5]," \
	"\"method\":\"cupti-activity\",\"dropped\":0,\"fatal\":false,\"reason\":\"\",\"verified\":28,\"sets\":2,\"verify_ms\":1.5,\"order\":\"alternate\"}"

/* A fake worker that keeps the compare header in DIR/compare.json and answers with reply. */
static const char *fake_compare(const char *name, const char *dir, const char *reply)
{
	char body[3072];
	snprintf(body, sizeof(body), "%s"
		 "IFS= read -r line\n"
		 "printf '%%s\\n' \"$line\" > %s/compare.json\n"
		 "printf '%%s\\n' '%s' >&0\n",
		 HELLO_OK, dir, reply);
	return write_fake(name, body);
}

/* good against unwritten (other machine code) through rung_compare_versions. */
static void compare_with(rung_ab *ab, const char *exe)
{
	rung_spec *spec = NULL;
	CHECK_INT(rung_spec_load(&spec, RUNG_TEST_DIR "/faults/good"), 0);
	char *sa = t_slurp(RUNG_TEST_DIR "/faults/good/kernel.cu", NULL);
	char *sb = t_slurp(RUNG_TEST_DIR "/faults/unwritten/kernel.cu", NULL);
	rung_compiled ka, kb;
	rung_compile_req ra = {.src = sa, .file = "a.cu", .entry = "vadd"}, rb = {.src = sb, .file = "b.cu", .entry = "vadd"};
	CHECK_INT(rung_compile(&ka, &ra), 0);
	CHECK_INT(rung_compile(&kb, &rb), 0);
	rung_worker_opts o = {.exe = exe};
	rung_worker *w;
	CHECK_INT(rung_worker_open(&w, &o), 0);
	CHECK_INT(rung_compare_versions(ab, w, spec, sa, "a.cu", &ka, sb, "b.cu", &kb, 0.5), 0);
	rung_worker_close(w);
	rung_compiled_clear(&ka);
	rung_compiled_clear(&kb);
	free(sa);
	free(sb);
	rung_spec_free(spec);
}

static void test_compare_result_disagree(void)
{
	const char *dir = t_tmpdir();
	rung_ab ab;
	compare_with(&ab, fake_compare("cmp_dis.sh", dir, CMP_DISAGREE));
	CHECK(!ab.identical);
	CHECK(!ab.failed);
	CHECK(ab.disagree);
	CHECK_STR(ab.reason, "A and B disagree at timed round 7 (12288 elements of y, first at (1,0)): one of them behaves "
			     "differently when timed; rung check each");
	CHECK_INT(ab.round, 7);
	CHECK(ab.round_timed);
	CHECK_STR(ab.kernel, "");
	CHECK_STR(ab.arg, "y");
	CHECK_INT(ab.count, 12288);
	CHECK_INT(ab.rank, 2);
	CHECK_INT(ab.first[0], 1);
	CHECK_INT(ab.first[1], 0);
	CHECK_INT(ab.verified, 16);
	CHECK_INT(ab.sets, 2);
	CHECK_NEAR(ab.verify_ms, 0.25, 0);
	CHECK_INT(ab.n, 0);
	/* what the worker was asked: both plans at the same seed, no reference, two CUBINs */
	char path[512];
	snprintf(path, sizeof(path), "%s/compare.json", dir);
	char *text = t_slurp(path, NULL);
	json_t *j = text ? json_loads(text, 0, NULL) : NULL;
	CHECK(j != NULL);
	CHECK_STR(json_string_value(json_object_get(j, "type")), "compare");
	CHECK_INT(json_array_size(json_object_get(j, "blobs")), 2);
	rung_plan *pa = malloc(sizeof(*pa)), *pb = malloc(sizeof(*pb));
	CHECK_INT(rung_plan_from_json(pa, json_object_get(j, "a")), 0);
	CHECK_INT(rung_plan_from_json(pb, json_object_get(j, "b")), 0);
	CHECK(pa->base_seed == pb->base_seed);
	CHECK(!pa->has_ref && !pb->has_ref);
	free(pa);
	free(pb);
	json_decref(j);
	free(text);
	rung_ab_clear(&ab);
	unlink(path);
	rmdir(dir);
}

static void test_compare_result_samples(void)
{
	const char *dir = t_tmpdir();
	rung_ab ab;
	compare_with(&ab, fake_compare("cmp_timed.sh", dir, CMP_TIMED));
	CHECK(!ab.failed && !ab.disagree);
	CHECK_INT(ab.n, 12);
	CHECK_NEAR(ab.a[11], 1.0, 0);
	CHECK_NEAR(ab.b[0], 0.5, 0);
	CHECK_INT(ab.verified, 28);
	CHECK_INT(ab.sets, 2);
	CHECK_NEAR(ab.verify_ms, 1.5, 0);
	CHECK_STR(ab.method, "cupti-activity");
	rung_ab_clear(&ab);
	char path[512];
	snprintf(path, sizeof(path), "%s/compare.json", dir);
	unlink(path);
	rmdir(dir);
}

/* rung compare prints a disagreement as its verdict (exit 1), and the number of
 * verified launches with a timing verdict; --json carries both. */
static void test_rung_compare_cli_verified(void)
{
	const char *dir = t_tmpdir();
	char *out = NULL;
	CHECK_INT(t_sh(&out, "cp %s/faults/good/rung.ini %s/faults/good/reference.cu %s/ && cp %s/faults/good/kernel.cu %s/a.cu && "
			     "cp %s/faults/unwritten/kernel.cu %s/c.cu",
		       RUNG_TEST_DIR, RUNG_TEST_DIR, dir, RUNG_TEST_DIR, dir, RUNG_TEST_DIR, dir),
		  0);
	free(out);
	const char *dis = fake_compare("cli_dis.sh", dir, CMP_DISAGREE);
	int rc = t_sh(&out, "cd %s && RUNG_WORKER_EXE=%s %s compare a.cu c.cu 2>/dev/null", dir, dis, RUNG_BIN);
	CHECK_INT(rc, 1); /* RUNG_EXIT_FAIL */
	CHECK_STR(out, "DISAGREE A and B disagree at timed round 7 (12288 elements of y, first at (1,0)): one of them "
		       "behaves differently when timed; rung check each\n");
	CHECK(!strstr(out, "FASTER") && !strstr(out, "SLOWER"));
	free(out);
	rc = t_sh(&out, "cd %s && RUNG_WORKER_EXE=%s %s compare --json a.cu c.cu 2>/dev/null", dir, dis, RUNG_BIN);
	CHECK_INT(rc, 1);
	json_t *j = out ? json_loads(out, 0, NULL) : NULL;
	CHECK(j != NULL);
	CHECK_STR(json_string_value(json_object_get(j, "verdict")), "DISAGREE");
	CHECK_CONTAINS(json_string_value(json_object_get(j, "reason")), "disagree at timed round 7");
	CHECK_INT(json_integer_value(json_object_get(j, "round")), 7);
	CHECK(json_is_true(json_object_get(j, "timed")));
	CHECK_STR(json_string_value(json_object_get(j, "arg")), "y");
	CHECK_INT(json_integer_value(json_object_get(j, "count")), 12288);
	CHECK_INT(json_integer_value(json_array_get(json_object_get(j, "first"), 0)), 1);
	CHECK_INT(json_integer_value(json_array_get(json_object_get(j, "first"), 1)), 0);
	CHECK_INT(json_integer_value(json_object_get(j, "verified")), 16);
	json_decref(j);
	free(out);
	const char *timed = fake_compare("cli_timed.sh", dir, CMP_TIMED);
	/* the side called faster is sanitized first (#25); without compute-sanitizer
	 * the verdict says it is provisional */
	rc = t_sh(&out, "cd %s && RUNG_COMPUTE_SANITIZER=none RUNG_WORKER_EXE=%s %s compare a.cu c.cu 2>/dev/null", dir, timed,
		  RUNG_BIN);
	CHECK_INT(rc, 0);
	/* B's speedup over A, as every screen says it (#28 D-3: was B/A=0.500 [0.500, 0.500]) */
	CHECK_STR(out, "FASTER speedup=2.00x [2.00, 2.00] A=1.000ms B=0.500ms n=12 dropped=0 verified=28\n"
		       "sanitize B: unsanitized (no compute-sanitizer): the verdict is provisional\n");
	free(out);
	rc = t_sh(&out, "cd %s && RUNG_COMPUTE_SANITIZER=none RUNG_WORKER_EXE=%s %s compare --json a.cu c.cu 2>/dev/null", dir,
		  timed, RUNG_BIN);
	CHECK_INT(rc, 0);
	j = out ? json_loads(out, 0, NULL) : NULL;
	CHECK(j != NULL);
	CHECK_STR(json_string_value(json_object_get(j, "verdict")), "FASTER");
	CHECK_NEAR(json_number_value(json_object_get(j, "ratio")), 0.5, 1e-12);
	CHECK_INT(json_integer_value(json_object_get(j, "n")), 12);
	CHECK_INT(json_integer_value(json_object_get(j, "verified")), 28);
	CHECK_INT(json_integer_value(json_object_get(j, "sets")), 2);
	CHECK_STR(json_string_value(json_object_get(j, "order")), "alternate");
	CHECK(json_object_get(j, "reason") == NULL);
	CHECK_STR(json_string_value(json_object_get(json_object_get(j, "sanitize"), "version")), "b");
	CHECK_STR(json_string_value(json_object_get(json_object_get(j, "sanitize"), "state")), "unsanitized");
	json_decref(j);
	free(out);
	/* identical machine code needs no worker at all */
	rc = t_sh(&out, "cd %s && RUNG_WORKER_EXE=/nonexistent %s compare --json a.cu a.cu", dir, RUNG_BIN);
	CHECK_INT(rc, 0);
	CHECK_STR(out, "{\"verdict\":\"SAME\",\"identical\":true}\n");
	free(out);
	CHECK_INT(t_sh(&out, "rm -rf %s", dir), 0);
	free(out);
}

/* A wrapper that does not hand fd 0 on to the worker (as compute-sanitizer's
 * launcher need not): the worker connects back through the private socket path
 * of `--connect` and still says hello (here: no driver). The socket's
 * directory is made in a TMPDIR of this case's own, so that what other tests
 * running beside it (ctest -j) have in /tmp does not count. */
static void test_wrapped_worker_connects_back(void)
{
	if (have_driver())
		return;
	const char *own_tmp = t_tmpdir();
	char *saved = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
	setenv("TMPDIR", own_tmp, 1);
	const char *const prefix[] = {"/bin/sh", "-c", "exec \"$0\" \"$@\" 0</dev/null", NULL};
	rung_worker_opts o = {.exe = RUNG_BIN, .argv_prefix = prefix};
	rung_worker *w = NULL;
	CHECK_INT(rung_worker_open(&w, &o), 0);
	rung_env env;
	int64_t t0 = rung_now_ms();
	CHECK_INT(rung_worker_env(&env, w), RUNG_ENODEV);
	CHECK_CONTAINS(rung_error_last(), "no CUDA driver");
	CHECK(rung_now_ms() - t0 < 30000);
	rung_worker_close(w);
	char *out = NULL;
	t_sh(&out, "ls %s | grep -c rung-worker- || true", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	CHECK_STR(out, "0\n"); /* the socket path is gone */
	free(out);
	if (saved)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	free(saved);
}

/* --- measured ceilings reach the speed-of-light guard ------------------------ */

/* An H200-like device with a UUID and clocks: the key of its stored ceilings. */
#define CEIL_ENV "{\"valid\":true,\"gpu\":\"Fake H200\",\"uuid\":\"GPU-fake-ceil\",\"arch\":\"sm_90\",\"sms\":132," \
		 "\"sm_clock_mhz\":1980,\"mem_clock_mhz\":3201,\"bus_width\":6016}"
/* A passing version whose bench median is 80 ns at M=N=256, K=128. */
#define CEIL_MEDIAN 8.0e-5
#define CEIL_RESULT "{\"steps\":{\"run\":{\"status\":\"ok\"},\"check\":{\"status\":\"ok\"},\"bench\":{\"status\":\"ok\"}}," \
		    "\"bench\":{\"valid\":true,\"median\":0.00008,\"n\":20,\"noise_ok\":true}}"

static rung_env ceil_env(void)
{
	rung_env e;
	rung_result tmp;
	rung_result_init(&tmp);
	char rec[512];
	snprintf(rec, sizeof(rec), "{\"env\":%s}", CEIL_ENV);
	CHECK_INT(rung_result_from_json(&tmp, rec), 0);
	e = tmp.env;
	rung_result_clear(&tmp);
	return e;
}

/* floor_ms of check --json's record ("result"), NAN when absent; *impossible its flag. */
static double check_floor(const char *out, bool *impossible)
{
	json_t *o = out ? json_loads(out, 0, NULL) : NULL;
	json_t *r = json_object_get(o, "result");
	double f = json_is_number(json_object_get(r, "floor_ms")) ? json_number_value(json_object_get(r, "floor_ms")) : NAN;
	*impossible = json_is_true(json_object_get(r, "impossible"));
	json_decref(o);
	return f;
}

/* `rung ceilings` stores measured ceilings per device and clocks; rung check
 * and rung eval look them up for the device the worker says hello with and the
 * guard takes them where they are higher than the datasheet's: a median that
 * beats the datasheet floor (impossible, exit 1) is possible under the
 * measured one (exit 0), and the recorded floor is the measured one's. */
static void test_measured_ceilings_reach_the_guard(void)
{
	char dir[1024], body[2048];
	snprintf(dir, sizeof(dir), "%s/ceilrepo", fake_dir);
	snprintf(body, sizeof(body),
		 "printf '%%s\\n' '{\"type\":\"hello\",\"proto\":1,\"ok\":true,\"env\":%s}' >&0\n"
		 "while IFS= read -r line; do\n"
		 "  case \"$line\" in\n"
		 "  *'\"type\":\"quit\"'*) exit 0 ;;\n"
		 "  *'\"type\":\"'*) printf '%%s\\n' '{\"type\":\"result\",\"fatal\":false,\"blobs\":[%zu]}' >&0\n"
		 "     printf '%%s' '%s' >&0 ;;\n"
		 "  esac\n"
		 "done\n",
		 CEIL_ENV, strlen(CEIL_RESULT), CEIL_RESULT);
	const char *exe = write_fake("ceil.sh", body);
	char *ini = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/rung.ini", NULL);
	char *ker = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/sgemm.cu", NULL);
	char *ref = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/reference.cu", NULL);
	CHECK(ini && ker && ref);
	git_repository *g = gf_init(dir);
	CHECK(g != NULL);
	git_oid c1, c2;
	const char *f1[] = {"rung.ini", ini, "sgemm.cu", ker, "reference.cu", ref, NULL};
	CHECK_INT(gf_commit(&c1, g, "HEAD", NULL, -1, GF_T0, "naive", f1), 0);

	/* The floors by hand (tests/test_roofline_guard.c): flops = 2*256*256*128,
	 * bytes = 4*(256*128*2 + 256*256) = 524288; DRAM = 2 * 3201 MHz * 6016 / 8
	 * = 4.814304 TB/s; the f32 peak is the TF32 tensor one, 132 * 1.98 GHz *
	 * 2048 = 535.26 TFLOP/s: memory-bound, floor = 524288 / 4.814304e12 s. */
	rung_env env = ceil_env();
	CHECK_STR(env.uuid, "GPU-fake-ceil");
	double flops = 2.0 * 256 * 256 * 128, bytes = 4.0 * (256 * 128 * 2 + 256 * 256);
	double ds_dram = 2 * 3201e6 * 6016 / 8, ds_tf32 = 132 * 1.98e9 * 2048;
	double ds_floor = bytes / ds_dram * 1e3;
	CHECK(flops / ds_tf32 * 1e3 < ds_floor);
	CHECK(CEIL_MEDIAN < ds_floor * (1 - RUNG_ROOFLINE_TOL)); /* impossible under the datasheet */

	/* no ceilings stored: the datasheet's floor, impossible */
	char *out = NULL;
	int rc = t_sh(&out, "cd %s && RUNG_WORKER_EXE=%s %s check HEAD --json --seed 7 2>/dev/null", dir, exe, RUNG_BIN);
	bool imp = false;
	double f = check_floor(out, &imp);
	CHECK_INT(rc, 1);
	CHECK(imp);
	CHECK_NEAR(f, ds_floor, ds_floor * 1e-9);
	free(out);

	/* measured: DRAM at twice the datasheet's, and a TF32 ceiling at half
	 * of it, which the guard must not take (it would raise the floor) */
	rung_ceilings m;
	rung_ceilings_init(&m);
	m.dram.value = 2 * ds_dram;
	m.dram.src = RUNG_CEIL_MEASURED;
	m.tensor[RUNG_TC_TF32].value = ds_tf32 / 2;
	m.tensor[RUNG_TC_TF32].src = RUNG_CEIL_MEASURED;
	double m_floor = bytes / (2 * ds_dram) * 1e3;
	CHECK(flops / ds_tf32 * 1e3 < m_floor && flops / (ds_tf32 / 2) * 1e3 > m_floor);
	CHECK(CEIL_MEDIAN > m_floor);
	rung_repo *repo = NULL;
	rung_store *st = NULL;
	CHECK_INT(rung_repo_open(&repo, dir), 0);
	CHECK_INT(rung_store_open_repo(&st, repo), 0);
	CHECK_INT(rung_store_put_ceilings(st, &env, &m, GF_T0), 0);
	rung_store_close(st);
	st = NULL;

	rc = t_sh(&out, "cd %s && RUNG_WORKER_EXE=%s %s check HEAD --json --seed 7 2>/dev/null", dir, exe, RUNG_BIN);
	f = check_floor(out, &imp);
	CHECK_INT(rc, 0);
	CHECK(!imp);
	CHECK_NEAR(f, m_floor, m_floor * 1e-9);
	free(out);
	/* a path target in the repository reads its store too */
	rc = t_sh(&out, "cd %s && RUNG_WORKER_EXE=%s %s check sgemm.cu --json --seed 7 2>/dev/null", dir, exe, RUNG_BIN);
	f = check_floor(out, &imp);
	CHECK_INT(rc, 0);
	CHECK(!imp);
	CHECK_NEAR(f, m_floor, m_floor * 1e-9);
	free(out);

	/* rung eval of a new version (the pipeline, and one at a time) */
	size_t kl = strlen(ker);
	for (int jobs = 1; jobs <= 3; jobs += 2) {
		char *ker2 = malloc(kl + 32);
		snprintf(ker2, kl + 32, "%s// v%d\n", ker, jobs);
		const char *f2[] = {"rung.ini", ini, "sgemm.cu", ker2, "reference.cu", ref, NULL};
		CHECK_INT(gf_commit(&c2, g, "HEAD", NULL, -1, GF_T0 + 60 * jobs, "comment", f2), 0);
		free(ker2);
		rc = t_sh(&out, "cd %s && RUNG_WORKER_EXE=%s %s eval --jobs %d 2>&1", dir, exe, RUNG_BIN, jobs);
		CHECK_INT(rc, 0);
		if (rc)
			fprintf(stderr, "%s\n", out ? out : "");
		free(out);
		char hex[41];
		gf_hex(hex, &c2);
		rung_result r;
		CHECK_INT(rung_store_open_repo(&st, repo), 0);
		CHECK_INT(rung_store_get_commit(&r, st, hex, false), 0);
		CHECK(!r.impossible);
		CHECK_NEAR(r.floor_ms, m_floor, m_floor * 1e-9);
		rung_result_clear(&r);
		rung_store_close(st);
		st = NULL;
	}
	rung_repo_free(repo);
	git_repository_free(g);
	free(ini);
	free(ker);
	free(ref);
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
	T_RUN(test_plan_inputs);
	T_RUN(test_fake_worker_hangs);
	T_RUN(test_fake_worker_crashes_in_check);
	T_RUN(test_fake_worker_no_device);
	T_RUN(test_fault_jobs_reach_the_worker);
	T_RUN(test_fake_worker_prints);
	T_RUN(test_capture_flood_cap);
	T_RUN(test_fake_worker_floods_forever);
	T_RUN(test_rung_check_shows_output_inert);
	T_RUN(test_exec_failure);
	T_RUN(test_real_worker_without_driver);
	T_RUN(test_rung_check_without_driver);
	T_RUN(test_cubin_same_code);
	T_RUN(test_rung_compare_cli);
	T_RUN(test_wrapped_worker_connects_back);
	T_RUN(test_compare_result_disagree);
	T_RUN(test_compare_result_samples);
	T_RUN(test_rung_compare_cli_verified);
	T_RUN(test_measured_ceilings_reach_the_guard);
	char *out = NULL;
	t_sh(&out, "rm -rf '%s'", fake_dir);
	free(out);
	return t_done();
}

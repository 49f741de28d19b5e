/* The git-facing commands on a throwaway repository with results put in its
 * store: rung log (metrics, failure reason, cache hit by content, baseline
 * delta), rung export / rung import (recorded results kept apart). */
#include "harness.h"
#include "gitfix.h"

#include <stdlib.h>

#include "core/err.h"
#include "core/result.h"
#include "vcs/store.h"
#include "vcs/task_rev.h"

/* Suspects for the next put (NULL: none): "kind" then "reason", pairs; and
 * whether its bench rung failed (a timed launch that differs fails it). */
static const char *const *next_suspects;
static bool next_bench_failed;

static void put_env(rung_store *s, const rung_vtask *t, const char *rev, double median, bool fail, const char *driver)
{
	rung_source src;
	CHECK_INT(rung_vtask_source(&src, t, rev, NULL), 0);
	char content[65];
	rung_vtask_content(content, t, &src);
	rung_source_clear(&src);
	rung_result r;
	rung_result_init(&r);
	rung_result_key(r.key, content, "GPU-1");
	snprintf(r.rev, sizeof(r.rev), "%s", rev);
	r.created = GF_T0 + 3600;
	for (int i = 0; i < RUNG_STEP_PROFILE; i++)
		r.steps[i].status = RUNG_S_OK;
	r.nmetrics = 1;
	r.metrics = calloc(1, sizeof(*r.metrics));
	r.metrics[0].max_rel = fail ? 3.1e-2 : 2e-7;
	r.metrics[0].psnr = fail ? 20 : 130;
	r.metrics[0].cossim = fail ? 0.9 : 1.0;
	if (fail) {
		r.steps[RUNG_STEP_CHECK].status = RUNG_S_FAILED;
		snprintf(r.steps[RUNG_STEP_CHECK].reason, sizeof(r.steps[0].reason), "C: worst at (127,4): got 1.5 expected 1.45");
		r.steps[RUNG_STEP_BENCH].status = RUNG_S_SKIPPED;
	} else {
		r.bench.valid = true;
		r.bench.median = median;
		r.bench.tflops = 10;
	}
	r.compile.kernel.valid = true;
	r.compile.kernel.regs = 40;
	r.env.valid = true;
	snprintf(r.env.gpu, sizeof(r.env.gpu), "NVIDIA H200");
	snprintf(r.env.uuid, sizeof(r.env.uuid), "GPU-1");
	snprintf(r.env.driver, sizeof(r.env.driver), "%s", driver);
	for (int k = 0; next_suspects && next_suspects[k]; k += 2) {
		rung_suspect_kind kind;
		CHECK_INT(rung_suspect_parse(&kind, next_suspects[k]), 0);
		rung_result_add_suspect(&r, kind, "%s", next_suspects[k + 1]);
	}
	next_suspects = NULL;
	if (next_bench_failed) {
		r.steps[RUNG_STEP_BENCH].status = RUNG_S_FAILED;
		snprintf(r.steps[RUNG_STEP_BENCH].reason, sizeof(r.steps[0].reason), "timed launch 3 differs from the checked one");
	}
	next_bench_failed = false;
	CHECK_INT(rung_store_put(s, &r, content, rev), 0);
	rung_result_clear(&r);
}

static void put(rung_store *s, const rung_vtask *t, const char *rev, double median, bool fail)
{
	put_env(s, t, rev, median, fail, "580.159.04");
}

/* A delta against a baseline measured in another environment is flagged with what differs. */
static void test_log_flags_other_environment(void)
{
	const char *dir = t_tmpdir();
	char *ini = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/rung.ini", NULL);
	char *ref = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/reference.cu", NULL);
	char *k1 = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/sgemm.cu", NULL);
	CHECK(ini && ref && k1);
	if (!ini || !ref || !k1)
		return;
	size_t l = strlen(k1);
	char *k2 = malloc(l + 32);
	snprintf(k2, l + 32, "%s// v2\n", k1);
	git_repository *g = gf_init(dir);
	git_oid c1, c2;
	gf_commit(&c1, g, "HEAD", NULL, -1, GF_T0, "first",
		  (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k1, NULL});
	gf_commit(&c2, g, "HEAD", NULL, -1, GF_T0 + 60, "second",
		  (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k2, NULL});
	char h1[41], h2[41];
	gf_hex(h1, &c1);
	gf_hex(h2, &c2);
	rung_repo *r;
	CHECK_INT(rung_repo_open(&r, dir), 0);
	rung_vtask t;
	CHECK_INT(rung_vtask_open(&t, r, "t", NULL), 0);
	rung_store *s;
	CHECK_INT(rung_store_open_repo(&s, r), 0);
	put_env(s, &t, h1, 2.0, false, "575.57");
	put_env(s, &t, h2, 1.0, false, "580.159.04");
	rung_store_close(s);
	char *out = NULL;
	CHECK_INT(t_sh(&out, "%s log -C %s", RUNG_BIN, dir), 0);
	CHECK_CONTAINS(out, "-50.0%");
	CHECK_CONTAINS(out, "delta vs a baseline measured elsewhere: driver 580.159.04 vs 575.57");
	free(out);
	rung_vtask_clear(&t);
	rung_repo_free(r);
	git_repository_free(g);
	free(ini);
	free(ref);
	free(k1);
	free(k2);
}

static void test_log_export_import(void)
{
	const char *dir = t_tmpdir();
	char *ini = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/rung.ini", NULL);
	char *ref = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/reference.cu", NULL);
	char *k1 = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/sgemm.cu", NULL);
	CHECK(ini && ref && k1);
	if (!ini || !ref || !k1)
		return;
	size_t l = strlen(k1);
	char *k2 = malloc(l + 32);
	snprintf(k2, l + 32, "%s// v2\n", k1);
	git_repository *g = gf_init(dir);
	git_oid c1, c2, c3;
	gf_commit(&c1, g, "HEAD", NULL, -1, GF_T0, "naive",
		  (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k1, NULL});
	gf_commit(&c2, g, "HEAD", NULL, -1, GF_T0 + 60, "broken tiling",
		  (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k2, NULL});
	gf_commit(&c3, g, "HEAD", NULL, -1, GF_T0 + 120, "back to naive",
		  (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k1, NULL});
	char h1[41], h2[41], h3[41];
	gf_hex(h1, &c1);
	gf_hex(h2, &c2);
	gf_hex(h3, &c3);

	rung_repo *r;
	CHECK_INT(rung_repo_open(&r, dir), 0);
	rung_vtask t;
	CHECK_INT(rung_vtask_open(&t, r, "t", NULL), 0);
	CHECK_STR(t.kernel_path, "t/sgemm.cu");
	CHECK(t.ref.text != NULL);
	rung_store *s;
	CHECK_INT(rung_store_open_repo(&s, r), 0);
	put(s, &t, h1, 2.0, false);
	put(s, &t, h2, 0, true);
	rung_store_close(s);

	char *out = NULL;
	CHECK_INT(t_sh(&out, "%s log --csv -C %s", RUNG_BIN, dir), 0);
	/* newest first; c3 has c1's content: its result is found by content */
	char want[1024];
	snprintf(want, sizeof(want), "%s,back to naive,ok,ok,ok,ok,none,2.00e-07,130.0,1.000000,2,+0.0%%,10 TFLOP/s,40/0,,,,\n", h3);
	CHECK_CONTAINS(out, want);
	snprintf(want, sizeof(want), "%s,broken tiling,ok,ok,FAILED,SKIPPED,none,3.10e-02,20.0,0.900000,-,-,-,40/0,,,\"check: C: worst at (127,4): got 1.5 expected 1.45\",\n", h2); /* quoted: it holds a comma */
	CHECK_CONTAINS(out, want);
	snprintf(want, sizeof(want), "%s,naive,ok,ok,ok,ok,none,2.00e-07,130.0,1.000000,2,+0.0%%", h1);
	CHECK_CONTAINS(out, want);
	free(out);
	CHECK_INT(t_sh(&out, "%s log -C %s", RUNG_BIN, dir), 0);
	CHECK_CONTAINS(out, "check: C: worst at (127,4): got 1.5 expected 1.45");
	CHECK_CONTAINS(out, "(same content as another version)");
	free(out);
	CHECK_INT(t_sh(&out, "%s log --json -C %s", RUNG_BIN, dir), 0);
	CHECK_CONTAINS(out, "\"cached_from_other_commit\":true");
	CHECK_CONTAINS(out, "\"baseline\":true");
	free(out);

	/* export, then import: recorded copies, apart from the live ones */
	char path[600];
	snprintf(path, sizeof(path), "%s/export.jsonl", dir);
	CHECK_INT(t_sh(&out, "%s export -C %s --out %s", RUNG_BIN, dir, path), 0);
	free(out);
	/* a path that cannot be written is the user's mistake: exit 2, naming it */
	CHECK_INT(t_sh(&out, "%s export -C %s --out /nonexistent/x.jsonl", RUNG_BIN, dir), 2);
	CHECK_CONTAINS(out, "rung export: --out /nonexistent/x.jsonl: No such file or directory");
	free(out);
	char *ex = t_slurp(path, NULL);
	CHECK_CONTAINS(ex, h1);
	CHECK_CONTAINS(ex, "\"rung_export\":1");
	free(ex);
	CHECK_INT(t_sh(&out, "%s import -C %s %s", RUNG_BIN, dir, path), 0);
	CHECK_CONTAINS(out, "imported 2 recorded result(s)");
	free(out);
	CHECK_INT(rung_store_open_repo(&s, r), 0);
	CHECK_INT(rung_store_count(s, 0), 2);
	CHECK_INT(rung_store_count(s, 1), 2);
	rung_result got;
	CHECK_INT(rung_store_get_commit(&got, s, h1, true), 0);
	CHECK(got.recorded);
	CHECK_STR(got.recorded_note, "recorded on NVIDIA H200, 2025-11-29");
	rung_result_clear(&got);
	rung_store_close(s);
	/* a bad line names file and line */
	snprintf(path, sizeof(path), "%s/bad.jsonl", dir);
	t_write(path, "\n{\"x\":1}\n");
	CHECK_INT(t_sh(&out, "%s import -C %s %s", RUNG_BIN, dir, path), 2);
	snprintf(want, sizeof(want), "%s:2:", path);
	CHECK_CONTAINS(out, want);
	free(out);

	rung_vtask_clear(&t);
	rung_repo_free(r);
	git_repository_free(g);
	free(ini);
	free(ref);
	free(k1);
	free(k2);
}

/* Suspects in rung log (table, --json, --csv) and rung brief: a suspect best is
 * said plainly, each suspect has a line with its reason, escapes made inert. */
static void test_log_brief_suspects(void)
{
	const char *dir = t_tmpdir();
	char *ini = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/rung.ini", NULL);
	char *ref = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/reference.cu", NULL);
	char *k1 = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/sgemm.cu", NULL);
	CHECK(ini && ref && k1);
	if (!ini || !ref || !k1)
		return;
	size_t l = strlen(k1);
	char *k2 = malloc(l + 32), *k3 = malloc(l + 32), *k4 = malloc(l + 32);
	snprintf(k2, l + 32, "%s// v2\n", k1);
	snprintf(k3, l + 32, "%s// v3\n", k1);
	snprintf(k4, l + 32, "%s// v4\n", k1);
	git_repository *g = gf_init(dir);
	git_oid c1, c2, c3, c4;
	gf_commit(&c1, g, "HEAD", NULL, -1, GF_T0, "naive",
		  (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k1, NULL});
	gf_commit(&c2, g, "HEAD", NULL, -1, GF_T0 + 60, "counts its launches",
		  (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k2, NULL});
	gf_commit(&c3, g, "HEAD", NULL, -1, GF_T0 + 120, "slower, clean",
		  (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k3, NULL});
	gf_commit(&c4, g, "HEAD", NULL, -1, GF_T0 + 180, "less work after the first launch",
		  (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k4, NULL});
	char h1[41], h2[41], h3[41], h4[41];
	gf_hex(h1, &c1);
	gf_hex(h2, &c2);
	gf_hex(h3, &c3);
	gf_hex(h4, &c4);
	rung_repo *r;
	CHECK_INT(rung_repo_open(&r, dir), 0);
	rung_vtask t;
	CHECK_INT(rung_vtask_open(&t, r, "t", NULL), 0);
	rung_store *s;
	CHECK_INT(rung_store_open_repo(&s, r), 0);
	put(s, &t, h1, 2.0, false);
	next_suspects = (const char *const[]){
		"mutable-global", "mutable __device__ global 'calls' (written by the kernel): state can carry over between launches",
		"device-malloc", "device-side malloc \x1b]0;owned\x07 in the PTX", NULL};
	put(s, &t, h2, 0.5, false);
	put(s, &t, h3, 1.5, false);
	/* faster still, but its bench rung failed on a timed launch: never best */
	next_suspects = (const char *const[]){"timed-mismatch", "timed launch 3 differs from the checked one", NULL};
	next_bench_failed = true;
	put(s, &t, h4, 0.1, false);
	rung_store_close(s);

	char *out = NULL, want[1024];
	CHECK_INT(t_sh(&out, "%s log -C %s", RUNG_BIN, dir), 0);
	CHECK_CONTAINS(out, "10 TFLOP/s     40/0     suspect");
	CHECK_CONTAINS(out, "\n         suspect mutable-global: mutable __device__ global 'calls' (written by the kernel): "
			    "state can carry over between launches\n");
	CHECK_CONTAINS(out, "\n         suspect device-malloc: device-side malloc ^[]0;owned^G in the PTX\n");
	/* the failed row's verdict in the VERDICT column, where every row has it (#28 D-20: the
	 * reason pushed it out, "... checked one  suspect") */
	char *fl = out ? strstr(out, "bench: timed launch 3 differs from the checked one ") : NULL;
	char *hv = out ? strstr(out, "VERDICT") : NULL;
	CHECK(fl && hv);
	if (fl && hv) {
		char *bol = fl, *hbol = hv;
		while (bol > out && bol[-1] != '\n')
			bol--;
		while (hbol > out && hbol[-1] != '\n')
			hbol--;
		CHECK_INT((int)(strstr(fl, "suspect\n") - bol), (int)(hv - hbol));
	}
	CHECK_CONTAINS(out, "suspect\n         suspect timed-mismatch: timed launch 3 differs from the checked one\n");
	CHECK(!strchr(out, '\x1b'));
	free(out);
	CHECK_INT(t_sh(&out, "%s log --csv -C %s", RUNG_BIN, dir), 0);
	CHECK_CONTAINS(out, ",verdict,note,reason,suspects\n");
	snprintf(want, sizeof(want), "%s,counts its launches,ok,ok,ok,ok,none,2.00e-07,130.0,1.000000,0.5,-75.0%%,10 TFLOP/s,40/0,,,,"
				     "mutable-global;device-malloc\n", h2);
	CHECK_CONTAINS(out, want);
	free(out);
	CHECK_INT(t_sh(&out, "%s log --json -C %s", RUNG_BIN, dir), 0);
	CHECK_CONTAINS(out, "\"suspect\":true,\"suspects\":[{\"kind\":\"mutable-global\",\"reason\":\"mutable __device__");
	CHECK_CONTAINS(out, "\"suspect\":false,\"suspects\":[]");
	free(out);

	CHECK_INT(t_sh(&out, "%s brief -C %s", RUNG_BIN, dir), 0);
	snprintf(want, sizeof(want), "## Best passing version\n\n%.7s \"counts its launches\"", h2);
	CHECK_CONTAINS(out, want);
	CHECK_CONTAINS(out, "\nbest is suspect: mutable-global, device-malloc; verify before building on it\n\n"
			    "- suspect mutable-global: mutable __device__ global 'calls' (written by the kernel): state can "
			    "carry over between launches\n"
			    "- suspect device-malloc: device-side malloc ^[]0;owned^G in the PTX\n");
	CHECK_CONTAINS(out, "; suspect: mutable-global, device-malloc |");
	CHECK_CONTAINS(out, "bench: timed launch 3 differs from the checked one; suspect: timed-mismatch |");
	snprintf(want, sizeof(want), "\n- %.7s suspect timed-mismatch: timed launch 3 differs from the checked one\n", h4);
	CHECK_CONTAINS(out, want);
	snprintf(want, sizeof(want), "\n- %.7s suspect mutable-global: mutable __device__ global 'calls'", h2);
	CHECK_CONTAINS(out, want);
	CHECK(!strchr(out, '\x1b'));
	free(out);
	t_sh(&out, "rm -rf '%s'", dir);
	free(out);

	rung_vtask_clear(&t);
	rung_repo_free(r);
	git_repository_free(g);
	free(ini);
	free(ref);
	free(k1);
	free(k2);
	free(k3);
	free(k4);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	T_RUN(test_log_export_import);
	T_RUN(test_log_flags_other_environment);
	T_RUN(test_log_brief_suspects);
	return t_done();
}

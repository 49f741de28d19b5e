/* Versions from git history on a throwaway repository (no GPU needed):
 * `rung check REV` / `rung dump REV` read the kernel and its headers from the
 * object database (the working tree is neither used nor touched), WORKTREE,
 * unknown revisions, several tasks; `rung eval` with the TUI's flags; the eval
 * pipeline compiles every version, reports them in order, failures per version. */
#include "harness.h"
#include "gitfix.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "core/err.h"
#include "core/result.h"
#include "cli/cli.h"
#include "app/pipeline.h"
#include "vcs/store.h"

static char *cat2(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 1;
	char *s = malloc(n);
	snprintf(s, n, "%s%s", a, b);
	return s;
}

/* The fixture: t/ with a kernel that #includes "cfg.h".
 *   h[0] good, h[1] compile error at t/sgemm.cu:26, h[2] good again,
 *   h[3] adds a second task u/ (t's kernel gets a comment).
 * Then, uncommitted, the working tree's t/cfg.h is broken with #error. */
static const char *dir;
static char h[4][41], s7[4][8];
static char *k1, *k2, *k3, *k4;

static int setup(void)
{
	dir = t_tmpdir();
	char *ini = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/rung.ini", NULL);
	char *ref = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/reference.cu", NULL);
	char *k = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/sgemm.cu", NULL);
	if (!ini || !ref || !k)
		return -1;
	k1 = cat2(k, "#include \"cfg.h\"\n");     /* line 25 */
	k2 = cat2(k1, "int bad = ;\n");           /* line 26: the error */
	k3 = cat2(k1, "// v3\n");
	k4 = cat2(k1, "// v4\n");
	const char *cfg = "#define CFG 1\n";
	git_repository *g = gf_init(dir);
	git_oid c[4];
	int e = 0;
	e |= gf_commit(&c[0], g, "HEAD", NULL, -1, GF_T0, "good",
		       (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k1, "t/cfg.h", cfg, NULL});
	e |= gf_commit(&c[1], g, "HEAD", NULL, -1, GF_T0 + 60, "broken",
		       (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k2, "t/cfg.h", cfg, NULL});
	e |= gf_commit(&c[2], g, "HEAD", NULL, -1, GF_T0 + 120, "fixed",
		       (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k3, "t/cfg.h", cfg, NULL});
	e |= gf_commit(&c[3], g, "HEAD", NULL, -1, GF_T0 + 180, "second task",
		       (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k4, "t/cfg.h", cfg,
					"u/rung.ini", ini, "u/reference.cu", ref, "u/sgemm.cu", k, NULL});
	for (int i = 0; i < 4; i++) {
		gf_hex(h[i], &c[i]);
		snprintf(s7[i], sizeof(s7[i]), "%.7s", h[i]);
	}
	char path[600];
	snprintf(path, sizeof(path), "%s/t/cfg.h", dir);
	t_write(path, "#error worktree header\n");
	git_repository_free(g);
	free(ini);
	free(ref);
	free(k);
	return e ? -1 : 0;
}

/* Live results in the fixture's store (0 when there is no store at all). */
static int stored_results(void)
{
	char db[600];
	struct stat st;
	snprintf(db, sizeof(db), "%s/.git/rung/results.db", dir);
	if (stat(db, &st) != 0)
		return 0;
	rung_store *s;
	if (rung_store_open(&s, db) < 0)
		return -1;
	int n = (int)rung_store_count(s, 0);
	rung_store_close(s);
	return n;
}

static void test_check_rev(void)
{
	char *out = NULL, want[256];
	/* an old version compiles, from git: the broken working-tree header is not read */
	CHECK_INT(t_sh(&out, "%s check --compile-only -C %s --task t %s", RUNG_BIN, dir, h[0]), 0);
	CHECK_CONTAINS(out, "[compile] ok regs=");
	free(out);
	/* the broken version names the file at its revision and the line */
	CHECK_INT(t_sh(&out, "%s check --compile-only -C %s --task t %s", RUNG_BIN, dir, s7[1]), 1);
	snprintf(want, sizeof(want), "[compile] FAILED t/sgemm.cu@%s:26:", s7[1]);
	CHECK_CONTAINS(out, want);
	free(out);
	/* revision syntax: HEAD~1 is "fixed" */
	CHECK_INT(t_sh(&out, "%s check --compile-only --json -C %s --task t HEAD~1", RUNG_BIN, dir), 0);
	snprintf(want, sizeof(want), "\"file\":\"t/sgemm.cu@%s\"", s7[2]);
	CHECK_CONTAINS(out, want);
	free(out);
	/* WORKTREE: the working tree's broken header */
	CHECK_INT(t_sh(&out, "%s check --compile-only -C %s --task t WORKTREE", RUNG_BIN, dir), 1);
	CHECK_CONTAINS(out, "[compile] FAILED");
	CHECK_CONTAINS(out, "worktree header");
	free(out);
	/* the working tree was not touched */
	char path[600];
	snprintf(path, sizeof(path), "%s/t/sgemm.cu", dir);
	char *wt = t_slurp(path, NULL);
	CHECK_STR(wt, k4);
	free(wt);
	snprintf(path, sizeof(path), "%s/t/cfg.h", dir);
	wt = t_slurp(path, NULL);
	CHECK_STR(wt, "#error worktree header\n");
	free(wt);
	/* an unknown revision: usage error, clear message */
	CHECK_INT(t_sh(&out, "%s check --compile-only -C %s --task t nosuchrev", RUNG_BIN, dir), 2);
	CHECK_CONTAINS(out, "nosuchrev: not a task directory, file or git revision");
	free(out);
	/* two tasks and no --task: the error lists them */
	CHECK_INT(t_sh(&out, "cd / && %s check --compile-only -C %s HEAD", RUNG_BIN, dir), 2);
	CHECK_CONTAINS(out, "2 tasks in this repository (t, u)");
	CHECK_CONTAINS(out, "--task DIR");
	free(out);
	/* --task u: the other task's kernel */
	CHECK_INT(t_sh(&out, "%s check --compile-only -C %s --task u HEAD", RUNG_BIN, dir), 0);
	CHECK_CONTAINS(out, "[compile] ok");
	free(out);
	/* a path still wins over a revision */
	CHECK_INT(t_sh(&out, "%s check --compile-only -C %s u", RUNG_BIN, dir), 0);
	CHECK_CONTAINS(out, "[compile] ok");
	free(out);
}

static void test_check_rev_nogpu_stores_nothing(void)
{
	char *out = NULL;
	int rc = t_sh(&out, "%s check -C %s --task t %s", RUNG_BIN, dir, s7[0]);
	free(out);
	if (rc != RUNG_EXIT_NOGPU)
		return; /* a GPU box: the store test is in the GPU suite */
	CHECK_INT(stored_results(), 0);
}

static void test_dump_rev(void)
{
	char *out = NULL;
	CHECK_INT(t_sh(&out, "%s dump -C %s --task t HEAD~3", RUNG_BIN, dir), 0);
	free(out);
	char path[700];
	snprintf(path, sizeof(path), "%s/t/.rung/dumps/%s/kernel.cu", dir, s7[0]);
	char *k = t_slurp(path, NULL);
	CHECK_STR(k, k1);
	free(k);
	snprintf(path, sizeof(path), "%s/t/.rung/dumps/%s/kernel.ptx", dir, s7[0]);
	k = t_slurp(path, NULL);
	CHECK_CONTAINS(k, ".entry");
	free(k);
	/* the broken version: exit 1, the message names the revision */
	CHECK_INT(t_sh(&out, "%s dump -C %s --task t %s", RUNG_BIN, dir, h[1]), 1);
	char want[128];
	snprintf(want, sizeof(want), "t/sgemm.cu@%s:26:", s7[1]);
	CHECK_CONTAINS(out, want);
	free(out);
}

static void test_compare_rev(void)
{
	char *out = NULL, want[128];
	/* only a comment differs: the same machine code, no GPU needed */
	CHECK_INT(t_sh(&out, "%s compare -C %s --task t %s HEAD~1", RUNG_BIN, dir, s7[0]), 0);
	CHECK_CONTAINS(out, "SAME identical machine code");
	free(out);
	CHECK_INT(t_sh(&out, "%s compare -C %s --task t %s %s", RUNG_BIN, dir, s7[0], s7[1]), 1);
	snprintf(want, sizeof(want), "FAILED B does not compile: t/sgemm.cu@%s:26:", s7[1]);
	CHECK_CONTAINS(out, want);
	free(out);
}

/* The command line the TUI's `e` key runs (tui/model/git.c). */
static void test_eval_tui_flags(void)
{
	char *out = NULL;
	int rc = t_sh(&out, "cd / && %s eval -C %s --task t %s", RUNG_BIN, dir, h[2]);
	CHECK(rc == RUNG_EXIT_NOGPU || rc == 0); /* never 2 (usage) */
	CHECK_CONTAINS(out, s7[2]);
	free(out);
}

typedef struct {
	int n;
	char ids[8][41];
	rung_status st[8];
	char reason[8][512];
	int errs;
} seen;

static void on_done(void *ud, int i, const rung_version *v, rung_result *r, int err)
{
	seen *s = ud;
	if (s->n != i || i >= 8) {
		s->errs++;
		return;
	}
	snprintf(s->ids[i], 41, "%s", v->id);
	s->st[i] = err < 0 ? RUNG_S_NONE : rung_result_status(r);
	snprintf(s->reason[i], 512, "%s", r->steps[RUNG_STEP_COMPILE].reason);
	s->n++;
}

static void run_pipeline(int jobs, unsigned flags)
{
	rung_vctx_opts o = {.dir = dir, .task = "t"};
	rung_vctx c;
	CHECK_INT(rung_vctx_open(&c, "eval", &o, RUNG_VCTX_TASK | RUNG_VCTX_STORE), 0);
	rung_version vs[4];
	for (int i = 0; i < 4; i++)
		CHECK_INT(rung_version_at(&vs[i], c.repo, h[i], c.task.kernel_path), 0);
	rung_evaler ev;
	CHECK_INT(rung_evaler_open(&ev, &c, flags), 0);
	seen s = {0};
	CHECK_INT(rung_evaler_run_all(&ev, vs, 4, jobs, on_done, &s), 0);
	rung_evaler_stats st = rung_evaler_last_stats();
	rung_evaler_close(&ev);
	rung_vctx_close(&c);
	CHECK_INT(s.errs, 0);
	CHECK_INT(s.n, 4);
	CHECK_INT(st.compiled, 4);
	if (jobs == 1)
		CHECK_INT(st.max_in_flight, 1);
	else
		CHECK(st.max_in_flight >= 2); /* compiles overlapped */
	for (int i = 0; i < 4; i++)
		CHECK_STR(s.ids[i], h[i]);
	CHECK_INT(s.st[0], RUNG_S_OK);
	CHECK_INT(s.st[1], RUNG_S_FAILED);
	CHECK_CONTAINS(s.reason[1], "t/sgemm.cu:26:");
	CHECK_INT(s.st[2], RUNG_S_OK);
	CHECK_INT(s.st[3], RUNG_S_OK);
}

static void test_pipeline_jobs3(void) { run_pipeline(3, RUNG_JOB_COMPILE_ONLY); }
static void test_pipeline_jobs1(void) { run_pipeline(1, RUNG_JOB_COMPILE_ONLY); }

/* Without a GPU: compiles happen, the GPU rungs are SKIPPED, nothing is stored. */
static void test_pipeline_nogpu(void)
{
	char *out = NULL;
	int rc = t_sh(&out, "cd / && %s eval -C %s --task t --all --jobs 3 2>/dev/null", RUNG_BIN, dir);
	if (rc != RUNG_EXIT_NOGPU) {
		free(out);
		return; /* a GPU box */
	}
	/* oldest first, every version once, then the working tree (its header differs) */
	const char *p = out;
	for (int i = 0; i < 4; i++) {
		const char *q = strstr(p, s7[i]);
		CHECK(q != NULL);
		if (q)
			p = q;
	}
	CHECK(strstr(p, "WORKTREE") != NULL);
	char want[128];
	snprintf(want, sizeof(want), "%s  FAIL - - - -", s7[1]);
	CHECK_CONTAINS(out, want);
	snprintf(want, sizeof(want), "%s  ok skip skip skip", s7[2]);
	CHECK_CONTAINS(out, want);
	free(out);
	CHECK_INT(stored_results(), 0);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	if (setup() < 0) {
		fprintf(stderr, "fixture repository failed\n");
		return 1;
	}
	T_RUN(test_check_rev);
	T_RUN(test_check_rev_nogpu_stores_nothing);
	T_RUN(test_dump_rev);
	T_RUN(test_compare_rev);
	T_RUN(test_eval_tui_flags);
	T_RUN(test_pipeline_jobs3);
	T_RUN(test_pipeline_jobs1);
	T_RUN(test_pipeline_nogpu);
	free(k1);
	free(k2);
	free(k3);
	free(k4);
	return t_done();
}

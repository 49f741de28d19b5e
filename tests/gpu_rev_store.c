/* On a GPU: `rung check REV` stores its result and a re-check of the same content
 * is a cache hit shown as "(cached)"; --force runs it again; `rung eval --jobs 3`
 * (compiles overlapping the GPU) reports and stores every version in commit order.
 * Exit 77 (skipped) without a CUDA driver or device. */
#include "harness.h"
#include "gitfix.h"

#include <stdlib.h>

#include "core/err.h"
#include "cli/cli.h"
#include "vcs/store.h"

static char *cat2(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 1;
	char *s = malloc(n);
	snprintf(s, n, "%s%s", a, b);
	return s;
}

static int live_results(const char *dir)
{
	char db[600];
	snprintf(db, sizeof(db), "%s/.git/rung/results.db", dir);
	rung_store *s;
	if (rung_store_open(&s, db) < 0)
		return -1;
	int n = (int)rung_store_count(s, 0);
	rung_store_close(s);
	return n;
}

static int skipped;

static void test_rev_store(void)
{
	setenv("TZ", "UTC", 1);
	const char *dir = t_tmpdir();
	char *ini = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/rung.ini", NULL);
	char *ref = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/reference.cu", NULL);
	char *k = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/sgemm.cu", NULL);
	CHECK(ini && ref && k);
	if (!ini || !ref || !k)
		return;
	char *k2 = cat2(k, "// v2\n");
	char *k3 = cat2(k, "int bad = ;\n");
	git_repository *g = gf_init(dir);
	git_oid c[3];
	gf_commit(&c[0], g, "HEAD", NULL, -1, GF_T0, "naive",
		  (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k, NULL});
	gf_commit(&c[1], g, "HEAD", NULL, -1, GF_T0 + 60, "comment",
		  (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k2, NULL});
	gf_commit(&c[2], g, "HEAD", NULL, -1, GF_T0 + 120, "broken",
		  (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k3, NULL});
	char s7[3][8], hex[41];
	for (int i = 0; i < 3; i++) {
		gf_hex(hex, &c[i]);
		snprintf(s7[i], sizeof(s7[i]), "%.7s", hex);
	}
	git_repository_free(g);

	char *out = NULL;
	int rc = t_sh(&out, "%s check -C %s HEAD~2 --budget 0.3", RUNG_BIN, dir);
	if (rc == RUNG_EXIT_NOGPU) {
		fprintf(stderr, "no GPU: skipped\n%s", out);
		free(out);
		free(ini);
		free(ref);
		free(k);
		free(k2);
		free(k3);
		skipped = 1;
		return;
	}
	CHECK_INT(rc, 0);
	CHECK_CONTAINS(out, "[bench] ok");
	CHECK(strstr(out, "(cached)") == NULL);
	free(out);
	CHECK_INT(live_results(dir), 1);
	/* the same content again: from the store */
	CHECK_INT(t_sh(&out, "%s check -C %s %s", RUNG_BIN, dir, s7[0]), 0);
	CHECK_CONTAINS(out, "[bench] ok");
	CHECK_CONTAINS(out, "(cached)\n");
	free(out);
	/* --force: measured again, the stored result replaced (still one) */
	CHECK_INT(t_sh(&out, "%s check -C %s --force --budget 0.3 %s", RUNG_BIN, dir, s7[0]), 0);
	CHECK(strstr(out, "(cached)") == NULL);
	free(out);
	CHECK_INT(live_results(dir), 1);

	/* eval with overlapping compiles: every version, in commit order */
	CHECK_INT(t_sh(&out, "%s eval -C %s --all --jobs 3 2>/dev/null", RUNG_BIN, dir), RUNG_EXIT_FAIL);
	const char *p0 = strstr(out, s7[0]), *p1 = strstr(out, s7[1]), *p2 = strstr(out, s7[2]);
	CHECK(p0 && p1 && p2 && p0 < p1 && p1 < p2);
	CHECK_CONTAINS(out, "(cached)"); /* s7[0] was stored by rung check */
	char want[64];
	snprintf(want, sizeof(want), "%s  FAIL", s7[2]);
	CHECK_CONTAINS(out, want);
	free(out);
	CHECK_INT(live_results(dir), 3);

	/* eval --stats: a version with new machine code runs on the GPU; its jobs'
	 * kernels are summed from CUPTI's records into the GPU busy line, which
	 * cannot exceed the wall time */
	char *k4 = cat2(k, "\n__global__ void rung_stats_probe(float *p) { if (p) p[0] = 1.0f; }\n");
	g = NULL;
	CHECK_INT(git_repository_open(&g, dir), 0);
	git_oid c4;
	gf_commit(&c4, g, "HEAD", NULL, -1, GF_T0 + 180, "new code",
		  (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k4, NULL});
	git_repository_free(g);
	gf_hex(hex, &c4);
	CHECK_INT(t_sh(&out, "%s eval -C %s --stats --jobs 2 %.7s 2>/dev/null", RUNG_BIN, dir, hex), 0);
	CHECK_CONTAINS(out, "stats: 1 version(s) in ");
	CHECK_CONTAINS(out, "1 ran on the GPU, 0 no-op, 0 from the store");
	const char *busy = strstr(out, "stats: GPU busy ");
	CHECK(busy != NULL);
	const char *wall = strstr(out, " s wall");
	double busy_s = busy ? atof(busy + strlen("stats: GPU busy ")) : -1, wall_s = -1;
	if (wall) { /* "stats: 1 version(s) in W s wall" */
		const char *w = wall;
		while (w > out && w[-1] != ' ')
			w--;
		wall_s = atof(w);
	}
	fprintf(stderr, "eval --stats: busy %.3f s of %.3f s wall\n%s", busy_s, wall_s, out);
	CHECK(busy_s > 0 && wall_s > 0 && busy_s <= wall_s);
	free(out);

	/* and a comment-only copy of it: the same machine code, so --stats counts
	 * it no-op, nothing of it runs on the GPU, and its row names the version
	 * whose verdict it carries */
	char *k5 = cat2(k4, "\n// a comment changes no machine code\n");
	g = NULL;
	CHECK_INT(git_repository_open(&g, dir), 0);
	git_oid c5;
	gf_commit(&c5, g, "HEAD", NULL, -1, GF_T0 + 240, "comment only",
		  (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", k5, NULL});
	git_repository_free(g);
	char hex5[GIT_OID_HEXSZ + 1];
	gf_hex(hex5, &c5);
	CHECK_INT(t_sh(&out, "%s eval -C %s --stats --jobs 2 %.7s 2>/dev/null", RUNG_BIN, dir, hex5), 0);
	fprintf(stderr, "eval --stats, no-op:\n%s", out);
	CHECK_CONTAINS(out, "stats: 1 version(s) in ");
	CHECK_CONTAINS(out, "0 ran on the GPU, 1 no-op, 0 from the store");
	free(out);
	CHECK_INT(t_sh(&out, "%s log -C %s 2>&1", RUNG_BIN, dir), 0);
	char same[96];
	snprintf(same, sizeof(same), "no-op: same machine code, launch, spec and reference as %.7s", hex);
	CHECK_CONTAINS(out, same);
	free(out);
	free(k5);
	free(k4);
	free(ini);
	free(ref);
	free(k);
	free(k2);
	free(k3);
}

int main(void)
{
	T_RUN(test_rev_store);
	if (skipped)
		return 77;
	return t_done();
}

/* app/profile_extra.c rung_profile_heat_load: the heat the MCP dump tool's
 * SASS excerpt is chosen by (#27 item 3), from a real repository and store:
 * a version's stored stall samples, else its SASS counts, else none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "harness.h"
#include "gitfix.h"
#include "app/profile_extra.h"
#include "vcs/prof_store.h"
#include "vcs/store.h"

/* A live result of commit under content on GPU-1, and its key. */
static void put_result(rung_store *st, const char *commit, const char *content, char key[65])
{
	rung_result *r = calloc(1, sizeof(*r));
	rung_result_init(r);
	rung_result_key(key, content, "GPU-1");
	snprintf(r->key, sizeof(r->key), "%s", key);
	snprintf(r->rev, sizeof(r->rev), "%s", commit);
	snprintf(r->env.uuid, sizeof(r->env.uuid), "GPU-1");
	CHECK_INT(rung_store_put(st, r, content, commit), 0);
	rung_result_clear(r);
	free(r);
}

static void test_heat_load(void)
{
	const char *dir = t_tmpdir();
	git_repository *g = gf_init(dir);
	git_oid c1, c2, c3;
	gf_commit(&c1, g, "HEAD", NULL, -1, GF_T0, "v1", (const char *[]){"k.cu", "v1", NULL});
	gf_commit(&c2, g, "HEAD", NULL, -1, GF_T0 + 60, "v2", (const char *[]){"k.cu", "v2", NULL});
	gf_commit(&c3, g, "HEAD", NULL, -1, GF_T0 + 120, "v3", (const char *[]){"k.cu", "v3", NULL});
	char h1[41], h2[41], h3[41];
	gf_hex(h1, &c1);
	gf_hex(h2, &c2);
	gf_hex(h3, &c3);
	rung_repo *repo = NULL;
	CHECK_INT(rung_repo_open(&repo, dir), 0);
	rung_store *st = NULL;
	CHECK_INT(rung_store_open_repo(&st, repo), 0);
	if (!repo || !st)
		return;
	char k1[65], k2[65], k3[65];
	put_result(st, h1, "content-1", k1);
	put_result(st, h2, "content-2", k2);
	put_result(st, h3, "content-3", k3);
	/* v1: stall samples and counts (the samples win); v2: counts; v3: nothing */
	rung_stall s;
	memset(&s, 0, sizeof(s));
	snprintf(s.func, sizeof(s.func), "sgemm");
	int ri = rung_stall_reason(&s, "long_scoreboard");
	CHECK_INT(rung_stall_add(&s, 0x4080, ri, 90), 0);
	CHECK_INT(rung_stall_add(&s, 0x0190, ri, 10), 0);
	CHECK_INT(rung_stall_finish(&s), 0);
	json_t *sj = rung_stall_to_json(&s);
	char *stall = json_dumps(sj, JSON_COMPACT);
	rung_sass_counts c = {0};
	snprintf(c.func, sizeof(c.func), "sgemm");
	CHECK_INT(rung_sass_counts_add(&c, 0x6a00, 5000, 160000), 0);
	rung_sass_counts_sort(&c);
	json_t *cj = rung_sass_counts_to_json(&c);
	char *counts = json_dumps(cj, JSON_COMPACT);
	CHECK_INT(rung_store_put_extra(st, k1, "stall", stall, GF_T0), 0);
	CHECK_INT(rung_store_put_extra(st, k1, "sass", counts, GF_T0), 0);
	CHECK_INT(rung_store_put_extra(st, k2, "sass", counts, GF_T0), 0);
	rung_store_close(st);
	rung_vctx_opts w = {.dir = dir};
	int n = -1;
	const char *what = "x";
	rung_sass_heat *h = rung_profile_heat_load(&w, h1, &n, &what);
	CHECK_INT(n, 2);
	CHECK_STR(what, "stall samples");
	if (h && n == 2) {
		double w4080 = h[0].pc == 0x4080 ? h[0].weight : h[1].weight;
		CHECK(w4080 == 90);
	}
	free(h);
	h = rung_profile_heat_load(&w, h2, &n, &what);
	CHECK_INT(n, 1);
	CHECK_STR(what, "executed instructions");
	if (h && n == 1)
		CHECK(h[0].pc == 0x6a00 && h[0].weight == 5000);
	free(h);
	h = rung_profile_heat_load(&w, "HEAD", &n, &what); /* v3: none */
	CHECK(h == NULL);
	CHECK_INT(n, 0);
	CHECK(what == NULL);
	CHECK_STR(rung_error_last(), "");
	h = rung_profile_heat_load(&w, "WORKTREE", &n, &what);
	CHECK(h == NULL);
	h = rung_profile_heat_load(&w, "nosuchrev", &n, &what);
	CHECK(h == NULL);
	CHECK_STR(rung_error_last(), "");
	free(stall);
	free(counts);
	json_decref(sj);
	json_decref(cj);
	rung_stall_clear(&s);
	rung_sass_counts_clear(&c);
	rung_repo_free(repo);
	git_repository_free(g);
}

int main(void)
{
	T_RUN(test_heat_load);
	return t_done();
}

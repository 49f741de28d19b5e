/* Versions from git history: only commits touching the kernel, merges, renames,
 * the WORKTREE pseudo-version, sources read at a revision without checkout. */
#include "harness.h"
#include "gitfix.h"

#include <dlfcn.h>
#include <malloc.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <git2.h>

#include "core/err.h"
#include "vcs/history.h"
#include "vcs/repo.h"

#define INI "[task]\nname = k\nkernel = k.cu\nentry = k\n"

typedef struct {
	int n;
	rung_version v[64];
} vlist;

static int list(vlist *out, rung_repo *r, const rung_history_opts *o)
{
	rung_history *h;
	out->n = 0;
	int e = rung_history_open(&h, r, o);
	if (e < 0) {
		fprintf(stderr, "history: %s\n", rung_error_last());
		return e;
	}
	while (out->n < 64 && (e = rung_history_next(&out->v[out->n], h)) == 0)
		out->n++;
	rung_history_free(h);
	return e < 0 ? e : 0;
}

static void test_only_kernel_commits(void)
{
	const char *dir = t_tmpdir();
	git_repository *g = gf_init(dir);
	git_oid c[5];
	gf_commit(&c[0], g, "HEAD", NULL, -1, GF_T0, "add task\n\nbody", (const char *[]){"t/rung.ini", INI, "t/k.cu", "v1", NULL});
	gf_commit(&c[1], g, "HEAD", NULL, -1, GF_T0 + 60, "docs", (const char *[]){"t/rung.ini", INI, "t/k.cu", "v1", "README", "r", NULL});
	gf_commit(&c[2], g, "HEAD", NULL, -1, GF_T0 + 120, "tile it", (const char *[]){"t/rung.ini", INI, "t/k.cu", "v2", "README", "r", NULL});
	gf_commit(&c[3], g, "HEAD", NULL, -1, GF_T0 + 180, "more docs", (const char *[]){"t/rung.ini", INI, "t/k.cu", "v2", "README", "r2", NULL});
	gf_commit(&c[4], g, "HEAD", NULL, -1, GF_T0 + 240, "vectorize", (const char *[]){"t/rung.ini", INI, "t/k.cu", "v3", "README", "r2", NULL});
	rung_repo *r;
	CHECK_INT(rung_repo_open(&r, dir), 0);
	vlist l;
	rung_history_opts o = {.kernel_path = "t/k.cu", .spec_path = "t/rung.ini", .worktree = true};
	CHECK_INT(list(&l, r, &o), 0);
	CHECK_INT(l.n, 3); /* the clean working tree adds no WORKTREE */
	char hex[41];
	const int want[3] = {4, 2, 0};
	const char *subj[3] = {"vectorize", "tile it", "add task"};
	for (int i = 0; i < 3 && i < l.n; i++) {
		gf_hex(hex, &c[want[i]]);
		CHECK_STR(l.v[i].id, hex);
		CHECK_STR(l.v[i].subject, subj[i]);
		CHECK_INT(strlen(l.v[i].short_id), 7);
		CHECK(!strncmp(l.v[i].short_id, hex, 7));
		CHECK_STR(l.v[i].author, "Ada Lovelace");
		CHECK_STR(l.v[i].email, "ada@example.com");
		CHECK_INT(l.v[i].time, GF_T0 + 60 * want[i]);
		CHECK(!l.v[i].merge);
		CHECK(!l.v[i].spec_differs);
		CHECK_STR(l.v[i].kernel_path, "t/k.cu");
	}
	if (l.n == 3) {
		CHECK(l.v[2].added);
		CHECK(!l.v[0].added);
	}
	/* a range excludes its left side */
	char range[100], a[41], b[41];
	gf_hex(a, &c[2]);
	gf_hex(b, &c[4]);
	snprintf(range, sizeof(range), "%s..%s", a, b);
	o.range = range;
	CHECK_INT(list(&l, r, &o), 0);
	CHECK_INT(l.n, 1);
	CHECK_STR(l.v[0].id, b);
	/* an empty side is HEAD */
	snprintf(range, sizeof(range), "%s..", a);
	CHECK_INT(list(&l, r, &o), 0);
	CHECK_INT(l.n, 1);
	/* a bad range is an error naming it, and leaks nothing (#30 D10: libgit2's
	 * git_revwalk_push_range kept the first side's object; 2000 bad ranges
	 * held 200 commits) */
	static const char *const bad[] = {"HEAD..nosuch", "../../etc/passwd", "nosuch..HEAD"};
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		o.range = bad[k];
		rung_history *h = NULL;
		CHECK_INT(rung_history_open(&h, r, &o), RUNG_EUSAGE); /* a usage error: rung log --rev exits 2 (#27) */
		CHECK_CONTAINS(rung_error_last(), "bad revision range");
		CHECK_CONTAINS(rung_error_last(), bad[k]);
	}
	/* the object kept is the repository's cached one: it outlives the repository */
	struct mallinfo2 m0 = {0};
	for (int k = 0; k <= 200; k++) {
		if (k == 1)
			m0 = mallinfo2(); /* after a first round warms libgit2's own state */
		rung_repo *rk = NULL;
		if (rung_repo_open(&rk, dir) < 0)
			break;
		o.range = "HEAD..nosuch";
		rung_history *h = NULL;
		rung_history_open(&h, rk, &o);
		rung_repo_free(rk);
	}
	struct mallinfo2 m1 = mallinfo2();
	size_t grew = m1.uordblks > m0.uordblks ? m1.uordblks - m0.uordblks : 0;
	/* leaking: about 150 KB; not: about 25 KB (glibc's per-thread caches count as in use) */
	if (grew > 64 * 1024)
		fprintf(stderr, "200 bad ranges: %zu bytes more in use\n", grew);
	CHECK(grew <= 64 * 1024); /* 0 under ASan, whose allocator mallinfo2 does not see (LeakSanitizer does) */
	rung_error_clear();
	o.range = range;
	/* task discovery */
	char **tasks;
	int nt;
	CHECK_INT(rung_repo_find_tasks(&tasks, &nt, r), 0);
	CHECK_INT(nt, 1);
	if (nt == 1)
		CHECK_STR(tasks[0], "t");
	rung_strv_free(tasks, nt);
	char *picked = NULL;
	CHECK_INT(rung_repo_pick_task(&picked, r, NULL), 0); /* only task */
	CHECK_STR(picked, "t");
	free(picked);
	rung_repo_free(r);
	git_repository_free(g);
}

static void test_merge(void)
{
	const char *dir = t_tmpdir();
	git_repository *g = gf_init(dir);
	git_oid c1, c2, side, c4, m;
	gf_commit(&c1, g, "HEAD", NULL, -1, GF_T0, "v1", (const char *[]){"rung.ini", INI, "k.cu", "v1", NULL});
	gf_commit(&c2, g, "HEAD", NULL, -1, GF_T0 + 60, "readme", (const char *[]){"rung.ini", INI, "k.cu", "v1", "R", "1", NULL});
	/* side branch from c2 changes the kernel */
	gf_commit(&side, g, NULL, &c2, 1, GF_T0 + 120, "side: v2", (const char *[]){"rung.ini", INI, "k.cu", "v2", "R", "1", NULL});
	gf_commit(&c4, g, "HEAD", NULL, -1, GF_T0 + 180, "main: readme", (const char *[]){"rung.ini", INI, "k.cu", "v1", "R", "2", NULL});
	git_oid ps[2] = {c4, side};
	gf_commit(&m, g, "HEAD", ps, 2, GF_T0 + 240, "Merge side", (const char *[]){"rung.ini", INI, "k.cu", "v2", "R", "2", NULL});
	rung_repo *r;
	CHECK_INT(rung_repo_open(&r, dir), 0);
	vlist l;
	rung_history_opts o = {.kernel_path = "k.cu", .worktree = true};
	CHECK_INT(list(&l, r, &o), 0);
	CHECK_INT(l.n, 3);
	char hex[41];
	if (l.n == 3) {
		gf_hex(hex, &m);
		CHECK_STR(l.v[0].id, hex);
		CHECK(l.v[0].merge); /* differs from its first parent: reported as a merge */
		gf_hex(hex, &side);
		CHECK_STR(l.v[1].id, hex);
		CHECK(!l.v[1].merge);
		gf_hex(hex, &c1);
		CHECK_STR(l.v[2].id, hex);
	}
	rung_repo_free(r);
	git_repository_free(g);
}

static void test_rename(void)
{
	const char *dir = t_tmpdir();
	git_repository *g = gf_init(dir);
	git_oid c1, c2, c3;
	const char *body = "__global__ void k(float *x) {\n\tx[threadIdx.x] = 1.0f;\n}\n";
	const char *body2 = "__global__ void k(float *x) {\n\tx[threadIdx.x] = 2.0f;\n}\n";
	gf_commit(&c1, g, "HEAD", NULL, -1, GF_T0, "add", (const char *[]){"a/rung.ini", INI, "a/old.cu", body, NULL});
	gf_commit(&c2, g, "HEAD", NULL, -1, GF_T0 + 60, "rename", (const char *[]){"a/rung.ini", INI, "a/new.cu", body, NULL});
	gf_commit(&c3, g, "HEAD", NULL, -1, GF_T0 + 120, "edit", (const char *[]){"a/rung.ini", INI, "a/new.cu", body2, NULL});
	rung_repo *r;
	CHECK_INT(rung_repo_open(&r, dir), 0);
	vlist l;
	rung_history_opts o = {.kernel_path = "a/new.cu"};
	CHECK_INT(list(&l, r, &o), 0);
	CHECK_INT(l.n, 3);
	char hex[41];
	if (l.n == 3) {
		gf_hex(hex, &c2);
		CHECK_STR(l.v[1].id, hex);
		CHECK_STR(l.v[1].renamed_from, "a/old.cu");
		CHECK_STR(l.v[1].kernel_path, "a/new.cu");
		CHECK(!l.v[1].added);
		gf_hex(hex, &c1);
		CHECK_STR(l.v[2].id, hex);
		CHECK_STR(l.v[2].kernel_path, "a/old.cu"); /* followed */
		CHECK(l.v[2].added);
		/* the old version's source is read from its own path */
		rung_source s;
		CHECK_INT(rung_source_read(&s, r, l.v[2].id, l.v[2].kernel_path), 0);
		CHECK_STR(s.text, body);
		rung_source_clear(&s);
	}
	o.no_follow = true;
	CHECK_INT(list(&l, r, &o), 0);
	CHECK_INT(l.n, 2); /* stops at the rename, which is reported */
	if (l.n == 2)
		CHECK_STR(l.v[1].renamed_from, "a/old.cu");
	rung_repo_free(r);
	git_repository_free(g);
}

static void test_worktree_and_includes(void)
{
	const char *dir = t_tmpdir();
	git_repository *g = gf_init(dir);
	git_oid c1, c2, c3;
	const char *k = "#include \"tile.cuh\"\n#include <cuda_fp16.h>\n  #  include \"missing.cuh\"\n__global__ void k() {}\n";
	gf_commit(&c1, g, "HEAD", NULL, -1, GF_T0, "v1",
		  (const char *[]){"t/rung.ini", INI, "t/k.cu", k, "t/tile.cuh", "#include \"detail/inner.cuh\"\n// tile v1\n",
				   "t/detail/inner.cuh", "#include \"../tile.cuh\"\n// inner v1\n", NULL});
	gf_commit(&c2, g, "HEAD", NULL, -1, GF_T0 + 60, "v2: header only",
		  (const char *[]){"t/rung.ini", INI, "t/k.cu", k, "t/tile.cuh", "#include \"detail/inner.cuh\"\n// tile v2\n",
				   "t/detail/inner.cuh", "#include \"../tile.cuh\"\n// inner v1\n", NULL});
	gf_commit(&c3, g, "HEAD", NULL, -1, GF_T0 + 120, "v3: spec",
		  (const char *[]){"t/rung.ini", INI "options = -O3\n", "t/k.cu", k, "t/tile.cuh", "#include \"detail/inner.cuh\"\n// tile v2\n",
				   "t/detail/inner.cuh", "#include \"../tile.cuh\"\n// inner v1\n", NULL});
	rung_repo *r;
	CHECK_INT(rung_repo_open(&r, dir), 0);
	char h1[41];
	gf_hex(h1, &c1);

	/* includes at a revision, recursively, cycles and system headers skipped */
	rung_source s;
	CHECK_INT(rung_source_read(&s, r, h1, "t/k.cu"), 0);
	CHECK_STR(s.text, k);
	CHECK_INT(s.nheaders, 2);
	if (s.nheaders == 2) {
		CHECK_STR(s.headers[0].name, "tile.cuh");
		CHECK_STR(s.headers[0].text, "#include \"detail/inner.cuh\"\n// tile v1\n");
		CHECK_STR(s.headers[1].name, "detail/inner.cuh");
		CHECK_CONTAINS(s.headers[1].text, "inner v1");
	}
	rung_source_clear(&s);
	CHECK_INT(rung_source_read(&s, r, "HEAD", "t/k.cu"), 0);
	if (s.nheaders >= 1)
		CHECK_CONTAINS(s.headers[0].text, "tile v2");
	rung_source_clear(&s);

	/* the kernel file never changed: only the commit adding it is a version;
	 * rung.ini changed at c3, so c1 is marked */
	vlist l;
	rung_history_opts o = {.kernel_path = "t/k.cu", .spec_path = "t/rung.ini", .worktree = true};
	CHECK_INT(list(&l, r, &o), 0);
	CHECK_INT(l.n, 1);
	if (l.n == 1) {
		CHECK_STR(l.v[0].id, h1);
		CHECK(l.v[0].spec_differs);
	}

	/* edit the working tree: WORKTREE comes first; reading old revisions
	 * leaves the working tree untouched */
	char path[512];
	snprintf(path, sizeof(path), "%st/k.cu", rung_repo_workdir(r));
	const char *wk = "#include \"tile.cuh\"\n__global__ void k() { /* wip */ }\n";
	t_write(path, wk);
	CHECK_INT(list(&l, r, &o), 0);
	CHECK_INT(l.n, 2);
	if (l.n == 2) {
		CHECK_STR(l.v[0].id, "WORKTREE");
		CHECK(l.v[0].worktree);
		CHECK(!l.v[0].spec_differs);
		CHECK_STR(l.v[1].id, h1);
	}
	CHECK_INT(rung_source_read(&s, r, "WORKTREE", "t/k.cu"), 0);
	CHECK_STR(s.text, wk);
	rung_source_clear(&s);
	CHECK_INT(rung_source_read(&s, r, h1, "t/k.cu"), 0);
	CHECK_STR(s.text, k);
	rung_source_clear(&s);
	char *disk = t_slurp(path, NULL);
	CHECK_STR(disk, wk);
	free(disk);
	snprintf(path, sizeof(path), "%st/tile.cuh", rung_repo_workdir(r));
	disk = t_slurp(path, NULL);
	CHECK_CONTAINS(disk, "tile v2"); /* not rewritten to the v1 read above */
	free(disk);
	unsigned st = 0;
	CHECK_INT(git_status_file(&st, g, "t/tile.cuh"), 0);
	CHECK_INT(st, 0);
	CHECK_INT(git_status_file(&st, g, "t/k.cu"), 0);
	CHECK_INT(st, GIT_STATUS_WT_MODIFIED);
	char head[41];
	CHECK_INT(rung_repo_resolve(head, r, "HEAD"), 0);
	char h3[41];
	gf_hex(h3, &c3);
	CHECK_STR(head, h3);

	/* editing only an included header also makes a WORKTREE version */
	snprintf(path, sizeof(path), "%st/k.cu", rung_repo_workdir(r));
	t_write(path, k);
	CHECK_INT(list(&l, r, &o), 0);
	CHECK_INT(l.n, 1);
	snprintf(path, sizeof(path), "%st/tile.cuh", rung_repo_workdir(r));
	t_write(path, "// tile wip\n");
	CHECK_INT(list(&l, r, &o), 0);
	CHECK_INT(l.n, 2);
	if (l.n)
		CHECK_STR(l.v[0].id, "WORKTREE");

	/* unknown revision and missing path */
	CHECK_INT(rung_source_read(&s, r, "nope", "t/k.cu"), RUNG_ENOTFOUND);
	CHECK_INT(rung_source_read(&s, r, h1, "t/none.cu"), RUNG_ENOTFOUND);
	CHECK_CONTAINS(rung_error_last(), "t/none.cu");
	rung_repo_free(r);
	git_repository_free(g);
}

static void test_incremental(void)
{
	const char *dir = t_tmpdir();
	git_repository *g = gf_init(dir);
	git_oid c;
	char body[64];
	for (int i = 0; i < 400; i++) {
		snprintf(body, sizeof(body), "v%d\n", i / 2); /* every other commit touches the kernel */
		const char *files[] = {"rung.ini", INI, "k.cu", body, "n", i % 2 ? "a" : "b", NULL};
		if (gf_commit(&c, g, "HEAD", NULL, -1, GF_T0 + i, "c", files) < 0)
			break;
	}
	rung_repo *r;
	CHECK_INT(rung_repo_open(&r, dir), 0);
	rung_history *h;
	rung_history_opts o = {.kernel_path = "k.cu"};
	CHECK_INT(rung_history_open(&h, r, &o), 0);
	rung_version v;
	for (int i = 0; i < 10; i++)
		CHECK_INT(rung_history_next(&v, h), 0);
	/* ten versions need about twenty commits, not four hundred */
	CHECK(rung_history_walked(h) <= 22);
	int n = 10;
	while (rung_history_next(&v, h) == 0)
		n++;
	CHECK_INT(n, 200);
	CHECK_INT(rung_history_walked(h), 400);
	rung_history_free(h);
	rung_repo_free(r);
	git_repository_free(g);
}

static void test_scan_includes(void)
{
	char **v;
	int n;
	CHECK_INT(rung_scan_includes(&v, &n, "#include \"a.h\"\n#include<b.h>\n\t# include \"c/d.cuh\" // x\n#include \"a.h\"\n#define X \"e.h\"\n#include \"f.h"), 0);
	CHECK_INT(n, 2);
	if (n == 2) {
		CHECK_STR(v[0], "a.h");
		CHECK_STR(v[1], "c/d.cuh");
	}
	rung_strv_free(v, n);
}

/* libgit2 holds no TLS trust anchors in rung's processes (vcs/repo.c: its
 * init no longer parses the system's CA certificates, #28): loading them
 * fails, so a TLS stream could verify no server. Where libgit2 is built
 * with OpenSSL, or there is no CA bundle, there is nothing to look at. */
static void test_no_ca_certificates(void)
{
	const char *bundle = "/etc/ssl/certs/ca-certificates.crt";
	struct stat st;
	rung_repo *r = NULL;
	if (rung_repo_open(&r, "/") == 0) /* libgit2 is initialised either way */
		rung_repo_free(r);
	rung_error_clear();
	if (!dlsym(RTLD_DEFAULT, "mbedtls_ssl_init") || stat(bundle, &st) != 0) {
		printf("skipped: libgit2 without mbedTLS, or no %s\n", bundle);
		return;
	}
	CHECK(git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, bundle, NULL) < 0);
	const git_error *e = git_error_last();
	CHECK_CONTAINS(e && e->message ? e->message : "", "failed to load CA certificates");
	git_error_clear();
}

int main(void)
{
	T_RUN(test_no_ca_certificates);
	T_RUN(test_scan_includes);
	T_RUN(test_only_kernel_commits);
	T_RUN(test_merge);
	T_RUN(test_rename);
	T_RUN(test_worktree_and_includes);
	T_RUN(test_incremental);
	return t_done();
}

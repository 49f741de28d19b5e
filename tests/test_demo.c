/* rung demo: the embedded examples (byte for byte the files in examples/),
 * the commit plan (ladder.txt) and its mistakes, the repository it builds
 * (commits, dates, notes, working tree) and recorded results kept apart from
 * live ones and labelled. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <git2.h>
#include <jansson.h>

#include "core/err.h"
#include "harness.h"
#include "app/demo.h"
#include "app/import.h"
#include "app/session.h"

/* The embedded copy of examples/<rel> equals the file on disk. */
static void check_same(const char *rel)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/examples/%s", RUNG_SOURCE_DIR, rel);
	size_t len = 0;
	char *disk = t_slurp(path, &len);
	const rung_demo_file *f = rung_demo_find(rel);
	CHECK(disk != NULL);
	if (!f)
		fprintf(stderr, "not embedded: %s\n", rel);
	CHECK(f != NULL);
	if (disk && f) {
		CHECK_INT(f->len, len);
		CHECK(f->len == len && memcmp(f->bytes, disk, len) == 0);
		CHECK_INT(f->bytes[f->len], 0);
	}
	free(disk);
}

static void test_embedded_table(void)
{
	const char *tasks[] = {"sgemm", "softmax"};
	const char *fixed[] = {"rung.ini", "reference.cu", "ladder.txt", "recorded.jsonl"};
	int ondisk = 1; /* examples/README.md */
	check_same("README.md");
	for (int t = 0; t < 2; t++) {
		char rel[512], path[1024];
		for (int k = 0; k < 4; k++) {
			snprintf(rel, sizeof(rel), "%s/%s", tasks[t], fixed[k]);
			snprintf(path, sizeof(path), "%s/examples/%s", RUNG_SOURCE_DIR, rel);
			struct stat st;
			if (stat(path, &st) == 0) {
				check_same(rel);
				ondisk++;
			} else {
				CHECK(k == 3); /* only recorded.jsonl is optional */
				CHECK(rung_demo_find(rel) == NULL);
			}
		}
		snprintf(path, sizeof(path), "%s/examples/%s/ladder", RUNG_SOURCE_DIR, tasks[t]);
		DIR *d = opendir(path);
		CHECK(d != NULL);
		int nladder = 0;
		struct dirent *de;
		while (d && (de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(rel, sizeof(rel), "%s/ladder/%s", tasks[t], de->d_name);
			check_same(rel);
			nladder++;
			ondisk++;
		}
		if (d)
			closedir(d);
		CHECK(nladder >= 4);
	}
	/* the softmax ladder's Triton step: embedded when committed */
	const char *triton[] = {"softmax-triton/softmax.ptx", "softmax-triton/softmax.json"};
	for (int k = 0; k < 2; k++) {
		char path[1024];
		snprintf(path, sizeof(path), "%s/examples/%s", RUNG_SOURCE_DIR, triton[k]);
		struct stat st;
		if (stat(path, &st) == 0) {
			check_same(triton[k]);
			ondisk++;
		} else {
			CHECK(rung_demo_find(triton[k]) == NULL);
		}
	}
	/* nothing embedded that is not on disk */
	CHECK_INT(rung_demo_nfiles, ondisk);
	CHECK(rung_demo_files[rung_demo_nfiles].path == NULL);
	CHECK(rung_demo_find("sgemm/nonexistent.cu") == NULL);
}

static int step_index(const rung_demo_plan *p, const char *task, const char *step)
{
	for (int i = 0; i < p->nsteps; i++)
		if (!strcmp(p->steps[i].task, task) && !strcmp(p->steps[i].step, step))
			return i;
	return -1;
}

static void test_plan(void)
{
	rung_demo_plan p;
	CHECK_INT(rung_demo_plan_load(&p), 0);
	CHECK_INT(p.ntasks, 2);
	CHECK_STR(p.tasks[0], "sgemm");
	CHECK_STR(p.tasks[1], "softmax");
	CHECK_STR(p.kernels[0], "sgemm.cu");
	CHECK_STR(p.kernels[1], "softmax.cu");
	/* every ladder .cu is a step, and every step has its file; the softmax
	 * ladder's Triton step (05-triton) lists its files instead, and is left
	 * out where the Triton PTX is not in the build */
	int nfiles = 0;
	for (int i = 0; i < rung_demo_nfiles; i++) {
		const char *path = rung_demo_files[i].path;
		size_t l = strlen(path);
		nfiles += strstr(path, "/ladder/") != NULL && l > 3 && !strcmp(path + l - 3, ".cu");
	}
	CHECK_INT(p.nsteps, nfiles + 1);
	CHECK_INT(p.nsteps, 16);
	const rung_demo_step *tr = &p.steps[15];
	CHECK_STR(tr->step, "05-triton");
	CHECK_INT(tr->nfiles, 3);
	CHECK_STR(tr->dest[0], "softmax.ptx");
	CHECK_STR(tr->src[0], "softmax-triton/softmax.ptx");
	CHECK_STR(tr->dest[1], "softmax.json");
	CHECK_STR(tr->dest[2], "rung.ini");
	CHECK_STR(tr->src[2], "softmax/ladder/05-triton.ini");
	bool have_ptx = rung_demo_find("softmax-triton/softmax.ptx") && rung_demo_find("softmax-triton/softmax.json");
	CHECK_STR(tr->missing, have_ptx ? "" : rung_demo_find("softmax-triton/softmax.ptx") ? "softmax-triton/softmax.json"
	                                                                                  : "softmax-triton/softmax.ptx");
	CHECK_STR(p.steps[0].step, "01-naive");
	CHECK_STR(p.steps[0].name, "rung-agent");
	CHECK_STR(p.steps[0].email, "agent@example.com");
	CHECK_INT(p.steps[0].time, 1748855040); /* 2025-06-02T09:04:00Z */
	CHECK_STR(p.steps[0].message, "sgemm: naive kernel, one thread per output element");
	CHECK_STR(p.steps[14].step, "04-vectorized");
	for (int i = 1; i < p.nsteps; i++)
		CHECK(p.steps[i - 1].time <= p.steps[i].time);
	CHECK_INT(p.nnotes, 9);
	CHECK_INT(p.notes[0].step, step_index(&p, "sgemm", "01-naive"));
	CHECK_INT(p.notes[0].verdict, RUNG_NOTE_BASELINE);
	CHECK_INT(p.notes[0].line, 14); /* examples/sgemm/ladder.txt:14 */
	CHECK_INT(p.notes[0].kind, RUNG_ENTRY_REMARK);
	int k = -1;
	for (int i = 0; i < p.nnotes; i++)
		if (p.notes[i].step == step_index(&p, "sgemm", "07-warptile-ntail"))
			k = i;
	CHECK(k >= 0);
	if (k >= 0) {
		CHECK_INT(p.notes[k].verdict, RUNG_NOTE_REJECT);
		CHECK_CONTAINS(p.notes[k].text, "the last N % 4 columns are never written");
	}
	rung_demo_plan_clear(&p);
}

static void expect_error(const char *text, const char *msg)
{
	rung_demo_plan p;
	memset(&p, 0, sizeof(p));
	CHECK_INT(rung_demo_plan_parse(&p, "sgemm", text, "x/ladder.txt"), RUNG_EINVAL);
	CHECK_CONTAINS(rung_error_last(), msg);
	rung_demo_plan_clear(&p);
}

static void test_plan_errors(void)
{
	const char *ok = "01-naive | A <a@b> | 2025-06-02T09:04:00Z | first\n";
	rung_demo_plan p;
	memset(&p, 0, sizeof(p));
	CHECK_INT(rung_demo_plan_parse(&p, "sgemm", ok, "x/ladder.txt"), 0);
	CHECK_INT(p.nsteps, 1);
	CHECK_STR(p.steps[0].name, "A");
	rung_demo_plan_clear(&p);

	expect_error("# c\n\n01-naive | A <a@b> | 2025-06-02T09:04:00Z\n", "x/ladder.txt:3: expected 4 fields");
	expect_error("99-nope | A <a@b> | 2025-06-02T09:04:00Z | m\n", "x/ladder.txt:1: step '99-nope' has no file sgemm/ladder/99-nope.cu");
	expect_error("01-naive | A | 2025-06-02T09:04:00Z | m\n", "x/ladder.txt:1: author 'A' is not 'Name <email>'");
	expect_error("01-naive | A <a@b> | 2025-06-02 09:04 | m\n", "x/ladder.txt:1: '2025-06-02 09:04' is not an ISO 8601 date");
	expect_error("01-naive | A <a@b> | 2025-06-02T09:04:00 | m\n", "x/ladder.txt:1: '2025-06-02T09:04:00': the date needs a zone");
	expect_error("01-naive | A <a@b> | 2025-06-02T09:04:00Z | m\n02-coalesced | A <a@b> | 2025-06-02T09:00:00Z | m\n",
		     "x/ladder.txt:2: date 2025-06-02T09:00:00Z is earlier than the step before");
	expect_error("remark | 01-naive | keep | too early\n", "x/ladder.txt:1: note on '01-naive', which is not an earlier step");
	expect_error("01-naive | A <a@b> | 2025-06-02T09:04:00Z | m\ndirective | 01-naive | great | x\n",
		     "x/ladder.txt:2: verdict 'great'");
	expect_error("01-naive | A <a@b> | 2025-06-02T09:04:00Z | m\n01-naive | A <a@b> | 2025-06-02T09:05:00Z | m\n",
		     "x/ladder.txt:2: step '01-naive' listed twice");
	expect_error("01-naive | A <a@b> | 2025-06-02T09:04:00Z | \n", "x/ladder.txt:1: empty commit message");
}

static void test_dates_and_sort(void)
{
	int64_t t;
	CHECK_INT(rung_demo_parse_date(&t, "2025-06-02T09:04:00Z"), 0);
	CHECK_INT(t, 1748855040);
	CHECK_INT(rung_demo_parse_date(&t, "2025-06-02T11:04:00+02:00"), 0);
	CHECK_INT(t, 1748855040);
	CHECK_INT(rung_demo_parse_date(&t, "2025-06-02T04:04:00-05:00"), 0);
	CHECK_INT(t, 1748855040);
	CHECK_INT(rung_demo_parse_date(&t, "2025-13-02T09:04:00Z"), RUNG_EINVAL);

	/* two tasks interleave by date; notes follow their steps */
	rung_demo_plan p;
	memset(&p, 0, sizeof(p));
	CHECK_INT(rung_demo_plan_parse(&p, "sgemm",
				       "01-naive | A <a@b> | 2025-06-02T09:00:00Z | s1\n"
				       "remark | 01-naive | baseline | b\n"
				       "02-coalesced | A <a@b> | 2025-06-02T09:20:00Z | s2\n"
				       "directive | 02-coalesced | keep | k\n",
				       "s"),
		  0);
	CHECK_INT(rung_demo_plan_parse(&p, "softmax",
				       "01-naive-three-pass | B <b@c> | 2025-06-02T09:10:00Z | x1\n"
				       "done | 01-naive-three-pass | best | n\n",
				       "x"),
		  0);
	rung_demo_plan_sort(&p);
	CHECK_INT(p.nsteps, 3);
	CHECK_STR(p.steps[0].message, "s1");
	CHECK_STR(p.steps[1].message, "x1");
	CHECK_STR(p.steps[2].message, "s2");
	CHECK_STR(p.steps[p.notes[0].step].message, "s1");
	CHECK_STR(p.steps[p.notes[1].step].message, "s2");
	CHECK_STR(p.steps[p.notes[2].step].message, "x1");
	rung_demo_plan_clear(&p);
}

/* The text of path at commit hex. */
static char *blob_at(git_repository *g, const char *hex, const char *path)
{
	git_oid id;
	git_commit *c = NULL;
	git_tree *tree = NULL;
	git_tree_entry *ent = NULL;
	git_blob *b = NULL;
	char *out = NULL;
	if (git_oid_fromstr(&id, hex) == 0 && git_commit_lookup(&c, g, &id) == 0 && git_commit_tree(&tree, c) == 0 &&
	    git_tree_entry_bypath(&ent, tree, path) == 0 && git_blob_lookup(&b, g, git_tree_entry_id(ent)) == 0) {
		size_t n = (size_t)git_blob_rawsize(b);
		out = malloc(n + 1);
		memcpy(out, git_blob_rawcontent(b), n);
		out[n] = 0;
	}
	git_blob_free(b);
	git_tree_entry_free(ent);
	git_tree_free(tree);
	git_commit_free(c);
	return out;
}

static const char *commit_of(const rung_demo_plan *p, const char *task, const char *step)
{
	int i = step_index(p, task, step);
	return i >= 0 ? p->steps[i].commit : "";
}

static void test_build(void)
{
	char dir[600];
	snprintf(dir, sizeof(dir), "%s/sub/demo", t_tmpdir()); /* parents are created */
	rung_demo_plan p;
	CHECK_INT(rung_demo_plan_load(&p), 0);
	rung_demo_report rep;
	CHECK_INT(rung_demo_build(&rep, &p, dir, "demo"), 0);
	/* the Triton step is a commit (and its remark a note) only with its PTX in the build */
	bool tri = !p.steps[p.nsteps - 1].missing[0];
	CHECK_INT(rep.commits, 16 + tri);
	CHECK_INT(rep.notes, 8 + tri);
	CHECK_INT(rep.skipped, !tri);
	if (!tri)
		CHECK_CONTAINS(rep.skip_note, "softmax step 05-triton left out: examples/softmax-triton/softmax.ptx is not in this build");
	CHECK_STR(rep.head, p.steps[p.nsteps - 1 - !tri].commit);

	git_libgit2_init();
	git_repository *g = NULL;
	CHECK_INT(git_repository_open(&g, dir), 0);
	/* a linear history: setup commit, then the steps in plan order */
	git_revwalk *w = NULL;
	CHECK_INT(git_revwalk_new(&w, g), 0);
	git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	git_revwalk_push_head(w);
	git_oid id;
	int n = 0;
	while (git_revwalk_next(&id, w) == 0) {
		git_commit *c = NULL;
		CHECK_INT(git_commit_lookup(&c, g, &id), 0);
		char hex[41];
		git_oid_tostr(hex, sizeof(hex), &id);
		const git_signature *a = git_commit_author(c);
		if (n == 0) {
			CHECK_STR(a->name, RUNG_DEMO_HUMAN_NAME);
			CHECK_INT(git_commit_time(c), 1748855040 - 1800);
			CHECK_CONTAINS(git_commit_message(c), "sgemm and softmax");
		} else if (n <= p.nsteps) {
			const rung_demo_step *s = &p.steps[n - 1];
			CHECK_STR(hex, s->commit);
			CHECK_STR(a->name, s->name);
			CHECK_STR(a->email, s->email);
			CHECK_INT(a->when.time, s->time);
			CHECK_INT(git_commit_committer(c)->when.time, s->time);
			char msg[600];
			snprintf(msg, sizeof(msg), "%s\n", s->message);
			CHECK_STR(git_commit_message(c), msg);
		}
		CHECK_INT(git_commit_parentcount(c), n ? 1 : 0);
		git_commit_free(c);
		n++;
	}
	CHECK_INT(n, 16 + tri);
	git_revwalk_free(w);

	/* each step commit holds its ladder file as the task's kernel file */
	const char *checks[][3] = {
		{"sgemm", "06-float4-transposedA-typo", "sgemm/sgemm.cu"},
		{"sgemm", "08-tf32-mma", "sgemm/sgemm.cu"},
		{"softmax", "02-warp-per-row", "softmax/softmax.cu"},
	};
	for (int i = 0; i < 3; i++) {
		char rel[512];
		snprintf(rel, sizeof(rel), "%s/ladder/%s.cu", checks[i][0], checks[i][1]);
		const rung_demo_file *f = rung_demo_find(rel);
		char *got = blob_at(g, commit_of(&p, checks[i][0], checks[i][1]), checks[i][2]);
		CHECK(f && got && strlen(got) == f->len && !memcmp(got, f->bytes, f->len));
		free(got);
	}
	/* softmax's kernel file does not exist before its first step */
	char *none = blob_at(g, commit_of(&p, "sgemm", "08-tf32-mma"), "softmax/softmax.cu");
	CHECK(none == NULL);
	free(none);
	char *ini = blob_at(g, rep.head, "softmax/rung.ini");
	const char *want_ini = tri ? "softmax/ladder/05-triton.ini" : "softmax/rung.ini";
	CHECK(ini && !memcmp(ini, rung_demo_find(want_ini)->bytes, strlen(ini)));
	free(ini);
	if (tri) { /* the Triton step: its PTX and sidecar next to the CUDA kernel of 04 */
		char *ptx = blob_at(g, rep.head, "softmax/softmax.ptx"), *cu = blob_at(g, rep.head, "softmax/softmax.cu");
		CHECK(ptx && !memcmp(ptx, rung_demo_find("softmax-triton/softmax.ptx")->bytes, strlen(ptx)));
		CHECK(cu && !memcmp(cu, rung_demo_find("softmax/ladder/04-vectorized.cu")->bytes, strlen(cu)));
		free(ptx);
		free(cu);
	}
	/* the working tree is HEAD, and no user.name is left in the repository's config */
	char path[1024];
	snprintf(path, sizeof(path), "%s/sgemm/sgemm.cu", dir);
	size_t len = 0;
	char *wt = t_slurp(path, &len);
	const rung_demo_file *last = rung_demo_find("sgemm/ladder/08-tf32-mma.cu");
	CHECK(wt && last && len == last->len && !memcmp(wt, last->bytes, len));
	free(wt);
	snprintf(path, sizeof(path), "%s/.git/config", dir);
	char *cfg = t_slurp(path, NULL);
	CHECK(cfg && !strstr(cfg, "[user]"));
	free(cfg);
	git_repository_free(g);

	/* steering notes, by the human, a couple of minutes after their commit */
	rung_repo *r = NULL;
	CHECK_INT(rung_repo_open(&r, dir), 0);
	rung_note note;
	CHECK_INT(rung_note_read(&note, r, commit_of(&p, "sgemm", "01-naive")), 0);
	CHECK_INT(note.verdict, RUNG_NOTE_BASELINE);
	CHECK_INT(note.ndirectives, 1);
	if (note.ndirectives == 1) {
		CHECK_STR(note.directives[0].author, RUNG_DEMO_HUMAN_NAME);
		CHECK_INT(note.directives[0].time, 1748855040 + 120);
		CHECK_CONTAINS(note.directives[0].text, "Baseline for this ladder");
		CHECK(note.directives[0].remark); /* a remark on the baseline, not a directive */
		CHECK(!rung_directive_open(&note.directives[0]));
	}
	rung_note_clear(&note);
	CHECK_INT(rung_note_read(&note, r, commit_of(&p, "sgemm", "07-warptile")), 0);
	CHECK_INT(note.verdict, RUNG_NOTE_NONE);
	CHECK_INT(note.ndirectives, 1);
	if (note.ndirectives == 1) {
		CHECK_CONTAINS(note.directives[0].text, "mma.sync m16n8k8");
		CHECK(rung_directive_open(&note.directives[0])); /* the ladder's one open directive */
	}
	rung_note_clear(&note);
	CHECK_INT(rung_note_read(&note, r, commit_of(&p, "sgemm", "05-2d-regblock")), 0);
	CHECK(note.ndirectives == 1 && note.directives[0].done && !note.directives[0].remark); /* followed by 06 */
	rung_note_clear(&note);
	CHECK_INT(rung_note_read(&note, r, commit_of(&p, "sgemm", "02-coalesced")), RUNG_ENOTFOUND);
	rung_repo_free(r);

	/* the same binary makes the same commits anywhere */
	char dir2[700];
	snprintf(dir2, sizeof(dir2), "%s/again", t_tmpdir());
	rung_demo_plan p2;
	CHECK_INT(rung_demo_plan_load(&p2), 0);
	rung_demo_report rep2;
	CHECK_INT(rung_demo_build(&rep2, &p2, dir2, "demo"), 0);
	CHECK_STR(rep2.head, rep.head);
	rung_demo_plan_clear(&p2);

	/* a non-empty directory is refused and left alone */
	CHECK_INT(rung_demo_build(&rep2, &p, dir, "demo"), RUNG_EINVAL);
	CHECK_CONTAINS(rung_error_last(), "is not empty");
	snprintf(path, sizeof(path), "%s/README.md", dir);
	struct stat st;
	CHECK_INT(stat(path, &st), 0);
	rung_demo_plan_clear(&p);
}

/* One `rung export` line for a passing result at `commit` (may be NULL) with `content`. */
static char *export_line(const char *key, const char *content, const char *commit, double median)
{
	rung_result r;
	rung_result_init(&r);
	snprintf(r.key, sizeof(r.key), "%s", key);
	r.created = 1764417600; /* 2025-11-29 12:00 UTC */
	for (int s = RUNG_STEP_COMPILE; s <= RUNG_STEP_BENCH; s++)
		r.steps[s].status = RUNG_S_OK;
	r.compile.kernel.valid = true;
	r.compile.kernel.regs = 40;
	r.bench.valid = true;
	r.bench.median = median;
	r.bench.tflops = 1.25;
	r.env.valid = true;
	snprintf(r.env.gpu, sizeof(r.env.gpu), "NVIDIA H200");
	snprintf(r.env.uuid, sizeof(r.env.uuid), "GPU-0000");
	char *rj = rung_result_to_json(&r);
	json_t *o = json_object();
	json_object_set_new(o, "rung_export", json_integer(1));
	json_object_set_new(o, "content", json_string(content));
	json_t *cs = json_array();
	if (commit)
		json_array_append_new(cs, json_string(commit));
	json_object_set_new(o, "commits", cs);
	json_object_set_new(o, "result", json_loads(rj, 0, NULL));
	char *line = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	free(rj);
	rung_result_clear(&r);
	return line;
}

static void test_recorded(void)
{
	char dir[600];
	snprintf(dir, sizeof(dir), "%s/rec", t_tmpdir());
	rung_demo_plan p;
	CHECK_INT(rung_demo_plan_load(&p), 0);
	p.skip_recorded = true; /* only the made-up lines below */
	rung_demo_report rep;
	CHECK_INT(rung_demo_build(&rep, &p, dir, "demo"), 0);

	/* the content of softmax 02, for a result linked by content only */
	rung_vctx c;
	rung_vctx_opts o = {.dir = dir, .task = "softmax"};
	CHECK_INT(rung_vctx_open(&c, "demo", &o, RUNG_VCTX_TASK | RUNG_VCTX_STORE), 0);
	rung_source src;
	/* (its own kernel: HEAD's rung.ini names softmax.ptx once the Triton step is in) */
	CHECK_INT(rung_vtask_source_at(&src, &c.task, commit_of(&p, "softmax", "02-warp-per-row")), 0);
	char content[65];
	rung_vtask_content(content, &c.task, &src);
	rung_source_clear(&src);
	char *l1 = export_line("1111111111111111111111111111111111111111111111111111111111111111", "c1",
			       commit_of(&p, "softmax", "01-naive-three-pass"), 2.5);
	char *l2 = export_line("2222222222222222222222222222222222222222222222222222222222222222", content, NULL, 2.0);
	char buf[32768];
	snprintf(buf, sizeof(buf), "%s\n%s\n", l1, l2);
	free(l1);
	free(l2);
	FILE *in = fmemopen(buf, strlen(buf), "r");
	int n = 0;
	CHECK_INT(rung_import_stream(&n, c.store, in, "rec.jsonl"), 0);
	fclose(in);
	CHECK_INT(n, 2);
	/* live lookups never see them */
	rung_vrow *rows;
	int nrows;
	CHECK_INT(rung_vctx_rows(&rows, &nrows, &c, NULL, 0), 0);
	bool tri = !p.steps[p.nsteps - 1].missing[0];
	CHECK_INT(nrows, 4 + tri);
	for (int i = 0; i < nrows; i++)
		CHECK(rows[i].result == NULL);
	rung_vrows_free(rows, nrows);
	rung_vctx_close(&c);

	/* the demo table shows them, labelled, and compiles the rest */
	char out[700];
	snprintf(out, sizeof(out), "%s/show.txt", t_tmpdir());
	FILE *f = fopen(out, "w");
	rung_demo_plan one = p;
	one.ntasks = 2;
	CHECK_INT(rung_demo_show(f, dir, &one, false), 0);
	fclose(f);
	char *text = t_slurp(out, NULL);
	CHECK_CONTAINS(text, tri ? "softmax: 5 versions of softmax/softmax.ptx, newest first"
	                         : "softmax: 4 versions of softmax/softmax.cu, newest first");
	CHECK_CONTAINS(text, "recorded on NVIDIA H200, 2025-11-29");
	CHECK_CONTAINS(text, "2 versions with results recorded on another machine (not measured here).");
	char want[256];
	/* 01 is the baseline (its verdict); 02 is 1.25x faster, said as every
	 * screen says a speedup (#28 D-3: this table said -20.0%) */
	snprintf(want, sizeof(want), "%.7s  06-03 14:02 ok ok ok ok -                40/0     2.5       base         1.25 TFLOP/s   baseline",
		 commit_of(&p, "softmax", "01-naive-three-pass"));
	CHECK_CONTAINS(text, want);
	snprintf(want, sizeof(want), "%.7s  06-03 14:25 ok ok ok ok -                40/0     2         1.25x +-0.04 1.25 TFLOP/s",
		 commit_of(&p, "softmax", "02-warp-per-row"));
	CHECK_CONTAINS(text, want);
	snprintf(want, sizeof(want), "%.7s  06-03 15:20 not evaluated", commit_of(&p, "softmax", "04-vectorized"));
	CHECK_CONTAINS(text, want);
	free(text);
	rung_demo_plan_clear(&p);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	T_RUN(test_embedded_table);
	T_RUN(test_plan);
	T_RUN(test_plan_errors);
	T_RUN(test_dates_and_sort);
	T_RUN(test_build);
	T_RUN(test_recorded);
	return t_done();
}

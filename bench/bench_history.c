/* Incremental history listing: builds a 10,000-commit repository with libgit2
 * (every other commit changes the kernel) and measures the time to the first
 * 50 versions and to all of them. Usage: bench_history [NCOMMITS] [DIR] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <git2.h>

#include "core/err.h"
#include "core/timing.h"
#include "vcs/history.h"
#include "vcs/repo.h"

static int build(const char *dir, int ncommits)
{
	git_repository *g;
	if (git_repository_init(&g, dir, 0) < 0)
		return -1;
	git_odb *odb;
	git_repository_odb(&odb, g);
	git_oid ini, other, parent;
	const char *ini_text = "[task]\nname = k\nkernel = k.cu\nentry = k\n";
	git_odb_write(&ini, odb, ini_text, strlen(ini_text), GIT_OBJECT_BLOB);
	git_signature *sig;
	git_signature_new(&sig, "Ada Lovelace", "ada@example.com", 1764432000, 0);
	int have_parent = 0;
	git_oid kblob;
	for (int i = 0; i < ncommits; i++) {
		char text[64];
		if (i % 2 == 0) {
			snprintf(text, sizeof(text), "// version %d\n__global__ void k() {}\n", i / 2);
			git_odb_write(&kblob, odb, text, strlen(text), GIT_OBJECT_BLOB);
		}
		snprintf(text, sizeof(text), "notes %d\n", i);
		git_odb_write(&other, odb, text, strlen(text), GIT_OBJECT_BLOB);
		/* tree: task/{rung.ini,k.cu} + NOTES */
		git_treebuilder *tb, *sub;
		git_oid subtree, tree_id, commit;
		git_treebuilder_new(&sub, g, NULL);
		git_treebuilder_insert(NULL, sub, "rung.ini", &ini, GIT_FILEMODE_BLOB);
		git_treebuilder_insert(NULL, sub, "k.cu", &kblob, GIT_FILEMODE_BLOB);
		git_treebuilder_write(&subtree, sub);
		git_treebuilder_free(sub);
		git_treebuilder_new(&tb, g, NULL);
		git_treebuilder_insert(NULL, tb, "task", &subtree, GIT_FILEMODE_TREE);
		git_treebuilder_insert(NULL, tb, "NOTES", &other, GIT_FILEMODE_BLOB);
		git_treebuilder_write(&tree_id, tb);
		git_treebuilder_free(tb);
		git_tree *tree;
		git_tree_lookup(&tree, g, &tree_id);
		git_commit *pc = NULL;
		if (have_parent)
			git_commit_lookup(&pc, g, &parent);
		sig->when.time = 1764432000 + i;
		char msg[64];
		snprintf(msg, sizeof(msg), "commit %d", i);
		const git_commit *parents[1] = {pc};
		if (git_commit_create(&commit, g, "HEAD", sig, sig, NULL, msg, tree, have_parent ? 1 : 0, parents) < 0) {
			fprintf(stderr, "commit %d: %s\n", i, git_error_last()->message);
			return -1;
		}
		git_commit_free(pc);
		git_tree_free(tree);
		parent = commit;
		have_parent = 1;
	}
	git_signature_free(sig);
	git_odb_free(odb);
	git_repository_free(g);
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10000;
	char dir[256];
	if (argc > 2) {
		snprintf(dir, sizeof(dir), "%s", argv[2]);
	} else {
		snprintf(dir, sizeof(dir), "/tmp/rung-bench-history-XXXXXX");
		if (!mkdtemp(dir))
			return 1;
	}
	git_libgit2_init();
	double t0 = rung_now_s();
	if (build(dir, n) < 0)
		return 1;
	double t1 = rung_now_s();
	printf("built %d commits in %s: %.2f s\n", n, dir, t1 - t0);

	rung_repo *r;
	if (rung_repo_open(&r, dir) < 0) {
		fprintf(stderr, "%s\n", rung_error_last());
		return 1;
	}
	rung_history *h;
	rung_history_opts o = {.kernel_path = "task/k.cu", .spec_path = "task/rung.ini"};
	double s0 = rung_now_s();
	if (rung_history_open(&h, r, &o) < 0) {
		fprintf(stderr, "%s\n", rung_error_last());
		return 1;
	}
	rung_version v;
	int got = 0;
	while (got < 50 && rung_history_next(&v, h) == 0)
		got++;
	double s1 = rung_now_s();
	int64_t walked50 = rung_history_walked(h);
	while (rung_history_next(&v, h) == 0)
		got++;
	double s2 = rung_now_s();
	printf("first 50 versions: %.2f ms (%lld commits walked)\n", (s1 - s0) * 1e3, (long long)walked50);
	printf("all %d versions: %.2f ms (%lld commits walked)\n", got, (s2 - s0) * 1e3,
	       (long long)rung_history_walked(h));
	rung_history_free(h);
	rung_repo_free(r);
	return got == n / 2 + n % 2 ? 0 : 2;
}

/* Throwaway git repositories for tests (tests/gitfix.h). */
#include "gitfix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

git_repository *gf_init(const char *dir)
{
	git_libgit2_init();
	git_repository *g = NULL;
	if (git_repository_init(&g, dir, 0) < 0) {
		fprintf(stderr, "git init %s: %s\n", dir, git_error_last()->message);
		return NULL;
	}
	git_config *cfg = NULL;
	if (git_repository_config(&cfg, g) == 0) {
		git_config_set_string(cfg, "user.name", "Ada Lovelace");
		git_config_set_string(cfg, "user.email", "ada@example.com");
		git_config_free(cfg);
	}
	return g;
}

int gf_commit(git_oid *out, git_repository *g, const char *ref, const git_oid *parents, int nparents,
	      int64_t when, const char *msg, const char **files)
{
	git_index *idx = NULL;
	if (git_repository_index(&idx, g) < 0)
		return -1;
	git_index_clear(idx);
	for (int i = 0; files[i]; i += 2) {
		git_index_entry e;
		memset(&e, 0, sizeof(e));
		e.path = files[i];
		e.mode = GIT_FILEMODE_BLOB;
		if (git_index_add_from_buffer(idx, &e, files[i + 1], strlen(files[i + 1])) < 0) {
			git_index_free(idx);
			return -1;
		}
	}
	git_oid tree_id;
	git_tree *tree = NULL;
	int err = git_index_write_tree(&tree_id, idx) < 0 || git_tree_lookup(&tree, g, &tree_id) < 0;
	git_commit *pc[4] = {0};
	int np = 0;
	if (!err && nparents < 0) {
		git_oid head;
		if (git_reference_name_to_id(&head, g, "HEAD") == 0 && git_commit_lookup(&pc[0], g, &head) == 0)
			np = 1;
	} else {
		for (int i = 0; !err && i < nparents; i++)
			err = git_commit_lookup(&pc[np++], g, &parents[i]) < 0;
	}
	git_signature *sig = NULL;
	if (!err)
		err = git_signature_new(&sig, "Ada Lovelace", "ada@example.com", when, 0) < 0;
	if (!err)
		err = git_commit_create(out, g, ref, sig, sig, NULL, msg, tree, (size_t)np, (const git_commit **)pc) < 0;
	if (!err && ref) {
		git_index_write(idx);
		const char *wd = git_repository_workdir(g);
		for (int i = 0; files[i]; i += 2) {
			char path[1024];
			snprintf(path, sizeof(path), "%s%s", wd, files[i]);
			t_write(path, files[i + 1]);
		}
	}
	if (err)
		fprintf(stderr, "gf_commit '%s': %s\n", msg, git_error_last() ? git_error_last()->message : "?");
	git_signature_free(sig);
	for (int i = 0; i < np; i++)
		git_commit_free(pc[i]);
	git_tree_free(tree);
	git_index_free(idx);
	return err ? -1 : 0;
}

void gf_hex(char out[41], const git_oid *oid) { git_oid_tostr(out, 41, oid); }

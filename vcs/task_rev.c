#include "vcs/task_rev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/err.h"
#include "core/fs.h"
#include "vcs/store.h"

int rung_vtask_open(rung_vtask *out, rung_repo *r, const char *dir, const char *spec_rev)
{
	memset(out, 0, sizeof(*out));
	out->repo = r;
	out->dir = strdup(dir ? dir : "");
	out->spec_path = rung_repo_join(out->dir ? out->dir : "", "rung.ini");
	if (!out->dir || !out->spec_path) {
		rung_vtask_clear(out);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	int e;
	if (spec_rev) {
		e = rung_repo_resolve(out->spec_rev, r, spec_rev);
	} else {
		char blob[41];
		e = rung_repo_resolve(out->spec_rev, r, "HEAD");
		if (e < 0 || rung_repo_blob_id(blob, r, out->spec_rev, out->spec_path) < 0)
			e = rung_repo_resolve(out->spec_rev, r, "WORKTREE");
	}
	if (e < 0 || (e = rung_repo_read(&out->spec_text, NULL, r, out->spec_rev, out->spec_path)) < 0) {
		rung_vtask_clear(out);
		return e;
	}
	char *absdir = rung_repo_join(rung_repo_workdir(r), out->dir);
	e = rung_spec_parse(&out->spec, out->spec_text, out->spec_path, absdir ? absdir : ".");
	free(absdir);
	if (e == 0) {
		rung_spec_default_inputs(out->spec); /* normal + wide unless the spec says (docs/SPEC.md) */
		rung_spec_default_checks(out->spec); /* a size set below the block where the dims allow */
	}
	/* every file the spec names stays in the repository: the kernel and the
	 * reference are read from git by repo-relative paths (none absolute, no ".."
	 * above the root), headers, npy: inputs and golden files from the working
	 * tree (symlinks followed); a bare repository: spec->dir is repo-relative,
	 * the check textual */
	if (e == 0)
		e = rung_spec_confine(out->spec, rung_repo_workdir(r)[0] ? rung_repo_workdir(r) : NULL, "the repository");
	/* the headers dirs are read from the working tree (the compile's -I), so they must be there */
	if (e == 0 && rung_repo_workdir(r)[0])
		e = rung_spec_check_headers(out->spec);
	if (e < 0) {
		rung_vtask_clear(out);
		return e;
	}
	if (!out->spec->kernel) {
		e = rung_error_set(RUNG_EINVAL, "%s: [task] has no kernel", out->spec_path);
		rung_vtask_clear(out);
		return e;
	}
	out->kernel_path = rung_repo_join(out->dir, out->spec->kernel);
	size_t ol = 64 + (out->spec->options ? strlen(out->spec->options) : 0);
	out->options = malloc(ol);
	if (!out->kernel_path || !out->options) {
		rung_vtask_clear(out);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	snprintf(out->options, ol, "%s --arch=%s", out->spec->options ? out->spec->options : "",
		 out->spec->arch ? out->spec->arch : "device");
	if (out->spec->reference) {
		char *rp = rung_repo_join(out->dir, out->spec->reference);
		e = rp ? rung_source_read(&out->ref, r, out->spec_rev, rp) : RUNG_ENOMEM;
		free(rp);
		if (e < 0) {
			rung_vtask_clear(out);
			return e == RUNG_ENOMEM ? rung_error_set(e, "out of memory") : e;
		}
	}
	return 0;
}

void rung_vtask_clear(rung_vtask *t)
{
	if (!t)
		return;
	free(t->dir);
	free(t->spec_path);
	free(t->spec_text);
	rung_spec_free(t->spec);
	free(t->kernel_path);
	free(t->options);
	rung_source_clear(&t->ref);
	memset(t, 0, sizeof(*t));
}

/* The [task] kernel (repo-relative) and entry of the task's own rung.ini at
 * rev; both NULL when it has none or names no kernel. */
static int own_task(char **kernel, char **entry, const rung_vtask *t, const char *rev)
{
	*kernel = *entry = NULL;
	char *text = NULL;
	if (rung_repo_read(&text, NULL, t->repo, rev, t->spec_path) < 0) {
		rung_error_clear();
		return 0;
	}
	char *k = NULL;
	int e = rung_spec_peek_task(&k, entry, text);
	free(text);
	if (e < 0)
		return e;
	if (k && rung_fs_rel_inside(k))
		*kernel = rung_repo_join(t->dir, k);
	free(k);
	if (!*kernel) {
		free(*entry);
		*entry = NULL;
	}
	return 0;
}

int rung_vtask_kernel_at(char **path, const rung_vtask *t, const char *rev)
{
	*path = NULL;
	char *k, *entry;
	int e = own_task(&k, &entry, t, rev);
	free(entry);
	if (e < 0)
		return e;
	char blob[41];
	if (k && strcmp(k, t->kernel_path) && rung_repo_blob_id(blob, t->repo, rev, k) == 0) {
		*path = k;
		return 0;
	}
	rung_error_clear();
	free(k);
	return 0;
}

int rung_vtask_source(rung_source *out, const rung_vtask *t, const char *rev, const char *kernel_path)
{
	int e = rung_source_read(out, t->repo, rev, kernel_path ? kernel_path : t->kernel_path);
	if (e < 0 || !kernel_path || !strcmp(kernel_path, t->kernel_path))
		return e;
	/* another kernel than the spec's: the entry its own rung.ini names with it */
	char *k, *entry;
	if ((e = own_task(&k, &entry, t, rev)) < 0) {
		rung_source_clear(out);
		return e;
	}
	if (k && !strcmp(k, kernel_path) && entry && t->spec->entry && strcmp(entry, t->spec->entry)) {
		out->entry = entry;
		entry = NULL;
	}
	free(k);
	free(entry);
	return 0;
}

void rung_vtask_content(char out[65], const rung_vtask *t, const rung_source *k)
{
	rung_key_input in = {
		.kernel_src = k->text,
		.kernel_len = k->len,
		.headers = k->headers,
		.nheaders = k->nheaders,
		.ref_src = t->ref.text,
		.ref_headers = t->ref.headers,
		.nref_headers = t->ref.nheaders,
		.spec_text = t->spec_text,
		.options = t->options,
		.sidecar = k->sidecar,
		.sidecar_len = k->sidecar_len,
		.entry = k->entry,
	};
	rung_content_hash(out, &in);
}

rung_history_opts rung_vtask_history_opts(const rung_vtask *t)
{
	rung_history_opts o = {0};
	o.kernel_path = t->kernel_path;
	o.spec_path = t->spec_path;
	o.spec_rev = strcmp(t->spec_rev, "WORKTREE") ? t->spec_rev : NULL;
	o.worktree = true;
	return o;
}

int rung_arg_is_rev(rung_repo *r, const char *arg)
{
	struct stat st;
	if (!arg || !*arg || stat(arg, &st) == 0)
		return 0;
	char id[41];
	int e = rung_repo_resolve(id, r, arg);
	rung_error_clear();
	return e == 0;
}

int rung_vtask_source_at(rung_source *out, const rung_vtask *t, const char *rev)
{
	memset(out, 0, sizeof(*out));
	char *k = NULL;
	int e = rung_vtask_kernel_at(&k, t, rev);
	if (e == 0)
		e = rung_vtask_source(out, t, rev, k);
	free(k);
	return e;
}

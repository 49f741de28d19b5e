#include "vcs/history.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "core/err.h"
#include "core/fs.h"
#include "core/spec.h"
#include "core/sidecar.h" /* rung_sidecar_path */

struct rung_history {
	rung_repo *repo;
	git_revwalk *walk;
	char *path;        /* the kernel path being followed */
	char *spec_path;
	bool have_spec_blob;
	git_oid spec_blob;
	bool no_follow, stop;
	bool pending_worktree;
	rung_version worktree;
	int64_t walked;
	/* one-entry cache: blob of `cache_path` in commit `cache_commit` */
	bool cache_valid, cache_present;
	git_oid cache_commit, cache_blob;
	char *cache_path;
};

/* Blob id of path in commit; 1 if present, 0 if absent, negative on error. */
static int blob_in(git_oid *blob, git_repository *g, const git_commit *c, const char *path)
{
	git_tree *tree = NULL;
	int e = git_commit_tree(&tree, c);
	if (e < 0)
		return rung_git_error(e, "commit tree");
	git_tree_entry *te = NULL;
	e = git_tree_entry_bypath(&te, tree, path);
	git_tree_free(tree);
	(void)g;
	if (e == GIT_ENOTFOUND)
		return 0;
	if (e < 0)
		return rung_git_error(e, path);
	int ok = git_tree_entry_type(te) == GIT_OBJECT_BLOB;
	if (ok)
		git_oid_cpy(blob, git_tree_entry_id(te));
	git_tree_entry_free(te);
	return ok;
}

static int blob_in_oid(git_oid *blob, rung_history *h, const git_oid *commit_id, const char *path)
{
	if (h->cache_valid && git_oid_equal(&h->cache_commit, commit_id) && !strcmp(h->cache_path, path)) {
		if (h->cache_present)
			git_oid_cpy(blob, &h->cache_blob);
		return h->cache_present;
	}
	git_repository *g = rung_repo_git(h->repo);
	git_commit *c = NULL;
	int e = git_commit_lookup(&c, g, commit_id);
	if (e < 0)
		return rung_git_error(e, "commit lookup");
	e = blob_in(blob, g, c, path);
	git_commit_free(c);
	return e;
}

static void cache_put(rung_history *h, const git_oid *commit_id, const char *path, int present, const git_oid *blob)
{
	if (!h->cache_path || strcmp(h->cache_path, path)) {
		free(h->cache_path);
		h->cache_path = strdup(path);
	}
	h->cache_valid = h->cache_path != NULL;
	git_oid_cpy(&h->cache_commit, commit_id);
	h->cache_present = present > 0;
	if (present > 0)
		git_oid_cpy(&h->cache_blob, blob);
}

static void copy_str(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src ? src : "");
}

static void fill_commit(rung_version *v, const git_commit *c)
{
	git_oid_tostr(v->id, sizeof(v->id), git_commit_id(c));
	snprintf(v->short_id, sizeof(v->short_id), "%.7s", v->id);
	const git_signature *a = git_commit_author(c);
	copy_str(v->author, sizeof(v->author), a->name);
	copy_str(v->email, sizeof(v->email), a->email);
	v->time = a->when.time;
	v->tz_offset = a->when.offset;
	copy_str(v->subject, sizeof(v->subject), git_commit_summary((git_commit *)c));
	v->merge = git_commit_parentcount(c) > 1;
}

/* The old path of a file renamed to `path` between two trees, if any. */
static int find_rename(char *old, size_t n, git_repository *g, const git_commit *parent, const git_commit *c,
		       const char *path)
{
	git_tree *a = NULL, *b = NULL;
	git_diff *diff = NULL;
	int found = 0, e;
	if ((e = git_commit_tree(&a, parent)) < 0 || (e = git_commit_tree(&b, c)) < 0)
		goto done;
	git_diff_options o;
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	if ((e = git_diff_tree_to_tree(&diff, g, a, b, &o)) < 0)
		goto done;
	git_diff_find_options fo;
	git_diff_find_options_init(&fo, GIT_DIFF_FIND_OPTIONS_VERSION);
	fo.flags = GIT_DIFF_FIND_RENAMES;
	if ((e = git_diff_find_similar(diff, &fo)) < 0)
		goto done;
	size_t nd = git_diff_num_deltas(diff);
	for (size_t i = 0; i < nd; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		if (d->status == GIT_DELTA_RENAMED && !strcmp(d->new_file.path, path)) {
			snprintf(old, n, "%s", d->old_file.path);
			found = 1;
			break;
		}
	}
done:
	git_diff_free(diff);
	git_tree_free(a);
	git_tree_free(b);
	if (e < 0)
		return rung_git_error(e, "rename detection");
	return found;
}

/* The kernel (repo-relative) that commit c's own rung.ini names, with *sblob
 * its blob; 0 and *out NULL when it has none. */
static int own_kernel(char **out, git_oid *sblob, rung_history *h, const git_commit *c)
{
	*out = NULL;
	git_repository *g = rung_repo_git(h->repo);
	int e = blob_in(sblob, g, c, h->spec_path);
	if (e <= 0)
		return e;
	git_blob *b = NULL;
	if ((e = git_blob_lookup(&b, g, sblob)) < 0)
		return rung_git_error(e, h->spec_path);
	size_t n = (size_t)git_blob_rawsize(b);
	char *text = malloc(n + 1);
	if (!text) {
		git_blob_free(b);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	memcpy(text, git_blob_rawcontent(b), n);
	text[n] = 0;
	git_blob_free(b);
	char *k = NULL, *entry = NULL;
	e = rung_spec_peek_task(&k, &entry, text);
	free(text);
	free(entry);
	if (e < 0)
		return e;
	if (k && rung_fs_rel_inside(k)) {
		char *dir = rung_fs_dir_of(h->spec_path);
		*out = dir ? rung_repo_join(strcmp(dir, ".") ? dir : "", k) : NULL;
		free(dir);
		if (!*out)
			e = rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	free(k);
	return e;
}

/* At a commit whose rung.ini changes `kernel =` from another file to the one
 * followed (softmax.cu -> softmax.ptx), the other file as its parent holds it:
 * 1 and *old set (caller frees), 0 when this commit switches nothing. */
static int kernel_switch(char **old, rung_history *h, const git_commit *c, const git_commit *parent)
{
	*old = NULL;
	if (!h->spec_path || !parent)
		return 0;
	git_oid sc, sp;
	git_repository *g = rung_repo_git(h->repo);
	/* most commits leave rung.ini alone: two tree lookups, no blob read */
	int hc = blob_in(&sc, g, c, h->spec_path), hp = hc > 0 ? blob_in(&sp, g, parent, h->spec_path) : 0;
	if (hc <= 0 || hp <= 0 || git_oid_equal(&sc, &sp))
		return hc < 0 ? hc : hp < 0 ? hp : 0;
	char *kc = NULL, *kp = NULL;
	int e = own_kernel(&kc, &sc, h, c);
	if (e >= 0 && kc && !strcmp(kc, h->path))
		e = own_kernel(&kp, &sp, h, parent);
	int found = 0;
	if (e >= 0 && kp && strcmp(kp, h->path)) {
		git_oid pb;
		e = blob_in(&pb, rung_repo_git(h->repo), parent, kp);
		if (e > 0) {
			*old = kp;
			kp = NULL;
			found = 1;
		}
	}
	free(kc);
	free(kp);
	return e < 0 ? e : found;
}

/* Two rung.ini blobs that differ only in their [goal] sections (a goal is no
 * part of what is measured: core/spec.h rung_spec_text_without_goal). */
static bool same_but_goal(git_repository *g, const git_oid *a, const git_oid *b)
{
	git_blob *ba = NULL, *bb = NULL;
	bool same = false;
	if (git_blob_lookup(&ba, g, a) == 0 && git_blob_lookup(&bb, g, b) == 0) {
		char *ta = strndup(git_blob_rawcontent(ba), (size_t)git_blob_rawsize(ba));
		char *tb = strndup(git_blob_rawcontent(bb), (size_t)git_blob_rawsize(bb));
		char *sa = ta ? rung_spec_text_without_goal(ta) : NULL, *sb = tb ? rung_spec_text_without_goal(tb) : NULL;
		same = sa && sb && !strcmp(sa, sb);
		free(ta), free(tb), free(sa), free(sb);
	}
	git_blob_free(ba);
	git_blob_free(bb);
	return same;
}

static int spec_differs(rung_history *h, const git_commit *c)
{
	if (!h->spec_path || !h->have_spec_blob)
		return 0;
	git_oid blob;
	int e = blob_in(&blob, rung_repo_git(h->repo), c, h->spec_path);
	if (e < 0)
		return 0;
	if (e == 0)
		return 1;
	if (git_oid_equal(&blob, &h->spec_blob))
		return 0;
	return !same_but_goal(rung_repo_git(h->repo), &blob, &h->spec_blob);
}

static int worktree_differs(rung_repo *r, const char *path)
{
	char a[41], b[41];
	int e = rung_repo_blob_id(a, r, "WORKTREE", path);
	if (e < 0)
		return 0; /* no working-tree file: nothing to show */
	if (rung_repo_blob_id(b, r, "HEAD", path) < 0)
		return 1;
	if (strcmp(a, b))
		return 1;
	/* same kernel file: an edited include still makes a new version */
	rung_source sw, sh;
	int differs = 0;
	if (rung_source_read(&sw, r, "WORKTREE", path) < 0)
		return 0;
	if (rung_source_read(&sh, r, "HEAD", path) < 0) {
		rung_source_clear(&sw);
		return 1;
	}
	if (sw.nheaders != sh.nheaders) {
		differs = 1;
	} else {
		for (int i = 0; i < sw.nheaders && !differs; i++)
			differs = strcmp(sw.headers[i].name, sh.headers[i].name) || strcmp(sw.headers[i].text, sh.headers[i].text);
	}
	rung_source_clear(&sw);
	rung_source_clear(&sh);
	return differs;
}

/* "A..B" onto the walk as git reads it: B's history without A's (an empty side
 * is HEAD). Each side is resolved on its own (rung_repo_resolve): libgit2
 * 1.5's git_revwalk_push_range leaks the first side's object when the second
 * does not parse, once per bad range of a long-running `rung mcp`. */
static int push_range(git_revwalk *walk, rung_repo *repo, const char *range)
{
	const char *dots = strstr(range, "..");
	if (dots[2] == '.')
		return rung_error_set(RUNG_EUSAGE, "%s: bad revision range (A...B, the symmetric difference, is not supported)",
				      range);
	char *from = strndup(range, (size_t)(dots - range));
	if (!from)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	const char *to = dots + 2;
	char a[41], b[41];
	int e = rung_repo_resolve(a, repo, *from ? from : "HEAD");
	if (e == 0)
		e = rung_repo_resolve(b, repo, *to ? to : "HEAD");
	free(from);
	if (e < 0)
		return rung_error_set(RUNG_EUSAGE, "%s: bad revision range (%s)", range, rung_error_last());
	git_oid oa, ob;
	if (git_oid_fromstr(&oa, a) < 0 || git_oid_fromstr(&ob, b) < 0 || (e = git_revwalk_hide(walk, &oa)) < 0 ||
	    (e = git_revwalk_push(walk, &ob)) < 0)
		return rung_git_error(e ? e : -1, range);
	return 0;
}

int rung_history_open(rung_history **out, rung_repo *repo, const rung_history_opts *opts)
{
	*out = NULL;
	if (!opts || !opts->kernel_path)
		return rung_error_set(RUNG_EINVAL, "history: no kernel path");
	rung_history *h = calloc(1, sizeof(*h));
	if (!h)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	h->repo = repo;
	h->path = strdup(opts->kernel_path);
	h->spec_path = opts->spec_path ? strdup(opts->spec_path) : NULL;
	h->no_follow = opts->no_follow;
	git_repository *g = rung_repo_git(repo);
	int e;

	if (h->spec_path) {
		char id[41];
		if (rung_repo_blob_id(id, repo, opts->spec_rev ? opts->spec_rev : "HEAD", h->spec_path) == 0) {
			git_oid_fromstr(&h->spec_blob, id);
			h->have_spec_blob = true;
		}
	}
	if (opts->worktree && rung_repo_workdir(repo)[0] && worktree_differs(repo, h->path)) {
		rung_version *w = &h->worktree;
		strcpy(w->id, "WORKTREE");
		strcpy(w->short_id, "WORKTREE");
		strcpy(w->subject, "(uncommitted changes)");
		w->worktree = true;
		copy_str(w->kernel_path, sizeof(w->kernel_path), h->path);
		rung_repo_blob_id(w->blob, repo, "WORKTREE", h->path);
		if (h->spec_path && h->have_spec_blob) {
			char id[41], want[41];
			git_oid_tostr(want, sizeof(want), &h->spec_blob);
			w->spec_differs = rung_repo_blob_id(id, repo, "WORKTREE", h->spec_path) < 0 || strcmp(id, want);
		}
		h->pending_worktree = true;
	}

	if ((e = git_revwalk_new(&h->walk, g)) < 0) {
		e = rung_git_error(e, "revwalk");
		goto fail;
	}
	/* git's default order (GIT_SORT_NONE): newest first along parents, produced
	 * lazily. GIT_SORT_TIME and GIT_SORT_TOPOLOGICAL make libgit2 1.5 walk the
	 * whole history before yielding the first commit (130 ms vs 1 ms for the
	 * first 100 of 10,000 commits, bench/bench_history.c). */
	git_revwalk_sorting(h->walk, GIT_SORT_NONE);
	if (opts->range && strstr(opts->range, "..")) {
		if ((e = push_range(h->walk, repo, opts->range)) < 0)
			goto fail;
	} else {
		char id[41];
		e = rung_repo_resolve(id, repo, opts->range ? opts->range : "HEAD");
		if (e < 0 && !opts->range) {
			h->stop = true; /* unborn HEAD: no commits yet */
		} else if (e < 0) {
			goto fail;
		} else {
			git_oid oid;
			git_oid_fromstr(&oid, id);
			if ((e = git_revwalk_push(h->walk, &oid)) < 0) {
				e = rung_git_error(e, opts->range);
				goto fail;
			}
		}
	}
	*out = h;
	return 0;
fail:
	rung_history_free(h);
	return e;
}

int rung_history_next(rung_version *v, rung_history *h)
{
	memset(v, 0, sizeof(*v));
	if (h->pending_worktree) {
		h->pending_worktree = false;
		*v = h->worktree;
		return 0;
	}
	git_repository *g = rung_repo_git(h->repo);
	git_oid oid;
	while (!h->stop) {
		int e = git_revwalk_next(&oid, h->walk);
		if (e == GIT_ITEROVER)
			return 1;
		if (e < 0)
			return rung_git_error(e, "revwalk");
		h->walked++;
		git_commit *c = NULL;
		if ((e = git_commit_lookup(&c, g, &oid)) < 0)
			return rung_git_error(e, "commit lookup");
		git_oid blob, pblob;
		int here = blob_in_oid(&blob, h, &oid, h->path);
		if (here <= 0) {
			git_commit_free(c);
			if (here < 0)
				return here;
			continue; /* not in this commit (deleted, or another line of history) */
		}
		int there = 0;
		git_commit *parent = NULL;
		if (git_commit_parentcount(c) > 0 && h->spec_path && !h->no_follow) {
			char *old = NULL;
			if ((e = git_commit_parent(&parent, c, 0)) < 0) {
				git_commit_free(c);
				return rung_git_error(e, "parent");
			}
			int sw = kernel_switch(&old, h, c, parent);
			char ren[512] = "";
			if (sw > 0 && find_rename(ren, sizeof(ren), g, parent, c, h->path) < 0)
				rung_error_clear(); /* a rename is only how it is shown */
			git_commit_free(parent);
			parent = NULL;
			if (sw < 0) {
				git_commit_free(c);
				return sw;
			}
			if (sw > 0) { /* a version: the kernel in use changed here */
				fill_commit(v, c);
				copy_str(v->kernel_path, sizeof(v->kernel_path), h->path);
				git_oid_tostr(v->blob, sizeof(v->blob), &blob);
				v->spec_differs = spec_differs(h, c);
				if (!strcmp(ren, old)) /* renamed, and rung.ini with it */
					copy_str(v->renamed_from, sizeof(v->renamed_from), old);
				else
					copy_str(v->kernel_from, sizeof(v->kernel_from), old);
				free(h->path);
				h->path = old;
				git_commit_free(c);
				return 0;
			}
		}
		if (git_commit_parentcount(c) > 0) {
			const git_oid *pid = git_commit_parent_id(c, 0);
			there = blob_in_oid(&pblob, h, pid, h->path);
			if (there < 0) {
				git_commit_free(c);
				return there;
			}
			/* the parent is usually the next commit walked */
			cache_put(h, pid, h->path, there, &pblob);
			if (there && git_oid_equal(&blob, &pblob)) {
				git_commit_free(c);
				continue;
			}
			if (!there && (e = git_commit_parent(&parent, c, 0)) < 0) {
				git_commit_free(c);
				return rung_git_error(e, "parent");
			}
		}
		fill_commit(v, c);
		copy_str(v->kernel_path, sizeof(v->kernel_path), h->path);
		git_oid_tostr(v->blob, sizeof(v->blob), &blob);
		v->spec_differs = spec_differs(h, c);
		if (parent) {
			int r = find_rename(v->renamed_from, sizeof(v->renamed_from), g, parent, c, h->path);
			if (r < 0) {
				git_commit_free(parent);
				git_commit_free(c);
				return r;
			}
			if (r > 0) {
				if (h->no_follow) {
					h->stop = true;
				} else {
					free(h->path);
					h->path = strdup(v->renamed_from);
					if (!h->path) {
						git_commit_free(parent);
						git_commit_free(c);
						return rung_error_set(RUNG_ENOMEM, "out of memory");
					}
				}
			} else {
				v->added = true;
			}
			git_commit_free(parent);
		} else if (git_commit_parentcount(c) == 0) {
			v->added = true;
		}
		git_commit_free(c);
		return 0;
	}
	return 1;
}

int64_t rung_history_walked(const rung_history *h) { return h->walked; }

void rung_history_free(rung_history *h)
{
	if (!h)
		return;
	git_revwalk_free(h->walk);
	free(h->path);
	free(h->spec_path);
	free(h->cache_path);
	free(h);
}

int rung_version_at(rung_version *v, rung_repo *repo, const char *rev, const char *kernel_path)
{
	memset(v, 0, sizeof(*v));
	char id[41];
	int e = rung_repo_resolve(id, repo, rev);
	if (e < 0)
		return e;
	copy_str(v->kernel_path, sizeof(v->kernel_path), kernel_path);
	if (!strcmp(id, "WORKTREE")) {
		strcpy(v->id, "WORKTREE");
		strcpy(v->short_id, "WORKTREE");
		strcpy(v->subject, "(uncommitted changes)");
		v->worktree = true;
		return rung_repo_blob_id(v->blob, repo, "WORKTREE", kernel_path);
	}
	git_oid oid;
	git_oid_fromstr(&oid, id);
	git_commit *c = NULL;
	if ((e = git_commit_lookup(&c, rung_repo_git(repo), &oid)) < 0)
		return rung_git_error(e, rev);
	fill_commit(v, c);
	git_commit_free(c);
	return rung_repo_blob_id(v->blob, repo, id, kernel_path);
}

/* ---- sources and their includes ------------------------------------------ */


/* Joins dir/name and resolves "." and ".."; NULL if it leaves the repository
 * (an absolute name, or ".." above the root): such an #include is not read
 * from git, and the compile refuses it (gpu/compile.c). */
static char *resolve_rel(const char *dir, const char *name)
{
	if (name[0] == '/')
		return NULL;
	char *j = rung_repo_join(dir, name);
	if (!j)
		return NULL;
	char *parts[256];
	int n = 0;
	char *save = NULL;
	char *copy = strdup(j);
	for (char *t = strtok_r(copy, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		if (!strcmp(t, "."))
			continue;
		if (!strcmp(t, "..")) {
			if (n == 0) {
				free(copy);
				free(j);
				return NULL;
			}
			n--;
			continue;
		}
		if (n < 256)
			parts[n++] = t;
	}
	char *o = j;
	for (int i = 0; i < n; i++) {
		size_t l = strlen(parts[i]);
		memmove(o, parts[i], l);
		o += l;
		if (i + 1 < n)
			*o++ = '/';
	}
	*o = 0;
	free(copy);
	return j;
}

typedef struct {
	rung_source *s;
	char **paths; /* resolved path of each header */
	int cap;
} inc_ctx;

static int add_includes(inc_ctx *x, rung_repo *repo, const char *rev, const char *file, const char *text, int depth)
{
	if (depth > 16)
		return 0;
	char **names;
	int n;
	int e = rung_scan_includes(&names, &n, text);
	if (e < 0)
		return e;
	char *dir = rung_fs_dir_of(file); /* "." at the top: resolve_rel drops it */
	for (int i = 0; i < n && e >= 0; i++) {
		char *path = resolve_rel(dir, names[i]);
		if (!path)
			continue;
		int seen = !strcmp(path, x->s->path);
		for (int k = 0; k < x->s->nheaders && !seen; k++)
			seen = !strcmp(x->paths[k], path) || !strcmp(x->s->headers[k].name, names[i]);
		char *t = NULL;
		size_t tlen = 0;
		if (seen || rung_repo_read(&t, &tlen, repo, rev, path) < 0) {
			free(path);
			continue; /* system or -I header: the compiler reports what is missing */
		}
		if (x->s->nheaders == x->cap) {
			int nc = x->cap ? x->cap * 2 : 8;
			rung_header *nh = realloc(x->s->headers, (size_t)nc * sizeof(*nh));
			char **np = nh ? realloc(x->paths, (size_t)nc * sizeof(*np)) : NULL;
			if (nh)
				x->s->headers = nh;
			if (!np) {
				free(t);
				free(path);
				e = rung_error_set(RUNG_ENOMEM, "out of memory");
				break;
			}
			x->paths = np;
			x->cap = nc;
		}
		int k = x->s->nheaders++;
		x->s->headers[k].name = strdup(names[i]);
		x->s->headers[k].text = t;
		x->s->headers[k].len = tlen; /* a NUL byte inside is the compile's to report */
		x->paths[k] = path;
		e = add_includes(x, repo, rev, path, t, depth + 1);
	}
	free(dir);
	rung_strv_free(names, n);
	return e;
}

/* A .ptx or .cubin kernel's sidecar at the same revision, when there is one. */
static int read_sidecar(rung_source *out, rung_repo *repo, const char *path)
{
	char *sc = rung_sidecar_path(path);
	char blob[41];
	if (!sc || rung_repo_blob_id(blob, repo, out->rev, sc) < 0) {
		rung_error_clear();
		free(sc);
		return 0;
	}
	/* its size is judged where it is parsed (rung_sidecar_parse: the version's verdict) */
	int e = rung_repo_read(&out->sidecar, &out->sidecar_len, repo, out->rev, sc);
	out->sidecar_path = sc;
	return e;
}

int rung_source_read(rung_source *out, rung_repo *repo, const char *rev, const char *path)
{
	memset(out, 0, sizeof(*out));
	int e = rung_repo_resolve(out->rev, repo, rev);
	if (e < 0)
		return e;
	out->path = strdup(path);
	if (!out->path)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	if ((e = rung_repo_read(&out->text, &out->len, repo, out->rev, path)) < 0) {
		rung_source_clear(out);
		return e;
	}
	inc_ctx x = {out, NULL, 0};
	e = add_includes(&x, repo, out->rev, path, out->text, 0);
	rung_strv_free(x.paths, out->nheaders);
	if (e == 0)
		e = read_sidecar(out, repo, path);
	if (e < 0)
		rung_source_clear(out);
	return e;
}

void rung_source_clear(rung_source *s)
{
	if (!s)
		return;
	free(s->path);
	free(s->text);
	for (int i = 0; i < s->nheaders; i++) {
		free((char *)s->headers[i].name);
		free((char *)s->headers[i].text);
	}
	free(s->headers);
	free(s->sidecar_path);
	free(s->sidecar);
	free(s->entry);
	memset(s, 0, sizeof(*s));
}

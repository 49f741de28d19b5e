#include "vcs/repo.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>

#include "core/err.h"
#include "core/fs.h"

struct rung_repo {
	git_repository *git;
	char *workdir;
	char *gitdir;
};

int rung_git_error(int gitret, const char *what)
{
	const git_error *e = git_error_last();
	int code = gitret == GIT_ENOTFOUND ? RUNG_ENOTFOUND : RUNG_EVCS;
	return rung_error_set(code, "%s: %s", what, e && e->message ? e->message : "git error");
}

/* libgit2's TLS trust anchors, kept off every process's path (#28, first
 * frame against tig). Debian's libgit2 1.5 is built with mbedTLS, and its
 * git_libgit2_init parses every certificate of the system's CA bundle
 * (GIT_DEFAULT_CERT_LOCATION, fixed at its build, no override): ~8 ms of
 * mbedTLS's constant-time base64 in each process, the workbench's first frame
 * and the worker included, though rung only reads local repositories and
 * never opens a remote. This definition is the one the dynamic linker binds
 * libgit2's call to (the executable comes first in symbol lookup; it is
 * exported because libgit2 refers to it): it loads nothing and fails, so
 * libgit2 keeps no CA chain, and a TLS stream, were one ever opened, could
 * verify no server (libgit2 refuses it with GIT_ECERTIFICATE): it fails safe,
 * never open. A libgit2 built with OpenSSL never calls it.
 * docs/ARCHITECTURE.md ("libgit2 and TLS") says the same. */
int mbedtls_x509_crt_parse_file(void *chain, const char *path);
int mbedtls_x509_crt_parse_file(void *chain, const char *path)
{
	(void)chain;
	(void)path;
	return -0x2900; /* MBEDTLS_ERR_X509_FILE_IO_ERROR: "read/write of file failed" */
}

static void git_init_once(void)
{
	static int done;
	if (!done) {
		git_libgit2_init();
		git_error_clear(); /* "failed to load CA certificates" (above) is no error of rung's */
		done = 1;
	}
}

int rung_repo_open(rung_repo **out, const char *path)
{
	git_init_once();
	*out = NULL;
	char cwd[PATH_MAX];
	if (!path) {
		if (!getcwd(cwd, sizeof(cwd)))
			return rung_error_set(RUNG_EIO, "getcwd: %s", strerror(errno));
		path = cwd;
	}
	git_repository *g = NULL;
	int e = git_repository_open_ext(&g, path, 0, NULL);
	if (e == GIT_ENOTFOUND)
		return rung_error_set(RUNG_ENOTFOUND, "%s: not inside a git repository", path);
	if (e < 0)
		return rung_git_error(e, path);
	rung_repo *r = calloc(1, sizeof(*r));
	if (!r) {
		git_repository_free(g);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	r->git = g;
	const char *wd = git_repository_workdir(g);
	r->workdir = strdup(wd ? wd : "");
	r->gitdir = strdup(git_repository_path(g));
	*out = r;
	return 0;
}

void rung_repo_free(rung_repo *r)
{
	if (!r)
		return;
	git_repository_free(r->git);
	free(r->workdir);
	free(r->gitdir);
	free(r);
}

struct git_repository *rung_repo_git(rung_repo *r) { return r->git; }
const char *rung_repo_workdir(const rung_repo *r) { return r->workdir; }
const char *rung_repo_gitdir(const rung_repo *r) { return r->gitdir; }

char *rung_repo_join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = malloc(a + b + 2);
	if (!p)
		return NULL;
	if (a == 0 || !strcmp(dir, ".")) {
		memcpy(p, name, b + 1);
		return p;
	}
	memcpy(p, dir, a);
	size_t o = a;
	if (dir[a - 1] != '/')
		p[o++] = '/';
	memcpy(p + o, name, b + 1);
	return p;
}

/* Normalises a path textually: drops "." and resolves "..". */
static void normalise(char *p)
{
	char *parts[512];
	int n = 0;
	int abs = p[0] == '/';
	char *save = NULL;
	char *copy = strdup(p);
	for (char *t = strtok_r(copy, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		if (!strcmp(t, "."))
			continue;
		if (!strcmp(t, "..")) {
			if (n > 0)
				n--;
			continue;
		}
		if (n < 512)
			parts[n++] = t;
	}
	char *o = p;
	if (abs)
		*o++ = '/';
	for (int i = 0; i < n; i++) {
		size_t l = strlen(parts[i]);
		memmove(o, parts[i], l);
		o += l;
		if (i + 1 < n)
			*o++ = '/';
	}
	*o = 0;
	free(copy);
}

int rung_repo_relpath(char **out, const rung_repo *r, const char *path)
{
	*out = NULL;
	char buf[PATH_MAX * 2];
	if (path[0] == '/') {
		snprintf(buf, sizeof(buf), "%s", path);
	} else {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd)))
			return rung_error_set(RUNG_EIO, "getcwd: %s", strerror(errno));
		snprintf(buf, sizeof(buf), "%s/%s", cwd, path);
	}
	char real[PATH_MAX];
	/* realpath when it exists (symlinked tmp dirs), textual otherwise */
	if (realpath(buf, real))
		snprintf(buf, sizeof(buf), "%s", real);
	normalise(buf);
	char wd[PATH_MAX];
	snprintf(wd, sizeof(wd), "%s", r->workdir);
	if (realpath(r->workdir, real))
		snprintf(wd, sizeof(wd), "%s", real);
	normalise(wd);
	size_t l = strlen(wd);
	if (strncmp(buf, wd, l) != 0 || (buf[l] != 0 && buf[l] != '/'))
		return rung_error_set(RUNG_EINVAL, "%s: outside the repository at %s", path, r->workdir);
	const char *rel = buf + l;
	while (*rel == '/')
		rel++;
	*out = strdup(rel);
	return *out ? 0 : rung_error_set(RUNG_ENOMEM, "out of memory");
}

void rung_strv_free(char **v, int n)
{
	if (!v)
		return;
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

typedef struct {
	char **v;
	int n, cap;
} strv;

static int strv_add(strv *s, const char *x)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], x))
			return 0;
	if (s->n == s->cap) {
		int nc = s->cap ? s->cap * 2 : 8;
		char **nv = realloc(s->v, (size_t)nc * sizeof(*nv));
		if (!nv)
			return RUNG_ENOMEM;
		s->v = nv;
		s->cap = nc;
	}
	s->v[s->n] = strdup(x);
	if (!s->v[s->n])
		return RUNG_ENOMEM;
	s->n++;
	return 0;
}

static int tree_cb(const char *root, const git_tree_entry *e, void *payload)
{
	if (git_tree_entry_type(e) == GIT_OBJECT_BLOB && !strcmp(git_tree_entry_name(e), "rung.ini")) {
		char dir[PATH_MAX];
		snprintf(dir, sizeof(dir), "%s", root);
		size_t l = strlen(dir);
		if (l && dir[l - 1] == '/')
			dir[l - 1] = 0;
		if (strv_add(payload, dir) < 0)
			return -1;
	}
	return 0;
}

static int walk_dir(strv *s, rung_repo *r, const char *rel, int depth)
{
	if (depth > 12)
		return 0;
	char *abs = rung_repo_join(r->workdir, rel);
	DIR *d = opendir(abs);
	free(abs);
	if (!d)
		return 0;
	struct dirent *de;
	int ret = 0;
	while (ret == 0 && (de = readdir(d))) {
		if (de->d_name[0] == '.' && (!de->d_name[1] || !strcmp(de->d_name, "..") || !strcmp(de->d_name, ".git")))
			continue;
		char *child = rung_repo_join(rel, de->d_name);
		char *cabs = rung_repo_join(r->workdir, child);
		struct stat st;
		if (lstat(cabs, &st) == 0) {
			int ignored = 0;
			if (S_ISDIR(st.st_mode)) {
				git_ignore_path_is_ignored(&ignored, r->git, child);
				if (!ignored)
					ret = walk_dir(s, r, child, depth + 1);
			} else if (S_ISREG(st.st_mode) && !strcmp(de->d_name, "rung.ini")) {
				ret = strv_add(s, rel);
			}
		}
		free(child);
		free(cabs);
	}
	closedir(d);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int rung_repo_find_tasks(char ***out, int *n, rung_repo *r)
{
	*out = NULL;
	*n = 0;
	strv s = {0};
	git_object *obj = NULL;
	int e = git_revparse_single(&obj, r->git, "HEAD^{tree}");
	if (e == 0) {
		e = git_tree_walk((git_tree *)obj, GIT_TREEWALK_PRE, tree_cb, &s);
		git_object_free(obj);
		if (e < 0) {
			rung_strv_free(s.v, s.n);
			return rung_git_error(e, "walking HEAD");
		}
	}
	if (r->workdir[0] && walk_dir(&s, r, "", 0) < 0) {
		rung_strv_free(s.v, s.n);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	if (s.n > 1)
		qsort(s.v, (size_t)s.n, sizeof(char *), cmp_str);
	*out = s.v;
	*n = s.n;
	return 0;
}

void rung_repo_task_list(char *buf, size_t len, char *const *tasks, int n)
{
	buf[0] = 0;
	size_t at = 0;
	for (int i = 0; i < n && at + 8 < len; i++) {
		int w = snprintf(buf + at, len - at, "%s%s", i ? ", " : "", tasks[i][0] ? tasks[i] : ".");
		if (w < 0 || (size_t)w >= len - at) {
			snprintf(buf + at, len - at, ", ...");
			break;
		}
		at += (size_t)w;
	}
}

int rung_repo_task_containing(char *const *tasks, int n, const char *rel)
{
	int best = -1;
	size_t bestlen = 0;
	for (int i = 0; i < n; i++) {
		size_t l = strlen(tasks[i]);
		bool inside = l == 0 || (!strncmp(rel, tasks[i], l) && (rel[l] == 0 || rel[l] == '/'));
		if (inside && (best < 0 || l > bestlen)) {
			best = i;
			bestlen = l;
		}
	}
	return best;
}

int rung_repo_pick_task(char **out, rung_repo *r, const char *hint)
{
	*out = NULL;
	char **tasks;
	int n;
	int e = rung_repo_find_tasks(&tasks, &n, r);
	if (e < 0)
		return e;
	char *rel = NULL;
	e = rung_repo_relpath(&rel, r, hint ? hint : ".");
	if (e < 0 && hint) {
		rung_strv_free(tasks, n);
		return e;
	}
	if (!rel) /* the current directory lies outside the working tree (-C DIR) */
		rel = strdup("\x01");
	int best = rung_repo_task_containing(tasks, n, rel);
	if (best < 0 && !hint && n == 1)
		best = 0;
	if (best >= 0) {
		*out = strdup(tasks[best]);
		rung_strv_free(tasks, n);
		free(rel);
		return *out ? 0 : rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	if (n == 0) {
		e = rung_error_set(RUNG_ENOTFOUND, "%s: no rung.ini in this repository (at HEAD or in the working tree)",
				   r->workdir);
	} else if (hint) {
		e = rung_error_set(RUNG_ENOTFOUND, "%s: no rung.ini there", hint);
	} else {
		char list[1024];
		rung_repo_task_list(list, sizeof(list), tasks, n);
		e = rung_error_set(RUNG_EINVAL, "%d tasks in this repository (%s): name one, or run from inside its directory",
				   n, list);
	}
	rung_strv_free(tasks, n);
	free(rel);
	return e;
}

int rung_repo_resolve(char out[41], rung_repo *r, const char *rev)
{
	if (!strcmp(rev, "WORKTREE")) {
		strcpy(out, "WORKTREE");
		return 0;
	}
	git_object *obj = NULL;
	int e = git_revparse_single(&obj, r->git, rev);
	if (e < 0)
		return e == GIT_ENOTFOUND || e == GIT_EAMBIGUOUS || e == GIT_EINVALIDSPEC
			       ? rung_error_set(RUNG_ENOTFOUND, "%s: unknown revision", rev)
			       : rung_git_error(e, rev);
	git_object *c = NULL;
	e = git_object_peel(&c, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (e < 0)
		return rung_error_set(RUNG_EINVAL, "%s: not a commit", rev);
	git_oid_tostr(out, 41, git_object_id(c));
	git_object_free(c);
	return 0;
}

/* A repo-relative path must stay in the repository: not absolute, no ".."
 * above the root, and in the working tree no symlink out of it. */
static int confined(const rung_repo *r, const char *abs, const char *path)
{
	if (!rung_fs_rel_inside(path))
		return rung_error_set(RUNG_EINVAL, "%s: outside the repository", path);
	if (!abs || !r->workdir[0])
		return 0;
	char *res = NULL;
	int e = rung_fs_confined(&res, r->workdir, abs);
	if (e == RUNG_EINVAL)
		e = rung_error_set(RUNG_EINVAL, "%s: outside the repository (it is %s)", path, res ? res : abs);
	free(res);
	return e;
}

static int read_disk(char **out, size_t *len, const char *abs, const char *path)
{
	int e = rung_fs_read_file(out, len, abs, RUNG_FS_MAX_TEXT);
	/* the message names the repository-relative path, as for a revision */
	size_t al = strlen(abs);
	const char *msg = rung_error_last();
	if (e < 0 && !strncmp(msg, abs, al))
		rung_error_set(e, "%s%s", path, msg + al);
	return e;
}

static int entry_at(git_tree_entry **te, git_commit **commit, rung_repo *r, const char *rev, const char *path)
{
	git_oid oid;
	char id[41];
	int e = rung_repo_resolve(id, r, rev);
	if (e < 0)
		return e;
	git_oid_fromstr(&oid, id);
	e = git_commit_lookup(commit, r->git, &oid);
	if (e < 0)
		return rung_git_error(e, rev);
	git_tree *tree = NULL;
	e = git_commit_tree(&tree, *commit);
	if (e < 0) {
		git_commit_free(*commit);
		return rung_git_error(e, rev);
	}
	e = git_tree_entry_bypath(te, tree, path);
	git_tree_free(tree);
	if (e < 0) {
		git_commit_free(*commit);
		if (e == GIT_ENOTFOUND)
			return rung_error_set(RUNG_ENOTFOUND, "%s: not in revision %.10s", path, id);
		return rung_git_error(e, path);
	}
	return 0;
}

int rung_repo_read(char **out, size_t *len, rung_repo *r, const char *rev, const char *path)
{
	*out = NULL;
	if (!strcmp(rev, "WORKTREE")) {
		char *abs = rung_repo_join(r->workdir, path);
		int e = abs ? confined(r, abs, path) : rung_error_set(RUNG_ENOMEM, "out of memory");
		if (e == 0)
			e = read_disk(out, len, abs, path);
		free(abs);
		return e;
	}
	int ce = confined(r, NULL, path);
	if (ce < 0)
		return ce;
	git_tree_entry *te;
	git_commit *commit;
	int e = entry_at(&te, &commit, r, rev, path);
	if (e < 0)
		return e;
	git_blob *blob = NULL;
	if (git_tree_entry_type(te) != GIT_OBJECT_BLOB)
		e = rung_error_set(RUNG_EINVAL, "%s: not a file at %s", path, rev);
	else if ((e = git_blob_lookup(&blob, r->git, git_tree_entry_id(te))) < 0)
		e = rung_git_error(e, path);
	if (blob) {
		size_t n = (size_t)git_blob_rawsize(blob);
		char *b = malloc(n + 1);
		if (!b) {
			e = rung_error_set(RUNG_ENOMEM, "out of memory");
		} else {
			memcpy(b, git_blob_rawcontent(blob), n);
			b[n] = 0;
			*out = b;
			if (len)
				*len = n;
		}
		git_blob_free(blob);
	}
	git_tree_entry_free(te);
	git_commit_free(commit);
	return e;
}

int rung_repo_blob_id(char out[41], rung_repo *r, const char *rev, const char *path)
{
	if (!strcmp(rev, "WORKTREE")) {
		char *abs = rung_repo_join(r->workdir, path);
		int ce = abs ? confined(r, abs, path) : rung_error_set(RUNG_ENOMEM, "out of memory");
		if (ce < 0) {
			free(abs);
			return ce;
		}
		/* read as every working-tree file is (read_disk): a FIFO, a
		 * device or a file past the text limit is refused, never opened
		 * blocking nor hashed without bound */
		char *buf = NULL;
		size_t n = 0;
		int e = read_disk(&buf, &n, abs, path);
		free(abs);
		if (e == RUNG_ENOTFOUND)
			return rung_error_set(RUNG_ENOTFOUND, "%s: not in the working tree", path);
		if (e < 0)
			return e;
		git_oid oid;
		e = git_odb_hash(&oid, buf, n, GIT_OBJECT_BLOB);
		free(buf);
		if (e < 0)
			return rung_git_error(e, path);
		git_oid_tostr(out, 41, &oid);
		return 0;
	}
	git_tree_entry *te;
	git_commit *commit;
	int e = entry_at(&te, &commit, r, rev, path);
	if (e < 0)
		return e;
	git_oid_tostr(out, 41, git_tree_entry_id(te));
	git_tree_entry_free(te);
	git_commit_free(commit);
	return 0;
}

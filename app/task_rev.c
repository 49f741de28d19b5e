/* Loading a task target that may be a git revision (app/task.h):
 * `rung check HEAD~1`, `rung dump WORKTREE`, `rung compare HEAD~1 HEAD`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "app/task.h"
#include "core/sidecar.h"

static bool path_exists(const char *p)
{
	struct stat st;
	return p && stat(p, &st) == 0;
}

/* A vcs error as a loading error: something named that is not there is the
 * request's fault (RUNG_EUSAGE), I/O and memory stay, the rest is the task's. */
static int vfail(int e)
{
	if (e == RUNG_ENOMEM || e == RUNG_EIO)
		return e;
	return rung_error_recode(e == RUNG_ENOTFOUND ? RUNG_EUSAGE : RUNG_ESPEC);
}

/* "t/sgemm.cu@a1b2c3d" */
static char *at_rev(const char *path, const char *short_rev)
{
	size_t n = strlen(path) + strlen(short_rev) + 2;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s@%s", path, short_rev);
	return s;
}

/* A copy of len bytes (a NUL byte inside included: the compile reports it). */
static char *dup_text(const char *text, size_t len)
{
	char *p = text ? malloc(len + 1) : NULL;
	if (p) {
		memcpy(p, text, len);
		p[len] = 0;
	}
	return p;
}

/* The directory a version's #includes are confined to: the working tree, or
 * the git directory of a bare repository (nothing of a task lies on disk
 * there, so an #include that reads the disk finds nothing it may read). */
static char *repo_root(rung_repo *r)
{
	return strdup(rung_repo_workdir(r)[0] ? rung_repo_workdir(r) : rung_repo_gitdir(r));
}

static void short_of(char out[12], const char *id)
{
	if (!strcmp(id, "WORKTREE"))
		snprintf(out, 12, "WORKTREE");
	else
		snprintf(out, 12, "%.7s", id);
}

static int load_rev(rung_task *out, const char *rev, const rung_task_where *w)
{
	int e, code;
	if ((e = rung_repo_open(&out->repo, w->dir)) < 0)
		return rung_where_repo_fail(w, vfail(e));
	if ((e = rung_repo_resolve(out->rev, out->repo, rev)) < 0)
		return rung_error_set(RUNG_EUSAGE, "%s: not a task directory, file or git revision", rev);
	short_of(out->short_rev, out->rev);
	char *tdir = NULL;
	if ((e = rung_where_task(&tdir, out->repo, w)) < 0) {
		if (e == RUNG_EINVAL) { /* several tasks */
			rung_error_state st;
			rung_error_save(&st);
			return rung_error_set(RUNG_EUSAGE, "%s (choose one with --task DIR)", st.msg);
		}
		return rung_error_recode(RUNG_EUSAGE);
	}
	out->vtask = calloc(1, sizeof(*out->vtask));
	out->ksrc = calloc(1, sizeof(*out->ksrc));
	if (!out->vtask || !out->ksrc) {
		free(tdir);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	e = rung_vtask_open(out->vtask, out->repo, tdir, w->spec_rev);
	free(tdir);
	if (e < 0) {
		free(out->vtask);
		out->vtask = NULL;
		return vfail(e);
	}
	rung_vtask *vt = out->vtask;
	rung_spec *s = vt->spec; /* the task owns it once the kernel is read */
	out->arch = s->arch && *s->arch ? s->arch : "sm_90";
	if (!s->entry)
		return rung_error_set(RUNG_ESPEC, "%s: [task] needs kernel and entry", vt->spec_path);
	/* the kernel the revision's own rung.ini names, when it is another file
	 * (a CUDA version before `kernel = softmax.ptx`), else the spec's */
	char *own = NULL;
	if ((e = rung_vtask_kernel_at(&own, vt, out->rev)) < 0)
		return vfail(e);
	const char *kpath = own ? own : vt->kernel_path;
	if ((e = rung_vtask_source(out->ksrc, vt, out->rev, own)) < 0) {
		free(out->ksrc);
		out->ksrc = NULL;
		if (e == RUNG_ENOTFOUND)
			e = rung_error_set(RUNG_EUSAGE, "%s: %s does not exist at %s", rev, kpath, out->short_rev);
		else
			e = vfail(e);
		free(own);
		return e;
	}
	out->kernel.path = at_rev(kpath, out->short_rev);
	free(own);
	out->spec = vt->spec; /* the task owns the spec from here */
	vt->spec = NULL;
	rung_vtask_content(out->content, vt, out->ksrc);
	out->dir = rung_repo_join(rung_repo_workdir(out->repo), vt->dir);
	if (out->dir && !*out->dir) {
		free(out->dir);
		out->dir = strdup(".");
	}
	if (!(out->root = repo_root(out->repo)))
		goto oom;
	out->root_what = "the repository";
	out->kernel.entry = out->ksrc->entry ? out->ksrc->entry : s->entry;
	out->kernel.src = dup_text(out->ksrc->text, out->ksrc->len);
	out->kernel.len = out->ksrc->len;
	if (!out->dir || !out->kernel.path || !out->kernel.src)
		goto oom;
	out->reference.entry = s->reference_entry ? s->reference_entry : s->entry;
	if (vt->ref.text) {
		char sr[12];
		short_of(sr, vt->spec_rev);
		out->reference.path = at_rev(vt->ref.path, sr);
		out->reference.src = dup_text(vt->ref.text, vt->ref.len);
		out->reference.len = vt->ref.len;
		if (!out->reference.path || !out->reference.src)
			goto oom;
	}
	if (rung_task_build_includes(out) < 0)
		goto oom;
	if (out->ksrc->sidecar) {
		out->sidecar = out->ksrc->sidecar;
		out->sidecar_len = out->ksrc->sidecar_len;
		out->sidecar_path = out->sidecar_path_own = at_rev(out->ksrc->sidecar_path, out->short_rev);
		if (!out->sidecar_path)
			goto oom;
	}
	code = rung_launch_with_sidecar(&out->launch, s, out->kernel.src, out->kernel.path, out->sidecar,
					out->sidecar_len, out->sidecar_path);
	if (code < 0)
		return code == RUNG_ENOMEM ? code : rung_error_recode(RUNG_ESPEC);
	out->launch_from_source = code == 1;
	return 0;
oom:
	return rung_error_set(RUNG_ENOMEM, "out of memory");
}

/* The path of repo-relative task directory tdir as seen from the current
 * directory: "../softmax" from inside sgemm/, absolute from outside the tree. */
static char *path_from_cwd(rung_repo *r, const char *tdir)
{
	char *cwd = NULL;
	if (rung_repo_relpath(&cwd, r, ".") < 0) {
		rung_error_clear();
		return rung_repo_join(rung_repo_workdir(r), tdir);
	}
	size_t up = 0;
	for (const char *p = cwd; *p; p++)
		up += p == cwd || p[-1] == '/';
	free(cwd);
	size_t n = up * 3 + strlen(tdir) + 2;
	char *s = malloc(n);
	if (!s)
		return NULL;
	s[0] = 0;
	for (size_t i = 0; i < up; i++)
		strcat(s, "../");
	strcat(s, tdir[0] ? tdir : up ? "" : ".");
	size_t l = strlen(s);
	if (l > 1 && s[l - 1] == '/')
		s[l - 1] = 0;
	return s;
}

/* The working tree of the named task (--task, `task`): the path as given when
 * it is that task's directory, else the task found by its name, as a path
 * from here; outside any repository, the path as given. *path NULL on error. */
static int named_task_path(char **path, const rung_task_where *w)
{
	char *given = w->dir && w->task[0] != '/' ? rung_path_join(w->dir, w->task) : strdup(w->task);
	rung_repo *r = NULL;
	int e = given ? rung_repo_open(&r, w->dir) : RUNG_ENOMEM;
	if (e < 0) {
		*path = given;
		if (e == RUNG_ENOMEM)
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		rung_error_clear(); /* no repository: a task directory on its own */
		return 0;
	}
	char *tdir = NULL, *rel = NULL;
	if ((e = rung_where_task(&tdir, r, w)) == 0) {
		if (rung_repo_relpath(&rel, r, given) == 0 && !strcmp(rel, tdir))
			*path = given, given = NULL;
		else if (!(*path = path_from_cwd(r, tdir)))
			e = rung_error_set(RUNG_ENOMEM, "out of memory");
		rung_error_clear();
	}
	free(rel);
	free(tdir);
	free(given);
	rung_repo_free(r);
	return e;
}

/* A target path (TASKDIR or FILE) in another task than the one --task names
 * is a contradiction: RUNG_EUSAGE, nothing loaded. */
static int same_task(const char *path, const rung_task_where *w)
{
	rung_repo *r = NULL;
	if (rung_repo_open(&r, w->dir) < 0) {
		rung_error_clear();
		return 0;
	}
	char *named = NULL, *of = NULL;
	int e = rung_where_task(&named, r, w);
	if (e == 0 && (e = rung_where_task_of(&of, r, path)) == 0 && strcmp(of, named))
		e = rung_error_set(RUNG_EUSAGE, "%s lies in task %s, not in the task named, %s", path, of[0] ? of : ".",
				   named[0] ? named : ".");
	free(named);
	free(of);
	rung_repo_free(r);
	return e < 0 ? e : 0;
}

int rung_task_load_target(rung_task *out, const char *target, const rung_task_where *w)
{
	static const rung_task_where none;
	if (!w)
		w = &none;
	memset(out, 0, sizeof(*out));
	char *path = NULL;
	int e = 0;
	if (target && *target) {
		/* a path (relative to -C DIR) wins over a revision of the same name */
		if (!(path = w->dir && target[0] != '/' ? rung_path_join(w->dir, target) : strdup(target)))
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		if (!path_exists(path)) {
			free(path);
			return load_rev(out, target, w);
		}
		if (w->task)
			e = same_task(path, w);
	} else if (w->task) {
		e = named_task_path(&path, w);
	} else if (w->dir && !(path = strdup(w->dir))) {
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	if (e == 0)
		e = rung_task_load(out, path);
	free(path);
	return e;
}

/* No rung.ini where the request looked by default (no target, no task): at
 * the root of a repository of several tasks that is a usage error naming
 * them, as the REV form says it (#28 D-17), not a missing file. */
static bool several_tasks(const rung_task_where *w)
{
	char *ini = rung_path_join(w->dir ? w->dir : ".", "rung.ini");
	bool none = ini && access(ini, F_OK) != 0;
	free(ini);
	rung_repo *repo = NULL;
	if (!none || rung_repo_open(&repo, w->dir ? w->dir : ".") < 0)
		return false;
	char *tdir = NULL;
	int e = rung_repo_pick_task(&tdir, repo, NULL);
	free(tdir);
	rung_repo_free(repo);
	if (e != RUNG_EINVAL)
		return false;
	char msg[1024];
	snprintf(msg, sizeof(msg), "%s", rung_error_last());
	rung_error_set(RUNG_EUSAGE, "%s (--task DIR)", msg);
	return true;
}

int rung_task_resolve(rung_task *out, const char *target, const rung_task_where *w)
{
	int e = rung_task_load_target(out, target, w);
	if (e == 0 || target || (w && w->task))
		return e;
	static const rung_task_where none;
	rung_error_state st;
	rung_error_save(&st);
	if (several_tasks(w ? w : &none))
		return RUNG_EUSAGE;
	st.code = e;
	rung_error_restore(&st);
	return e;
}

int rung_task_of_version(rung_task *t, rung_repo *repo, rung_vtask *vt, rung_source *src, const rung_version *v)
{
	memset(t, 0, sizeof(*t));
	t->borrowed = true;
	t->spec = vt->spec;
	t->repo = repo;
	t->vtask = vt;
	t->ksrc = src;
	t->label = v->subject;
	snprintf(t->rev, sizeof(t->rev), "%s", v->worktree ? "WORKTREE" : v->id);
	short_of(t->short_rev, t->rev);
	rung_vtask_content(t->content, vt, src);
	t->arch = vt->spec->arch && *vt->spec->arch ? vt->spec->arch : "sm_90";
	t->kernel.entry = src->entry ? src->entry : vt->spec->entry;
	t->kernel.path = (char *)v->kernel_path; /* borrowed: never freed (t->borrowed) */
	t->sidecar = src->sidecar;
	t->sidecar_len = src->sidecar_len;
	t->sidecar_path = src->sidecar_path;
	t->kernel.src = src->text;
	t->kernel.len = src->len;
	t->reference.entry = vt->spec->reference_entry ? vt->spec->reference_entry : vt->spec->entry;
	if (vt->ref.text) {
		t->reference.path = vt->ref.path;
		t->reference.src = vt->ref.text;
		t->reference.len = vt->ref.len;
	}
	t->dir = rung_repo_join(rung_repo_workdir(repo), vt->dir);
	if (t->dir && !*t->dir) {
		free(t->dir);
		t->dir = strdup(".");
	}
	if (!t->dir || rung_task_build_includes(t) < 0)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	if (!(t->root = repo_root(repo)))
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	t->root_what = "the repository";
	/* the launch line, validated as rung_task_load and load_rev do; a broken
	 * one is this version's verdict (rung_eval_compile), not an error */
	int code = rung_launch_with_sidecar(&t->launch, vt->spec, src->text, t->kernel.path, t->sidecar, t->sidecar_len,
					    t->sidecar_path);
	if (code == RUNG_ENOMEM)
		return code;
	if (code < 0) {
		snprintf(t->launch_error, sizeof(t->launch_error), "%s", rung_error_last());
		rung_error_clear();
	}
	t->launch_from_source = code == 1;
	return 0;
}

int rung_version_compile(rung_compiled *out, rung_repo *repo, rung_vtask *vt, rung_source *src, const rung_version *v)
{
	rung_task t;
	int e = rung_task_of_version(&t, repo, vt, src, v);
	if (e == 0)
		e = rung_task_compile(out, &t, false);
	else
		memset(out, 0, sizeof(*out));
	rung_task_clear(&t);
	return e;
}

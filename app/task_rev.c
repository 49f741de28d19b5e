/* Loading a task target that may be a git revision (see task_load.h):
 * `rung check HEAD~1`, `rung dump WORKTREE`, `rung compare HEAD~1 HEAD`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

static void short_of(char out[12], const char *id)
{
	if (!strcmp(id, "WORKTREE"))
		snprintf(out, 12, "WORKTREE");
	else
		snprintf(out, 12, "%.7s", id);
}

/* The task directory: --task (relative to -C DIR), else the one containing the
 * current directory, else the only one; several give an error listing them. */
static int pick_task(char **dir, rung_repo *r, const rung_task_where *w)
{
	char hint[4096];
	const char *h = w->task;
	if (w->dir && w->task && w->task[0] != '/') {
		snprintf(hint, sizeof(hint), "%s/%s", w->dir, w->task);
		h = hint;
	}
	int e = rung_repo_pick_task(dir, r, h);
	if (e < 0 && w->dir && !w->task) {
		/* -C DIR: the task containing DIR, else the only one (or the list) */
		rung_error_clear();
		if ((e = rung_repo_pick_task(dir, r, w->dir)) < 0) {
			rung_error_clear();
			e = rung_repo_pick_task(dir, r, NULL);
		}
	}
	return e;
}

static int load_rev(rung_task *out, const char *rev, const rung_task_where *w)
{
	int e, code;
	if ((e = rung_repo_open(&out->repo, w->dir)) < 0)
		return vfail(e);
	if ((e = rung_repo_resolve(out->rev, out->repo, rev)) < 0)
		return rung_error_set(RUNG_EUSAGE, "%s: not a task directory, file or git revision", rev);
	short_of(out->short_rev, out->rev);
	char *tdir = NULL;
	if ((e = pick_task(&tdir, out->repo, w)) < 0) {
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
	if (rung_repo_workdir(out->repo)[0] && !(out->root = strdup(rung_repo_workdir(out->repo))))
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

int rung_task_load_target(rung_task *out, const char *target, const rung_task_where *w)
{
	static const rung_task_where none;
	if (!w)
		w = &none;
	memset(out, 0, sizeof(*out));
	/* a path (relative to -C DIR) wins over a revision of the same name */
	char *path = NULL;
	if (target && *target)
		path = w->dir && target[0] != '/' ? rung_path_join(w->dir, target) : strdup(target);
	else if (w->dir || w->task)
		path = rung_path_join(w->dir ? w->dir : ".", w->task ? w->task : ".");
	if ((target || w->dir || w->task) && !path)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	if (!target || !*target || path_exists(path)) {
		int rc = rung_task_load(out, path);
		free(path);
		return rc;
	}
	free(path);
	return load_rev(out, target, w);
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
	if (rung_repo_workdir(repo)[0] && !(t->root = strdup(rung_repo_workdir(repo))))
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

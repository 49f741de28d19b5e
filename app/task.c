/* Loading a task for a command (see app/task.h). */
#include "app/task.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/err.h"
#include "core/fs.h"
#include "core/sidecar.h"

char *rung_path_join(const char *dir, const char *name)
{
	if (!dir || !*dir || strcmp(dir, ".") == 0 || name[0] == '/')
		return strdup(name);
	size_t dl = strlen(dir);
	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	size_t n = dl + 1 + strlen(name) + 1;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%.*s/%s", (int)dl, dir, name);
	return p;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Splits the spec's `headers` (whitespace or comma separated, relative to the task dir)
 * into the NULL-terminated include list, after the task directory itself. */
int rung_task_build_includes(rung_task *t)
{
	const char *h = t->spec->headers ? t->spec->headers : "";
	int n = 2;
	for (const char *p = h; *p; p++)
		n++;
	t->include_dirs = calloc((size_t)n, sizeof(char *));
	if (!t->include_dirs)
		return RUNG_ENOMEM;
	int k = 0;
	if (!(t->include_dirs[k++] = strdup(t->dir)))
		return RUNG_ENOMEM;
	const char *p = h;
	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		const char *s = p;
		while (*p && *p != ' ' && *p != '\t' && *p != ',')
			p++;
		if (p > s) {
			char *name = strndup(s, (size_t)(p - s));
			if (!name)
				return RUNG_ENOMEM;
			t->include_dirs[k] = rung_path_join(t->dir, name);
			free(name);
			if (!t->include_dirs[k++])
				return RUNG_ENOMEM;
		}
	}
	return 0;
}

static int load_source(rung_task_source *s, const char *dir, const char *name, const char *entry)
{
	s->entry = entry;
	if (!name)
		return 0;
	if (!(s->path = rung_path_join(dir, name)))
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	int e = rung_fs_read_file(&s->src, &s->len, s->path, RUNG_FS_MAX_TEXT);
	if (e < 0) /* a file the spec names is missing: the spec is wrong */
		return e == RUNG_ENOTFOUND ? rung_error_recode(RUNG_ESPEC) : e;
	return 0;
}

/* t->root: the working tree of the repository t->dir is in, else t->dir. */
static int find_root(rung_task *t)
{
	rung_repo *r = NULL;
	if (rung_repo_open(&r, t->dir) == 0 && rung_repo_workdir(r)[0]) {
		t->root = strdup(rung_repo_workdir(r));
		t->root_what = "the repository";
	} else {
		t->root = strdup(t->dir);
		t->root_what = "the task directory";
	}
	rung_repo_free(r);
	rung_error_clear();
	return t->root ? 0 : rung_error_set(RUNG_ENOMEM, "out of memory");
}

/* The spec file itself lies inside t->root like every file it names: a
 * rung.ini linked out of the repository is refused before it is read, so none
 * of its text (a token in ~/.git-credentials) reaches a message. spec_path is
 * the task directory or the .ini file. */
static int confine_spec_file(const rung_task *t, const char *spec_path, bool is_dir)
{
	char *ini = is_dir ? rung_path_join(spec_path, "rung.ini") : strdup(spec_path);
	if (!ini)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	char *res = NULL;
	int rc = rung_fs_confined(&res, t->root, ini);
	if (rc == RUNG_EINVAL)
		rc = rung_error_set(RUNG_ESPEC, "%s: the spec is outside %s (%s): it is %s; rung reads no spec from outside",
				    ini, t->root_what, t->root, res ? res : "?");
	free(res);
	free(ini);
	return rc;
}

/* Every file the spec names must lie inside t->root. */
static int confine(rung_task *t)
{
	int rc = rung_spec_confine(t->spec, t->root, t->root_what);
	return rc == RUNG_EINVAL ? rung_error_recode(RUNG_ESPEC) : rc;
}

/* A .ptx or .cubin kernel's sidecar next to it on disk, when there is one: it
 * must lie inside t->root like every file the spec names. */
static int read_sidecar(rung_task *t)
{
	char *p = rung_sidecar_path(t->kernel.path);
	struct stat st;
	if (!p || stat(p, &st) != 0) {
		free(p);
		return 0;
	}
	t->sidecar_path = t->sidecar_path_own = p;
	char *res = NULL;
	int rc = rung_fs_confined(&res, t->root, p);
	free(res);
	if (rc == RUNG_EINVAL)
		return rung_error_set(RUNG_ESPEC, "%s: the kernel's sidecar is outside %s (%s): %s", p, t->root_what, t->root,
				      rung_error_last());
	if (rc < 0)
		return rc;
	rc = rung_fs_read_file(&t->sidecar_own, &t->sidecar_len, p, RUNG_SIDECAR_MAX);
	if (rc < 0)
		return rc == RUNG_ENOMEM ? rc : rung_error_recode(RUNG_ESPEC);
	t->sidecar = t->sidecar_own;
	return 0;
}

int rung_task_load(rung_task *out, const char *arg)
{
	memset(out, 0, sizeof(*out));
	if (!arg || !*arg)
		arg = ".";
	struct stat st;
	if (stat(arg, &st) != 0) {
		return rung_error_set(RUNG_EUSAGE, "%s: no such task directory or file", arg);
	}
	const char *kernel_name = NULL; /* a FILE argument replaces the spec's kernel */
	char *spec_path;
	if (S_ISDIR(st.st_mode)) {
		out->dir = strdup(arg);
		spec_path = strdup(arg);
	} else {
		out->dir = rung_fs_dir_of(arg);
		if (ends_with(arg, ".ini")) {
			spec_path = strdup(arg);
		} else {
			spec_path = strdup(out->dir);
			const char *slash = strrchr(arg, '/');
			kernel_name = slash ? slash + 1 : arg;
		}
	}
	if (!out->dir || !spec_path) {
		free(spec_path);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	int rc = find_root(out);
	if (rc == 0)
		rc = confine_spec_file(out, spec_path, S_ISDIR(st.st_mode) || !ends_with(arg, ".ini"));
	if (rc < 0) {
		free(spec_path);
		return rc;
	}
	rc = rung_spec_load(&out->spec, spec_path);
	free(spec_path);
	if (rc < 0)
		return rc == RUNG_ENOMEM ? rc : rung_error_recode(RUNG_ESPEC);
	rung_spec *s = out->spec;
	rung_spec_default_inputs(s); /* normal + wide unless the spec says (docs/SPEC.md) */
	rung_spec_default_checks(s); /* a size set below the block where the dims allow */
	out->arch = s->arch && *s->arch ? s->arch : "sm_90";
	if (!s->kernel || !s->entry)
		return rung_error_set(RUNG_ESPEC, "%s: [task] needs kernel and entry", s->path);
	if ((rc = confine(out)))
		return rc;
	if ((rc = load_source(&out->kernel, out->dir, kernel_name ? kernel_name : s->kernel, s->entry)))
		return rc;
	if ((rc = load_source(&out->reference, out->dir, s->reference,
	                      s->reference_entry ? s->reference_entry : s->entry)))
		return rc;
	if (rung_task_build_includes(out) < 0)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	if ((rc = read_sidecar(out)))
		return rc;
	rc = rung_launch_with_sidecar(&out->launch, s, out->kernel.src, out->kernel.path, out->sidecar, out->sidecar_len,
				      out->sidecar_path);
	if (rc < 0)
		return rc == RUNG_ENOMEM ? rc : rung_error_recode(RUNG_ESPEC);
	out->launch_from_source = rc == 1;
	return 0;
}

void rung_task_clear(rung_task *t)
{
	if (!t)
		return;
	if (t->borrowed) {
		if (t->include_dirs)
			for (char **d = t->include_dirs; *d; d++)
				free(*d);
		free(t->include_dirs);
		free(t->dir);
		free(t->root);
		free(t->view_own_path);
		free(t->view_own_ref);
		free(t->view_own_ref_path);
		rung_launch_clear(&t->launch);
		memset(t, 0, sizeof(*t));
		return;
	}
	free(t->sidecar_own);
	free(t->sidecar_path_own);
	free(t->root);
	rung_launch_clear(&t->launch);
	rung_spec_free(t->spec);
	free(t->dir);
	free(t->kernel.path);
	free(t->kernel.src);
	free(t->reference.path);
	free(t->reference.src);
	if (t->include_dirs)
		for (char **d = t->include_dirs; *d; d++)
			free(*d);
	free(t->include_dirs);
	if (t->ksrc) {
		rung_source_clear(t->ksrc);
		free(t->ksrc);
	}
	if (t->vtask) {
		rung_vtask_clear(t->vtask);
		free(t->vtask);
	}
	rung_repo_free(t->repo);
	memset(t, 0, sizeof(*t));
}

static int task_compile(rung_compiled *out, const rung_task *t, bool reference, bool keep)
{
	const rung_task_source *s = reference ? &t->reference : &t->kernel;
	if (!s->src) {
		memset(out, 0, sizeof(*out));
		return rung_error_set(RUNG_ENOTFOUND, "%s: the task has no %s", t->spec->path,
		                      reference ? "reference" : "kernel");
	}
	if (!t->root) { /* every loader sets it: a task's #includes are always confined */
		memset(out, 0, sizeof(*out));
		return rung_error_set(RUNG_EINVAL, "%s: no directory to confine its #includes to", s->path);
	}
	rung_compile_req req = {
	    .src = s->src,
	    .src_len = s->len,
	    .spec = t->spec,
	    .launch = reference ? NULL : &t->launch,
	    .file = s->path,
	    .entry = s->entry,
	    .arch = t->arch,
	    .options = t->spec->options,
	    .include_dirs = (const char *const *)t->include_dirs,
	    .root = t->root,
	    .root_what = t->root_what,
	};
	/* the reference changes far less often than the kernel: its CUBIN is kept
	 * by content in the user's cache directory (never the repository's, whose
	 * .git the agent writes) and reused */
	char cache[4096];
	if (reference || keep) {
		if (rung_fs_cache_dir(cache, sizeof(cache)) == 0)
			req.cache_dir = cache;
		else
			rung_error_clear(); /* no cache: the compile only costs its time */
	}
	if (reference && t->vtask) {
		req.headers = t->vtask->ref.headers;
		req.nheaders = t->vtask->ref.nheaders;
	} else if (!reference && t->ksrc) {
		req.headers = t->ksrc->headers;
		req.nheaders = t->ksrc->nheaders;
	}
	return rung_compile(out, &req);
}

int rung_task_compile(rung_compiled *out, const rung_task *t, bool reference)
{
	return task_compile(out, t, reference, false);
}

int rung_task_compile_kept(rung_compiled *out, const rung_task *t, bool reference)
{
	return task_compile(out, t, reference, true);
}

int rung_task_compile_both(rung_compiled *kc, rung_compiled *rc, const rung_task *t)
{
	memset(kc, 0, sizeof(*kc));
	memset(rc, 0, sizeof(*rc));
	if (rung_task_compile(kc, t, false)) /* the spec's arch or options: the task is broken */
		return rung_error_set(kc->spec_error ? RUNG_ESPEC : RUNG_ECOMPILE, "%s",
				      kc->error[0] ? kc->error : rung_error_last());
	if (t->reference.src && rung_task_compile(rc, t, true))
		return rung_error_set(RUNG_ESPEC, "the reference %s does not compile: %s", t->reference.path,
				      rc->error[0] ? rc->error : rung_error_last());
	return 0;
}

int rung_task_of_spec(rung_task *t, const rung_spec *spec, const char *kernel_name, const char *src, size_t len)
{
	memset(t, 0, sizeof(*t));
	t->borrowed = true;
	t->spec = (rung_spec *)spec; /* borrowed: never freed (t->borrowed) */
	t->arch = spec->arch && *spec->arch ? spec->arch : "sm_90";
	if (!spec->entry || !src)
		return rung_error_set(RUNG_ESPEC, "%s: [task] needs kernel and entry", spec->path ? spec->path : "rung.ini");
	if (!(t->dir = strdup(spec->dir ? spec->dir : ".")))
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	int rc = find_root(t);
	if (rc == 0)
		rc = confine(t);
	if (rc)
		return rc;
	t->kernel.entry = spec->entry;
	t->kernel.src = (char *)src; /* borrowed */
	t->kernel.len = len ? len : strlen(src);
	if (!(t->kernel.path = t->view_own_path = rung_path_join(t->dir, kernel_name ? kernel_name : spec->kernel)))
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	rung_task_source ref = {0};
	rc = load_source(&ref, t->dir, spec->reference, spec->reference_entry ? spec->reference_entry : spec->entry);
	t->reference = ref;
	t->view_own_ref = ref.src;
	t->view_own_ref_path = ref.path;
	if (rc)
		return rc;
	if (rung_task_build_includes(t) < 0)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	rc = rung_launch_with_sidecar(&t->launch, spec, t->kernel.src, t->kernel.path, NULL, 0, NULL);
	if (rc < 0)
		return rc == RUNG_ENOMEM ? rc : rung_error_recode(RUNG_ESPEC);
	t->launch_from_source = rc == 1;
	return 0;
}

/* The one task resolver (app/session.h, rung_where_task): which task of the
 * repository a request works on, for every front end alike (the CLI's cwd,
 * -C DIR and --task, the MCP server's `task` argument and `?task=`, the
 * workbench). A task named is the one used or an error, never the task
 * around the working directory in its place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "app/session.h"
#include "app/task.h"

#include <sys/stat.h>

static int task_index(char **tasks, int n, const char *rel)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(tasks[i], rel))
			return i;
	return -1;
}

/* A name that reads as a path from the root of the repository: not absolute,
 * no "." or ".." part (those are paths from the working directory alone). */
static bool plain_name(const char *s)
{
	if (!*s || *s == '/')
		return false;
	for (const char *p = s; *p;) {
		size_t l = strcspn(p, "/");
		if ((l == 1 && p[0] == '.') || (l == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += l;
		while (*p == '/')
			p++;
	}
	return true;
}

/* The named task: a task directory as a path from -C DIR (or the current
 * directory), else a task's name as rung prints it (its path from the root). */
static int named(char **tasks, int n, rung_repo *r, const rung_vctx_opts *w)
{
	char *path = w->dir && w->task[0] != '/' ? rung_repo_join(w->dir, w->task) : strdup(w->task);
	if (!path)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	char *rel = NULL;
	int e = rung_repo_relpath(&rel, r, path);
	free(path);
	if (e == RUNG_ENOMEM || e == RUNG_EIO)
		return e;
	rung_error_clear();
	int i = rel ? task_index(tasks, n, rel) : -1;
	free(rel);
	if (i >= 0 || !plain_name(w->task))
		return i;
	char name[4096];
	snprintf(name, sizeof(name), "%s", w->task);
	for (size_t l = strlen(name); l > 1 && name[l - 1] == '/'; l--)
		name[l - 1] = 0;
	return task_index(tasks, n, name);
}

int rung_where_task(char **out, rung_repo *r, const rung_vctx_opts *w)
{
	*out = NULL;
	char **tasks;
	int n, e = rung_repo_find_tasks(&tasks, &n, r);
	if (e < 0)
		return e;
	char list[1024];
	rung_repo_task_list(list, sizeof(list), tasks, n);
	int i;
	if (w->task) {
		if ((i = named(tasks, n, r, w)) < -1) {
			rung_strv_free(tasks, n);
			return i;
		}
		if (i < 0) {
			e = n ? rung_error_set(RUNG_EUSAGE, "no task %s in this repository (its tasks: %s)", w->task, list)
			      : rung_error_set(RUNG_EUSAGE, "no task %s: no rung.ini in this repository (at HEAD or in the working tree)",
					       w->task);
			rung_strv_free(tasks, n);
			return e;
		}
	} else {
		char *rel = NULL;
		/* outside the working tree (-C elsewhere): no task contains it */
		e = rung_repo_relpath(&rel, r, w->dir ? w->dir : ".");
		if (e == RUNG_ENOMEM || e == RUNG_EIO) {
			rung_strv_free(tasks, n);
			return e;
		}
		rung_error_clear();
		i = rel ? rung_repo_task_containing(tasks, n, rel) : -1;
		free(rel);
		if (i < 0 && n == 1)
			i = 0;
		if (i < 0) {
			e = n ? rung_error_set(RUNG_EINVAL, "%d tasks in this repository (%s): name one, or run from inside its directory",
					       n, list)
			      : rung_error_set(RUNG_ENOTFOUND, "%s: no rung.ini in this repository (at HEAD or in the working tree)",
					       rung_repo_workdir(r));
			rung_strv_free(tasks, n);
			return e;
		}
	}
	*out = strdup(tasks[i]);
	rung_strv_free(tasks, n);
	return *out ? 0 : rung_error_set(RUNG_ENOMEM, "out of memory");
}

int rung_where_task_of(char **out, rung_repo *r, const char *path)
{
	*out = NULL;
	char **tasks;
	int n, e = rung_repo_find_tasks(&tasks, &n, r);
	if (e < 0)
		return e;
	char *rel = NULL;
	e = rung_repo_relpath(&rel, r, path);
	if (e == RUNG_ENOMEM || e == RUNG_EIO) {
		rung_strv_free(tasks, n);
		return e;
	}
	rung_error_clear();
	int i = rel ? rung_repo_task_containing(tasks, n, rel) : -1;
	free(rel);
	if (i >= 0 && !(*out = strdup(tasks[i]))) {
		rung_strv_free(tasks, n);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	rung_strv_free(tasks, n);
	return i >= 0 ? 0 : 1;
}

int rung_where_repo_fail(const rung_vctx_opts *o, int e)
{
	if (!o || !o->task || e == RUNG_ENOMEM)
		return e;
	char *path = o->dir && o->task[0] != '/' ? rung_path_join(o->dir, o->task) : strdup(o->task);
	struct stat st;
	if (path && stat(path, &st) != 0)
		e = rung_error_set(RUNG_EUSAGE, "%s: no such task directory or file", o->task);
	free(path);
	return e;
}

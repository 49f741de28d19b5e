/* Loading a task for a command: find the task directory from TASKDIR, a path to
 * rung.ini or a kernel FILE inside a task directory; load the spec; read the kernel
 * and reference sources; apply the kernel's `// rung:` launch line; compile. */
#ifndef RUNG_TUI_TASK_LOAD_H
#define RUNG_TUI_TASK_LOAD_H

#include <stdbool.h>

#include "core/spec.h"
#include "gpu/compile.h"

typedef struct {
	char *path; /* as shown to the user: "sgemm.cu" or "tasks/sgemm/sgemm.cu" */
	char *src;  /* NULL when the task has no such file (no reference) */
	const char *entry;
} rung_task_source;

typedef struct {
	rung_spec *spec;
	char *dir; /* task directory as given ("." by default) */
	rung_task_source kernel, reference;
	rung_launch launch; /* [launch] overridden by the kernel's `// rung:` line */
	bool launch_from_source;
	const char *arch;    /* spec arch, else "sm_90" */
	char **include_dirs; /* task dir + the spec's headers dirs, NULL-terminated */
} rung_task;

/* arg: NULL (= "."), a task directory, a path to rung.ini, or a kernel file in a task
 * directory (then that file is the kernel). Returns 0, or a RUNG_EXIT_* code (nonzero)
 * after printing "rung <cmd>: <message>" to stderr: RUNG_EXIT_USAGE for a path that
 * does not exist, RUNG_EXIT_SPEC for a bad spec or launch line, RUNG_EXIT_INTERNAL for
 * I/O errors. */
int rung_task_load(rung_task *out, const char *cmd, const char *arg);
void rung_task_free(rung_task *t);

/* Compiles the kernel (or the reference) of a task. Returns rung_compile's code. */
int rung_task_compile(rung_compiled *out, const rung_task *t, bool reference);

/* Joins dir and name ("." is dropped): "sgemm.cu", "tasks/sgemm/sgemm.cu". Caller frees. */
char *rung_path_join(const char *dir, const char *name);

/* Reads a whole file (NUL-terminated). Returns 0 or RUNG_EIO/RUNG_ENOTFOUND with a message. */
int rung_read_file(char **out, size_t *len, const char *path);
/* Writes a whole file. Returns 0 or RUNG_EIO with a message naming the path. */
int rung_write_file(const char *path, const void *data, size_t len);

#endif

/* rung dump [--out DIR] [-C DIR] [--task DIR] [--spec-rev REV] [TASKDIR|FILE|REV]
 *
 * Compiles the kernel and the reference and writes, for an agent to read:
 *   kernel.cu kernel.ptx kernel.cubin kernel.sass ptxas.log
 * (a PTX version: kernel.ptx as committed; a CUBIN version: kernel.cubin as
 * committed, with no .cu or .ptx; the log is ptxas's, or says the CUBIN was
 * loaded as it is)
 *   reference.cu reference.ptx reference.cubin reference.sass reference.ptxas.log
 * into DIR (default <taskdir>/.rung/dumps/, or <taskdir>/.rung/dumps/<rev>/ for a
 * REV target read from git), printing each path written. The kernel's and
 * the reference's compile and SASS are kept by content in the repository's
 * git directory (rung/cubin, rung/sass) and reused. Without
 * nvdisasm the .sass files are left out (said on stderr) and the exit code stays 0. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "core/fs.h"
#include "gpu/compile.h"
#include "gpu/nvdisasm.h"
#include "gpu/sass_cache.h"
#include "cli/cli.h"
#include "app/task.h"

static int mkdir_p(const char *path)
{
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s", path);
	size_t n = strlen(buf);
	for (size_t i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != 0)
			continue;
		char c = buf[i];
		buf[i] = 0;
		if (mkdir(buf, 0755) != 0 && errno != EEXIST)
			return rung_error_set(RUNG_EIO, "%s: %s", buf, strerror(errno));
		buf[i] = c;
	}
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return rung_error_set(RUNG_EIO, "%s: not a directory", path);
	return 0;
}

/* Where the files go: a directory fd reached without following links (the
 * default folder inside the repository), and the path shown for it. */
typedef struct {
	int fd;
	const char *path;
} dump_dir;

/* Writes dir/name (through a temporary file and a rename: a committed
 * symlink of that name is replaced, never written through) and prints its
 * path; returns 0 or RUNG_EXIT_INTERNAL. */
static int dump_file(const dump_dir *dir, const char *name, const void *data, size_t len)
{
	char *path = rung_path_join(dir->path, name);
	if (!path)
		return RUNG_EXIT_INTERNAL;
	int rc = rung_fs_write_in(dir->fd, name, data, len, path);
	if (rc < 0)
		fprintf(stderr, "rung dump: %s\n", rung_error_last());
	else
		printf("%s\n", path);
	free(path);
	return rc < 0 ? RUNG_EXIT_INTERNAL : 0;
}

/* Dumps one source (prefix "kernel" or "reference"). *sass_missing is set when
 * nvdisasm is not there. Returns 0, RUNG_EXIT_FAIL (did not compile), RUNG_EXIT_SPEC (NVRTC
 * refused the spec's arch or options) or RUNG_EXIT_INTERNAL. */
static int dump_one(const rung_task *t, bool reference, const dump_dir *out_dir, bool *sass_missing)
{
	const rung_task_source *s = reference ? &t->reference : &t->kernel;
	const char *prefix = reference ? "reference" : "kernel";
	char name[64];
	int rc;
	/* the source as committed: kernel.cu, or kernel.ptx for a PTX version (then
	 * it is also the PTX); a CUBIN version's source is its kernel.cubin */
	rung_kernel_lang lang = rung_kernel_lang_of(s->path);
	snprintf(name, sizeof(name), "%s.%s", prefix, lang == RUNG_LANG_PTX ? "ptx" : "cu");
	if (lang != RUNG_LANG_CUBIN && (rc = dump_file(out_dir, name, s->src, s->len ? s->len : strlen(s->src))))
		return rc;

	rung_compiled c;
	/* kept by content: a second dump of the same machine code (an MCP client
	 * reading rung://dump/REV/FILE one file at a time) neither compiles nor
	 * runs nvdisasm again (gpu/compile_cache.h, gpu/sass_cache.h) */
	int crc = rung_task_compile_kept(&c, t, reference);
	snprintf(name, sizeof(name), "%s", reference ? "reference.ptxas.log" : "ptxas.log");
	const char *log = c.log ? c.log : "";
	if ((rc = dump_file(out_dir, name, log, strlen(log))))
		goto done;
	if (crc < 0) {
		fprintf(stderr, "rung dump: %s%s\n", reference ? "reference: " : "",
		        c.error[0] ? c.error : rung_error_last());
		rc = c.spec_error ? RUNG_EXIT_SPEC : RUNG_EXIT_FAIL; /* the spec's arch or options */
		goto done;
	}
	snprintf(name, sizeof(name), "%s.ptx", prefix);
	if (lang == RUNG_LANG_CUDA && (rc = dump_file(out_dir, name, c.ptx, c.ptx_len)))
		goto done;
	if (c.cubin_len < 4 || memcmp(c.cubin, "\x7f" "ELF", 4) != 0)
		goto done; /* PTX without ptxas: the driver JIT-compiles it (the log says so); no CUBIN, no SASS */
	snprintf(name, sizeof(name), "%s.cubin", prefix);
	if ((rc = dump_file(out_dir, name, c.cubin, c.cubin_len)))
		goto done;

	char *sass = NULL;
	bool kept = false;
	int src = rung_sass_from_cubin_kept(&sass, c.cubin, c.cubin_len, rung_task_gitdir(t), &kept);
	if (src == RUNG_ENOTFOUND) {
		*sass_missing = true;
	} else if (src < 0) {
		fprintf(stderr, "rung dump: %s: no SASS: %s\n", s->path, rung_error_last());
	} else {
		snprintf(name, sizeof(name), "%s.sass", prefix);
		rc = dump_file(out_dir, name, sass, strlen(sass));
	}
	free(sass);
done:
	rung_compiled_clear(&c);
	return rc;
}

typedef struct {
	const char *out;
	rung_task_where where;
} dump_opts;

static const rung_opt_spec dump_specs[] = {
	{RUNG_OPT_STR(dump_opts, out), .name = "out", .shortname = 'o', .value = "DIR",
	 .help = "write here (created if needed; default <taskdir>/.rung/dumps/)"},
	{RUNG_OPT_SUBTABLE(dump_opts, where, rung_vctx_opt_specs)},
	{0}};
const rung_opt_table rung_opts_dump = {.cmd = "dump", .args = "[TASKDIR|FILE|REV]", .max_args = 1, .opts = dump_specs};

int rung_cmd_dump(int argc, char **argv)
{
	dump_opts d = {0};
	int prc, nargs;
	if (rung_opts_parse(&prc, &rung_opts_dump, &d, argc, argv, &nargs))
		return prc;
	const char *out = d.out, *target = nargs ? argv[1] : NULL;
	rung_task_where where = d.where;
	rung_task t;
	int rc = rung_cli_task_load(&t, "dump", target, &where);
	if (rc) {
		rung_task_clear(&t);
		return rc;
	}
	/* The default folder lies in the work tree, which a repository fills:
	 * <taskdir>/.rung/dumps[/<rev>] is reached from the repository's root one
	 * part at a time without following a link (a committed
	 * .rung/dumps/kernel.cu -> ~/.bashrc must not be written through), and
	 * each file is written beside its name and renamed over it. --out is the
	 * person's own path. */
	char sub[64];
	snprintf(sub, sizeof(sub), ".rung/dumps%s%s", t.short_rev[0] ? "/" : "", t.short_rev);
	char *out_dir = out ? strdup(out) : rung_path_join(t.dir, sub);
	dump_dir dd = {.fd = -1, .path = out_dir};
	int rung_fd = -1;
	if (!out_dir) {
		rung_task_clear(&t);
		return RUNG_EXIT_INTERNAL;
	}
	if (out) {
		if (mkdir_p(out_dir) == 0 && (dd.fd = open(out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
			rung_error_set(RUNG_EIO, "%s: %s", out_dir, strerror(errno));
	} else {
		const char *root = t.root && *t.root ? t.root : t.dir;
		char *rel = NULL, *dot_rung = NULL, *dumps = NULL;
		if (rung_fs_rel_below(&rel, root, t.dir) == 0 &&
		    (dot_rung = rung_path_join(*rel ? rel : ".", ".rung")) &&
		    (dumps = rung_path_join(*rel ? rel : ".", sub)) &&
		    rung_fs_open_dir_in(&rung_fd, root, dot_rung, true) == 0)
			rung_fs_open_dir_in(&dd.fd, root, dumps, true);
		free(rel);
		free(dot_rung);
		free(dumps);
	}
	/* the default folder's files are named the same way whatever the target (a
	 * path gave sgemm/.rung/..., a revision /abs/.../.rung/...; #28 D-20):
	 * relative to the current directory when they are below it, else absolute */
	char shown[4096], real[4096], cwd[4096];
	if (!out && dd.fd >= 0 && realpath(out_dir, real) && getcwd(cwd, sizeof(cwd))) {
		size_t n = strlen(cwd);
		if (strcmp(cwd, "/") && !strncmp(real, cwd, n) && real[n] == '/')
			snprintf(shown, sizeof(shown), "%s", real + n + 1);
		else
			snprintf(shown, sizeof(shown), "%s", real);
		dd.path = shown;
	}
	if (dd.fd < 0) {
		/* a link (or a file) where the folder goes is the repository's doing: a bad task */
		int code = rung_error_last_code() == RUNG_EINVAL ? RUNG_EXIT_SPEC : RUNG_EXIT_INTERNAL;
		fprintf(stderr, "rung dump: %s\n", rung_error_last());
		if (rung_fd >= 0)
			close(rung_fd);
		free(out_dir);
		rung_task_clear(&t);
		return code;
	}
	if (rung_fd >= 0) {
		/* the default folder sits in the work tree: keep it out of an agent's
		 * `git add -A` (cubins, SASS) with a .gitignore of its own; anything
		 * there that is not a regular file (a link) is replaced */
		struct stat st;
		char *ign = rung_path_join(t.dir, ".rung/.gitignore");
		if (ign && (fstatat(rung_fd, ".gitignore", &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) &&
		    rung_fs_write_in(rung_fd, ".gitignore", "# written by rung dump: nothing here belongs in git\n*\n", 54,
				     ign) < 0)
			fprintf(stderr, "rung dump: %s (git may pick the dumps up)\n", rung_error_last());
		free(ign);
		close(rung_fd);
	}
	bool sass_missing = false;
	rc = dump_one(&t, false, &dd, &sass_missing);
	if (t.reference.src) {
		int rrc = dump_one(&t, true, &dd, &sass_missing);
		if (rrc == RUNG_EXIT_INTERNAL || (rrc && !rc))
			rc = rrc == RUNG_EXIT_FAIL ? RUNG_EXIT_SPEC : rrc;
	}
	if (sass_missing)
		fprintf(stderr, "rung dump: no .sass written: nvdisasm not found (pip install nvidia-cuda-nvdisasm)\n");
	close(dd.fd);
	free(out_dir);
	rung_task_clear(&t);
	return rc;
}

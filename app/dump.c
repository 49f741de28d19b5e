/* rung dump's files (app/dump.h). */
#define _GNU_SOURCE /* vasprintf */
#include "app/dump.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "core/fs.h"
#include "gpu/compile.h"
#include "gpu/nvdisasm.h"
#include "gpu/sass_cache.h"

static void add(rung_dump_result *r, bool message, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(rung_dump_result *r, bool message, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	int len = vasprintf(&s, fmt, ap);
	va_end(ap);
	rung_dump_item *grown = len >= 0 ? realloc(r->items, sizeof(*r->items) * (size_t)(r->n + 1)) : NULL;
	if (!grown) {
		free(len >= 0 ? s : NULL);
		return;
	}
	r->items = grown;
	r->items[r->n++] = (rung_dump_item){.message = message, .text = s};
}

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
 * symlink of that name is replaced, never written through) and lists its
 * path; 0 or RUNG_EIO. */
static int dump_file(rung_dump_result *r, const dump_dir *dir, const char *name, const void *data, size_t len)
{
	char *path = rung_path_join(dir->path, name);
	if (!path)
		return RUNG_EIO;
	int e = rung_fs_write_in(dir->fd, name, data, len, path);
	if (e < 0)
		add(r, true, "%s", rung_error_last());
	else
		add(r, false, "%s", path);
	free(path);
	return e < 0 ? RUNG_EIO : 0;
}

/* Dumps one source (prefix "kernel" or "reference"). *sass_missing is set when
 * nvdisasm is not there. Returns 0, RUNG_ECOMPILE (did not compile), RUNG_ESPEC
 * (NVRTC refused the spec's arch or options) or RUNG_EIO. */
static int dump_one(rung_dump_result *r, const rung_task *t, bool reference, const dump_dir *out_dir, bool *sass_missing)
{
	const rung_task_source *s = reference ? &t->reference : &t->kernel;
	const char *prefix = reference ? "reference" : "kernel";
	char name[64];
	int rc;
	/* the source as committed: kernel.cu, or kernel.ptx for a PTX version (then
	 * it is also the PTX); a CUBIN version's source is its kernel.cubin */
	rung_kernel_lang lang = rung_kernel_lang_of(s->path);
	snprintf(name, sizeof(name), "%s.%s", prefix, lang == RUNG_LANG_PTX ? "ptx" : "cu");
	if (lang != RUNG_LANG_CUBIN && (rc = dump_file(r, out_dir, name, s->src, s->len ? s->len : strlen(s->src))))
		return rc;

	rung_compiled c;
	/* kept by content: a second dump of the same machine code (an MCP client
	 * reading rung://dump/REV/FILE one file at a time) neither compiles nor
	 * runs nvdisasm again (gpu/compile_cache.h, gpu/sass_cache.h) */
	int crc = rung_task_compile_kept(&c, t, reference);
	snprintf(name, sizeof(name), "%s", reference ? "reference.ptxas.log" : "ptxas.log");
	const char *log = c.log ? c.log : "";
	if ((rc = dump_file(r, out_dir, name, log, strlen(log))))
		goto done;
	if (crc < 0) {
		add(r, true, "%s%s", reference ? "reference: " : "", c.error[0] ? c.error : rung_error_last());
		rc = c.spec_error ? RUNG_ESPEC : RUNG_ECOMPILE; /* the spec's arch or options */
		goto done;
	}
	snprintf(name, sizeof(name), "%s.ptx", prefix);
	if (lang == RUNG_LANG_CUDA && (rc = dump_file(r, out_dir, name, c.ptx, c.ptx_len)))
		goto done;
	if (c.cubin_len < 4 || memcmp(c.cubin, "\x7f" "ELF", 4) != 0)
		goto done; /* PTX without ptxas: the driver JIT-compiles it (the log says so); no CUBIN, no SASS */
	snprintf(name, sizeof(name), "%s.cubin", prefix);
	if ((rc = dump_file(r, out_dir, name, c.cubin, c.cubin_len)))
		goto done;

	char *sass = NULL;
	bool kept = false;
	char cache[4096];
	bool have_cache = rung_fs_cache_dir(cache, sizeof(cache)) == 0;
	if (!have_cache)
		rung_error_clear(); /* no cache: nvdisasm runs each time */
	int src = rung_sass_from_cubin_kept(&sass, c.cubin, c.cubin_len, have_cache ? cache : NULL, &kept);
	if (src == RUNG_ENOTFOUND) {
		*sass_missing = true;
	} else if (src < 0) {
		add(r, true, "%s: no SASS: %s", s->path, rung_error_last());
	} else {
		snprintf(name, sizeof(name), "%s.sass", prefix);
		rc = dump_file(r, out_dir, name, sass, strlen(sass));
	}
	free(sass);
done:
	rung_compiled_clear(&c);
	return rc;
}

int rung_dump(rung_dump_result *out, const rung_dump_req *req)
{
	memset(out, 0, sizeof(*out));
	const rung_task *t = req->task;
	const char *dest = req->out;
	/* The default folder lies in the work tree, which a repository fills:
	 * <taskdir>/.rung/dumps[/<rev>] is reached from the repository's root one
	 * part at a time without following a link (a committed
	 * .rung/dumps/kernel.cu -> ~/.bashrc must not be written through), and
	 * each file is written beside its name and renamed over it. --out is the
	 * person's own path. */
	char sub[64];
	snprintf(sub, sizeof(sub), ".rung/dumps%s%s", t->short_rev[0] ? "/" : "", t->short_rev);
	char *out_dir = dest ? strdup(dest) : rung_path_join(t->dir, sub);
	dump_dir dd = {.fd = -1, .path = out_dir};
	int rung_fd = -1;
	if (!out_dir)
		return out->err = RUNG_ENOMEM;
	if (dest) {
		if (mkdir_p(out_dir) == 0 && (dd.fd = open(out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
			rung_error_set(RUNG_EIO, "%s: %s", out_dir, strerror(errno));
	} else {
		const char *root = t->root && *t->root ? t->root : t->dir;
		char *rel = NULL, *dot_rung = NULL, *dumps = NULL;
		if (rung_fs_rel_below(&rel, root, t->dir) == 0 &&
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
	if (!dest && dd.fd >= 0 && realpath(out_dir, real) && getcwd(cwd, sizeof(cwd))) {
		size_t n = strlen(cwd);
		if (strcmp(cwd, "/") && !strncmp(real, cwd, n) && real[n] == '/')
			snprintf(shown, sizeof(shown), "%s", real + n + 1);
		else
			snprintf(shown, sizeof(shown), "%s", real);
		dd.path = shown;
	}
	if (dd.fd < 0) {
		/* a link (or a file) where the folder goes is the repository's doing: a bad task */
		out->err = rung_error_last_code() == RUNG_EINVAL ? RUNG_ESPEC : RUNG_EIO;
		add(out, true, "%s", rung_error_last());
		if (rung_fd >= 0)
			close(rung_fd);
		free(out_dir);
		return out->err;
	}
	if (rung_fd >= 0) {
		/* the default folder sits in the work tree: keep it out of an agent's
		 * `git add -A` (cubins, SASS) with a .gitignore of its own; anything
		 * there that is not a regular file (a link) is replaced */
		struct stat st;
		char *ign = rung_path_join(t->dir, ".rung/.gitignore");
		if (ign && (fstatat(rung_fd, ".gitignore", &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) &&
		    rung_fs_write_in(rung_fd, ".gitignore", "# written by rung dump: nothing here belongs in git\n*\n", 54,
				     ign) < 0)
			add(out, true, "%s (git may pick the dumps up)", rung_error_last());
		free(ign);
		close(rung_fd);
	}
	bool sass_missing = false;
	int rc = dump_one(out, t, false, &dd, &sass_missing);
	if (t->reference.src) {
		int rrc = dump_one(out, t, true, &dd, &sass_missing);
		if (rrc == RUNG_EIO || (rrc && !rc))
			rc = rrc == RUNG_ECOMPILE ? RUNG_ESPEC : rrc;
	}
	if (sass_missing)
		add(out, true, "no .sass written: nvdisasm not found (pip install nvidia-cuda-nvdisasm)");
	close(dd.fd);
	free(out_dir);
	rung_error_clear();
	return out->err = rc;
}

void rung_dump_result_clear(rung_dump_result *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->items[i].text);
	free(r->items);
	memset(r, 0, sizeof(*r));
}

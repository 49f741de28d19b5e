/* nvdisasm as a subprocess: the CUBIN goes to a temporary file, stdout and
 * stderr come back through pipes under a deadline (gpu/spawn.c). */
#include "gpu/nvdisasm.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "gpu/children.h"
#include "gpu/spawn.h"
#include "core/fs.h"
#include "core/timing.h"


#define NVDISASM_TIMEOUT_MS 60000
#define NOT_FOUND_MSG       "nvdisasm not found (pip install nvidia-cuda-nvdisasm)"

static pthread_once_t path_once = PTHREAD_ONCE_INIT;
static char path_buf[4096];
static bool path_found;

static bool try_glob(const char *pattern)
{
	return rung_fs_glob_exec(path_buf, sizeof(path_buf), pattern);
}

static void find_path(void)
{
	const char *env = getenv("RUNG_NVDISASM");
	if (env) {
		if (*env && rung_fs_is_exec(env)) {
			snprintf(path_buf, sizeof(path_buf), "%s", env);
			path_found = true;
		}
		return;
	}
	/* $PATH, then the toolkit's bin directories, then a conda environment's */
	const char *home = getenv("CUDA_HOME"), *conda = getenv("CONDA_PREFIX");
	char home_bin[4096] = "", conda_bin[4096] = "", built[4096] = "";
	if (home && *home)
		snprintf(home_bin, sizeof(home_bin), "%s/bin", home);
#ifdef RUNG_CUDA_INCLUDE
	snprintf(built, sizeof(built), "%s/../bin", RUNG_CUDA_INCLUDE);
#endif
	if (conda && *conda)
		snprintf(conda_bin, sizeof(conda_bin), "%s/bin", conda);
	const char *extra[] = {home_bin, built, "/usr/local/cuda/bin", conda_bin, NULL};
	if ((path_found = rung_fs_which(path_buf, sizeof(path_buf), "nvdisasm", extra)))
		return;
	const char *venv = getenv("VIRTUAL_ENV");
	const char *user = getenv("HOME");
	const char *suffix = "nvidia/*/bin/nvdisasm";
	char pat[4096];
	if (venv && *venv) {
		snprintf(pat, sizeof(pat), "%s/lib/python3*/site-packages/%s", venv, suffix);
		if ((path_found = try_glob(pat)))
			return;
	}
	if (conda && *conda) {
		snprintf(pat, sizeof(pat), "%s/lib/python3*/site-packages/%s", conda, suffix);
		if ((path_found = try_glob(pat)))
			return;
	}
	if (user && *user) {
		snprintf(pat, sizeof(pat), "%s/.local/lib/python3*/site-packages/%s", user, suffix);
		if ((path_found = try_glob(pat)))
			return;
		snprintf(pat, sizeof(pat), "%s/.pyenv/versions/*/lib/python3*/site-packages/%s", user, suffix);
		if ((path_found = try_glob(pat)))
			return;
	}
	const char *prefixes[] = {
	    "/usr/local/lib/python3*/dist-packages", "/usr/local/lib/python3*/site-packages",
	    "/usr/lib/python3/dist-packages",        "/usr/lib/python3*/site-packages",
	    "/opt/conda/lib/python3*/site-packages", "/root/.pyenv/versions/*/lib/python3*/site-packages",
	};
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		snprintf(pat, sizeof(pat), "%s/%s", prefixes[i], suffix);
		if ((path_found = try_glob(pat)))
			return;
	}
}

const char *rung_nvdisasm_path(void)
{
	pthread_once(&path_once, find_path);
	return path_found ? path_buf : NULL;
}

/* Runs tool with argv (rung's own arguments only) and reads its stdout into
 * *out_text under the deadline. */
static int run_tool(char **out_text, const char *tool, const char *const argv[])
{
	rung_spawned r;
	int rc = rung__spawn(&r, "nvdisasm", tool, argv, NVDISASM_TIMEOUT_MS, (size_t)1 << 30, (size_t)64 << 10);
	int ml;
	const char *msg = rung__spawned_errline(&r, &ml);
	if (rc == 0 && WIFEXITED(r.status) && WEXITSTATUS(r.status) != 0)
		rc = rung_error_set(RUNG_EIO, "nvdisasm failed (exit %d): %.*s", WEXITSTATUS(r.status), ml, msg);
	else if (rc == 0 && !WIFEXITED(r.status))
		rc = rung_error_set(RUNG_EIO, "nvdisasm killed by signal %d", WTERMSIG(r.status));
	if (rc < 0) {
		rung__spawned_clear(&r);
		return rc;
	}
	*out_text = r.out;
	free(r.err);
	return 0;
}

int rung_sass_from_cubin(char **out_text, const void *cubin, size_t len)
{
	*out_text = NULL;
	const char *tool = rung_nvdisasm_path();
	if (!tool)
		return rung_error_set(RUNG_ENOTFOUND, NOT_FOUND_MSG);
	if (!cubin || len == 0)
		return rung_error_set(RUNG_EINVAL, "nvdisasm: empty CUBIN");

	const char *tmp = getenv("TMPDIR");
	char file[4096];
	snprintf(file, sizeof(file), "%s/rung-cubin-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	int fd = mkstemp(file);
	if (fd < 0)
		return rung_error_set(RUNG_EIO, "nvdisasm: cannot create temporary file %s: %s", file, strerror(errno));
	rung_tmp_add(file); /* removed on a signal too (cli/signals.c) */
	if (rung_fs_write_all(fd, cubin, len) < 0) {
		int e = errno;
		close(fd);
		unlink(file);
		rung_tmp_del(file);
		return rung_error_set(RUNG_EIO, "nvdisasm: cannot write %s: %s", file, strerror(e));
	}
	close(fd);

	/* with line info (`//## File "k.cu", line 27`, inline chains: -gi); an
	 * nvdisasm that does not know -gi gets the plain listing */
	const char *argv_lines[] = {tool, "-c", "-gi", file, NULL};
	const char *argv_plain[] = {tool, "-c", file, NULL};
	int rc = run_tool(out_text, tool, argv_lines);
	if (rc == RUNG_EIO && strstr(rung_error_last(), "exit ")) {
		char first[512];
		snprintf(first, sizeof(first), "%s", rung_error_last());
		rc = run_tool(out_text, tool, argv_plain);
		if (rc == RUNG_EIO)
			rung_error_set(RUNG_EIO, "%s", first); /* the first complaint, as before */
	}
	unlink(file);
	rung_tmp_del(file);
	return rc;
}

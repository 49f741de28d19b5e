/* ptxas as a subprocess (gpu/ptxas_run.h): the PTX is written to a private
 * temporary directory, ptxas writes the CUBIN beside it, and its stdout and
 * stderr come back as one log under a deadline (gpu/spawn.c). */
#include "gpu/ptxas_run.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/err.h"
#include "core/fs.h"
#include "core/timing.h"
#include "gpu/children.h"
#include "gpu/spawn.h"


#define PTXAS_TIMEOUT_MS 60000
#define LOG_MAX (4u << 20)

static pthread_once_t path_once = PTHREAD_ONCE_INIT;
static char path_buf[4096];
static bool path_found;

static bool try_glob(const char *pattern)
{
	return rung_fs_glob_exec(path_buf, sizeof(path_buf), pattern);
}

static void find_path(void)
{
	const char *env = getenv("RUNG_PTXAS");
	if (env) {
		if (*env && rung_fs_is_exec(env)) {
			snprintf(path_buf, sizeof(path_buf), "%s", env);
			path_found = true;
		}
		return;
	}
	const char *home = getenv("CUDA_HOME");
	char home_bin[4096] = "", built[4096] = "";
	if (home && *home)
		snprintf(home_bin, sizeof(home_bin), "%s/bin", home);
#ifdef RUNG_CUDA_INCLUDE
	snprintf(built, sizeof(built), "%s/../bin", RUNG_CUDA_INCLUDE);
#endif
	const char *extra[] = {home_bin, built, "/usr/local/cuda/bin", NULL};
	if ((path_found = rung_fs_which(path_buf, sizeof(path_buf), "ptxas", extra)))
		return;
	const char *venv = getenv("VIRTUAL_ENV"), *conda = getenv("CONDA_PREFIX"), *user = getenv("HOME");
	const char *prefixes[8];
	char pv[4096] = "", pc[4096] = "", pu[4096] = "";
	int np = 0;
	if (venv && *venv)
		snprintf(pv, sizeof(pv), "%s/lib/python3*/site-packages", venv), prefixes[np++] = pv;
	if (conda && *conda)
		snprintf(pc, sizeof(pc), "%s/lib/python3*/site-packages", conda), prefixes[np++] = pc;
	if (user && *user)
		snprintf(pu, sizeof(pu), "%s/.local/lib/python3*/site-packages", user), prefixes[np++] = pu;
	prefixes[np++] = "/usr/local/lib/python3*/dist-packages";
	prefixes[np++] = "/usr/local/lib/python3*/site-packages";
	prefixes[np++] = "/usr/lib/python3/dist-packages";
	const char *suffixes[] = {"triton/backends/nvidia/bin/ptxas", "nvidia/cuda_nvcc/bin/ptxas", "nvidia/cu*/bin/ptxas"};
	char pat[8192];
	for (int i = 0; i < np; i++)
		for (size_t k = 0; k < sizeof(suffixes) / sizeof(suffixes[0]); k++) {
			snprintf(pat, sizeof(pat), "%s/%s", prefixes[i], suffixes[k]);
			if ((path_found = try_glob(pat)))
				return;
		}
}

const char *rung_ptxas_path(void)
{
	pthread_once(&path_once, find_path);
	return path_found ? path_buf : NULL;
}

/* arch "sm_90", "sm_90a": letters, digits and '_' only, so that it is one argument. */
static bool arch_ok(const char *a)
{
	if (strncmp(a, "sm_", 3) || !a[3])
		return false;
	for (const char *p = a + 3; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z')))
			return false;
	return strlen(a) < 16;
}

int rung_ptxas_run(void **cubin, size_t *cubin_len, char **log, const char *ptx, size_t len, const char *arch)
{
	*cubin = NULL;
	*cubin_len = 0;
	*log = NULL;
	const char *tool = rung_ptxas_path();
	if (!tool)
		return rung_error_set(RUNG_ENOTFOUND, "ptxas not found");
	if (!arch || !arch_ok(arch))
		return rung_error_set(RUNG_EINVAL, "ptxas: bad architecture '%s'", arch ? arch : "");
	const char *tmp = getenv("TMPDIR");
	char dir[4096], in[4200], out[4200], archopt[32];
	snprintf(dir, sizeof(dir), "%s/rung-ptxas-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return rung_error_set(RUNG_EIO, "ptxas: cannot create a temporary directory: %s", strerror(errno));
	rung_tmp_add(dir);
	snprintf(in, sizeof(in), "%s/kernel.ptx", dir);
	snprintf(out, sizeof(out), "%s/kernel.cubin", dir);
	snprintf(archopt, sizeof(archopt), "-arch=%s", arch);
	int rc = 0, fd = open(in, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || rung_fs_write_all(fd, ptx, len) < 0) {
		rc = rung_error_set(RUNG_EIO, "ptxas: cannot write %s: %s", in, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto cleanup;
	}
	close(fd);
	const char *argv[] = {tool, archopt, "-v", "-lineinfo", "-o", out, in, NULL};
	rung_spawned r;
	/* its stdout and stderr as one log, as a terminal shows them */
	int sp = rung__spawn(&r, "ptxas", tool, argv, PTXAS_TIMEOUT_MS, LOG_MAX, 0);
	if (sp == RUNG_EIO) {
		rung__spawned_clear(&r);
		rc = sp;
		goto cleanup;
	}
	int status = r.status;
	*log = r.out;
	r.out = NULL;
	rung__spawned_clear(&r);
	if (!*log) {
		rc = rung_error_set(RUNG_ENOMEM, "out of memory");
		goto cleanup;
	}
	if (sp == RUNG_ETIMEOUT)
		rc = rung_error_set(RUNG_ETIMEOUT, "ptxas: no answer after %d s", PTXAS_TIMEOUT_MS / 1000);
	else if (sp == RUNG_ENOMEM)
		rc = rung_error_set(RUNG_ENOMEM, "ptxas: out of memory");
	else if (!WIFEXITED(status))
		rc = rung_error_set(RUNG_EIO, "ptxas killed by signal %d", WTERMSIG(status));
	else if (WEXITSTATUS(status) != 0)
		rc = rung_error_set(RUNG_ECOMPILE, "ptxas failed (exit %d)", WEXITSTATUS(status));
	else if (rung_fs_read_file((char **)cubin, cubin_len, out, RUNG_FS_MAX_TEXT) < 0)
		rc = rung_error_set(RUNG_EIO, "ptxas wrote no CUBIN: %s", rung_error_last());
cleanup:
	unlink(in);
	unlink(out);
	rmdir(dir);
	rung_tmp_del(dir);
	return rc;
}

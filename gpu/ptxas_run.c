/* ptxas as a subprocess (gpu/ptxas_run.h): the PTX is written to a private
 * temporary directory, ptxas writes the CUBIN beside it, and its stdout and
 * stderr come back through one pipe read with poll() under a deadline. */
#include "gpu/ptxas_run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/err.h"
#include "core/fs.h"
#include "core/timing.h"

extern char **environ;

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

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
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
	snprintf(in, sizeof(in), "%s/kernel.ptx", dir);
	snprintf(out, sizeof(out), "%s/kernel.cubin", dir);
	snprintf(archopt, sizeof(archopt), "-arch=%s", arch);
	int rc = 0, fd = open(in, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write_all(fd, ptx, len) < 0) {
		rc = rung_error_set(RUNG_EIO, "ptxas: cannot write %s: %s", in, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto cleanup;
	}
	close(fd);
	int pp[2];
	if (pipe(pp) < 0) {
		rc = rung_error_set(RUNG_EIO, "ptxas: pipe: %s", strerror(errno));
		goto cleanup;
	}
	fcntl(pp[0], F_SETFD, FD_CLOEXEC);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pp[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, pp[1], STDERR_FILENO);
	posix_spawn_file_actions_addclose(&fa, pp[1]);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	char *argv[] = {(char *)tool, archopt, "-v", "-lineinfo", "-o", out, in, NULL};
	pid_t pid;
	int sp = posix_spawn(&pid, tool, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pp[1]);
	if (sp != 0) {
		close(pp[0]);
		rc = rung_error_set(RUNG_EIO, "ptxas: cannot run %s: %s", tool, strerror(sp));
		goto cleanup;
	}
	char *buf = NULL;
	size_t n = 0, cap = 0;
	bool timed_out = false, nomem = false;
	int64_t deadline = rung_now_ms() + PTXAS_TIMEOUT_MS;
	for (;;) {
		int left = (int)(deadline - rung_now_ms());
		if (left <= 0) {
			timed_out = true;
			break;
		}
		struct pollfd pf = {.fd = pp[0], .events = POLLIN};
		int pr = poll(&pf, 1, left);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0)
			break;
		if (pr == 0)
			continue;
		if (cap - n < 4096) {
			size_t nc = cap ? cap * 2 : 65536;
			char *nb = nc <= LOG_MAX ? realloc(buf, nc) : NULL;
			if (!nb) {
				nomem = nc <= LOG_MAX;
				break;
			}
			buf = nb;
			cap = nc;
		}
		ssize_t r = read(pp[0], buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(pp[0]);
	if (timed_out || nomem)
		kill(pid, SIGKILL);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!buf && !(buf = malloc(1))) {
		rc = rung_error_set(RUNG_ENOMEM, "out of memory");
		goto cleanup;
	}
	buf[n] = 0;
	*log = buf;
	if (timed_out)
		rc = rung_error_set(RUNG_ETIMEOUT, "ptxas: no answer after %d s", PTXAS_TIMEOUT_MS / 1000);
	else if (nomem)
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
	return rc;
}

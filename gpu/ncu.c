#include "gpu/ncu.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/err.h"
#include "core/timing.h"

extern char **environ;

#define NCU_TIMEOUT_MS (300 * 1000)
#define NCU_MAX_OUT ((size_t)256 << 20)
#define NCU_MAX_ERR ((size_t)64 << 10)

typedef struct {
	char *v;
	size_t n, cap, max;
	bool over;
} growbuf;

/* One read into b; past b->max the bytes are read and dropped (b->over). */
static ssize_t grow_read(growbuf *b, int fd)
{
	char tmp[65536];
	ssize_t r = read(fd, tmp, sizeof(tmp));
	if (r <= 0)
		return r;
	size_t k = (size_t)r;
	if (b->n + k > b->max) {
		b->over = true;
		k = b->n < b->max ? b->max - b->n : 0;
	}
	if (b->n + k + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 65536;
		while (cap < b->n + k + 1)
			cap *= 2;
		char *v = realloc(b->v, cap);
		if (!v)
			return -2;
		b->v = v;
		b->cap = cap;
	}
	memcpy(b->v + b->n, tmp, k);
	b->n += k;
	b->v[b->n] = 0;
	return r;
}

int rung_ncu_export_page(char **out, size_t *len, const char *ncu, const char *report, rung_ncu_page page)
{
	*out = NULL;
	*len = 0;
	const char *details[] = {ncu, "--import", report, "--page", "details", "--csv", NULL};
	const char *source[] = {ncu, "--import", report, "--page", "source", "--csv", "--print-source", "sass", NULL};
	const char *const *argv = page == RUNG_NCU_PAGE_SOURCE ? source : details;
	const char *what = page == RUNG_NCU_PAGE_SOURCE ? "source" : "details";
	int op[2] = {-1, -1}, ep[2] = {-1, -1};
	if (pipe(op) < 0 || pipe(ep) < 0) {
		int e = errno;
		for (int i = 0; i < 2; i++) {
			if (op[i] >= 0)
				close(op[i]);
			if (ep[i] >= 0)
				close(ep[i]);
		}
		return rung_error_set(RUNG_EIO, "ncu: pipe: %s", strerror(e));
	}
	fcntl(op[0], F_SETFD, FD_CLOEXEC);
	fcntl(ep[0], F_SETFD, FD_CLOEXEC);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, op[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, ep[1], STDERR_FILENO);
	posix_spawn_file_actions_addclose(&fa, op[1]);
	posix_spawn_file_actions_addclose(&fa, ep[1]);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	pid_t pid;
	int sp = posix_spawn(&pid, ncu, &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(op[1]);
	close(ep[1]);
	if (sp != 0) {
		close(op[0]);
		close(ep[0]);
		return rung_error_set(RUNG_EIO, "ncu: cannot run %s: %s", ncu, strerror(sp));
	}
	growbuf o = {.max = NCU_MAX_OUT}, e = {.max = NCU_MAX_ERR};
	struct pollfd fds[2] = {{.fd = op[0], .events = POLLIN}, {.fd = ep[0], .events = POLLIN}};
	int open_fds = 2;
	bool timed_out = false, nomem = false;
	int64_t deadline = rung_now_ms() + NCU_TIMEOUT_MS;
	while (open_fds > 0) {
		int left = (int)(deadline - rung_now_ms());
		if (left <= 0) {
			timed_out = true;
			break;
		}
		int pr = poll(fds, 2, left);
		if (pr < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t r = grow_read(i == 0 ? &o : &e, fds[i].fd);
			if (r == -1 && errno == EINTR)
				continue;
			if (r <= 0) {
				nomem |= r == -2;
				close(fds[i].fd);
				fds[i].fd = -1;
				open_fds--;
			}
		}
	}
	for (int i = 0; i < 2; i++)
		if (fds[i].fd >= 0)
			close(fds[i].fd);
	if (timed_out)
		kill(pid, SIGKILL);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	int rc = 0;
	const char *msg = e.v ? e.v : "";
	while (*msg == '\n' || *msg == ' ')
		msg++;
	int ml = (int)strcspn(msg, "\n");
	if (timed_out)
		rc = rung_error_set(RUNG_ETIMEOUT, "ncu --import --page %s: no answer after %d s", what, NCU_TIMEOUT_MS / 1000);
	else if (nomem)
		rc = rung_error_set(RUNG_ENOMEM, "ncu --import --page %s: out of memory", what);
	else if (!WIFEXITED(status))
		rc = rung_error_set(RUNG_EIO, "ncu --import --page %s: killed by signal %d", what, WTERMSIG(status));
	else if (WEXITSTATUS(status) != 0)
		rc = rung_error_set(RUNG_EIO, "ncu --import --page %s failed (exit %d)%s%.*s", what, WEXITSTATUS(status),
				    ml ? ": " : "", ml > 300 ? 300 : ml, msg);
	else if (o.over)
		rc = rung_error_set(RUNG_EIO, "ncu --import --page %s: more than %zu MiB of output", what, NCU_MAX_OUT >> 20);
	free(e.v);
	if (rc < 0) {
		free(o.v);
		return rc;
	}
	if (!o.v && !(o.v = calloc(1, 1)))
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	*out = o.v;
	*len = o.n;
	return 0;
}

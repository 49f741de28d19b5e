#include "gpu/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/err.h"
#include "core/timing.h"
#include "gpu/children.h"

extern char **environ;

typedef struct {
	char *v;
	size_t n, cap, max;
	bool over;
} growbuf;

/* One read into b; past b->max the bytes are read and dropped (b->over).
 * Returns read's result, or -2 out of memory. */
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

void rung__spawned_clear(rung_spawned *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

const char *rung__spawned_errline(const rung_spawned *r, int *len)
{
	const char *m = r->err ? r->err : "";
	while (*m == '\n' || *m == ' ')
		m++;
	*len = (int)strcspn(m, "\n");
	return m;
}

int rung__spawn(rung_spawned *r, const char *what, const char *tool, const char *const argv[], int timeout_ms,
		size_t max_out, size_t max_err)
{
	memset(r, 0, sizeof(*r));
	bool merge = max_err == 0;
	int op[2] = {-1, -1}, ep[2] = {-1, -1};
	if (pipe(op) < 0 || (!merge && pipe(ep) < 0)) {
		int e = errno;
		for (int i = 0; i < 2; i++) {
			if (op[i] >= 0)
				close(op[i]);
			if (ep[i] >= 0)
				close(ep[i]);
		}
		return rung_error_set(RUNG_EIO, "%s: pipe: %s", what, strerror(e));
	}
	fcntl(op[0], F_SETFD, FD_CLOEXEC);
	if (!merge)
		fcntl(ep[0], F_SETFD, FD_CLOEXEC);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, op[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, merge ? op[1] : ep[1], STDERR_FILENO);
	posix_spawn_file_actions_addclose(&fa, op[1]);
	if (!merge)
		posix_spawn_file_actions_addclose(&fa, ep[1]);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawnattr_t sa; /* no signal blocked in the tool (cli/signals.c blocks them here) */
	posix_spawnattr_init(&sa);
	sigset_t none;
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&sa, &none);
	posix_spawnattr_setflags(&sa, POSIX_SPAWN_SETSIGMASK);
	pid_t pid;
	int sp = posix_spawn(&pid, tool, &fa, &sa, (char *const *)argv, environ);
	posix_spawnattr_destroy(&sa);
	posix_spawn_file_actions_destroy(&fa);
	if (sp == 0)
		rung_children_add(pid, false);
	close(op[1]);
	if (!merge)
		close(ep[1]);
	if (sp != 0) {
		close(op[0]);
		if (!merge)
			close(ep[0]);
		return rung_error_set(RUNG_EIO, "%s: cannot run %s: %s", what, tool, strerror(sp));
	}
	growbuf o = {.max = max_out}, e = {.max = max_err};
	struct pollfd fds[2] = {{.fd = op[0], .events = POLLIN}, {.fd = ep[0], .events = POLLIN}};
	int open_fds = merge ? 1 : 2;
	bool timed_out = false, nomem = false;
	int64_t deadline = rung_now_ms() + timeout_ms;
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
			ssize_t n = grow_read(i == 0 ? &o : &e, fds[i].fd);
			if (n == -1 && errno == EINTR)
				continue;
			if (n <= 0) {
				nomem |= n == -2;
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
	while (waitpid(pid, &r->status, 0) < 0 && errno == EINTR)
		;
	rung_children_del(pid);
	if (!o.v)
		o.v = calloc(1, 1);
	if (!e.v)
		e.v = calloc(1, 1);
	r->out = o.v;
	r->err = e.v;
	r->out_len = o.n;
	r->err_len = e.n;
	r->out_over = o.over;
	if (timed_out)
		return rung_error_set(RUNG_ETIMEOUT, "%s: no answer after %d s", what, timeout_ms / 1000);
	if (nomem || !r->out || !r->err)
		return rung_error_set(RUNG_ENOMEM, "%s: out of memory", what);
	return 0;
}

#define _GNU_SOURCE /* pipe2, F_SETPIPE_SZ */
#include "gpu/capture.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/inert.h"

void rung__capture_init(rung_capture *c)
{
	memset(c, 0, sizeof(*c));
	c->fd[0] = c->fd[1] = -1;
	c->forward_fd = STDERR_FILENO;
}

static void close_stream(rung_capture *c, int k)
{
	if (c->fd[k] >= 0)
		close(c->fd[k]);
	c->fd[k] = -1;
	if (c->chan)
		c->chan->side_fd[k] = -1;
}

int rung__capture_open(rung_capture *c, int *child_out, int *child_err)
{
	int p[2][2];
	if (pipe2(p[0], O_CLOEXEC) < 0)
		return rung_error_set(RUNG_EIO, "worker: pipe: %s", strerror(errno));
	if (pipe2(p[1], O_CLOEXEC) < 0) {
		int e = errno;
		close(p[0][0]);
		close(p[0][1]);
		return rung_error_set(RUNG_EIO, "worker: pipe: %s", strerror(e));
	}
	for (int k = 0; k < 2; k++) {
		/* only the parent's end is non-blocking: the worker's writes block, never fail */
		fcntl(p[k][0], F_SETFL, fcntl(p[k][0], F_GETFL) | O_NONBLOCK);
		/* room for a burst while the parent is busy (best effort: the limit is
		 * /proc/sys/fs/pipe-max-size) */
		fcntl(p[k][0], F_SETPIPE_SZ, 1 << 20);
		c->fd[k] = p[k][0];
	}
	*child_out = p[0][1];
	*child_err = p[1][1];
	return 0;
}

/* Bytes of the job's output. */
static void take(rung_capture *c, const char *s, size_t n)
{
	if (!c->keep && !(c->keep = malloc(RUNG_OUTPUT_KEEP)))
		return;
	size_t room = RUNG_OUTPUT_KEEP - c->kept;
	size_t k = n < room ? n : room;
	memcpy(c->keep + c->kept, s, k);
	c->kept += k;
	c->bytes += (int64_t)n;
	c->printed_since += (int64_t)n;
}

static void write_all(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* One line to the parent's stderr, made inert, within RUNG_FORWARD_MAX. */
static void forward(rung_capture *c, const char *prefix, const char *s, size_t n)
{
	if (c->forwarded + (int64_t)n > RUNG_FORWARD_MAX) {
		c->unforwarded += (int64_t)n;
		return;
	}
	c->forwarded += (int64_t)n;
	size_t cap = strlen(prefix) + n * 8 + 2;
	char *buf = malloc(cap);
	if (!buf)
		return;
	size_t p = (size_t)snprintf(buf, cap, "%s", prefix);
	rung_inert(buf + p, cap - p, s, n);
	p += strlen(buf + p);
	buf[p++] = '\n';
	write_all(c->forward_fd, buf, p);
	free(buf);
}

static void say_unforwarded(rung_capture *c)
{
	if (c->unforwarded > 0) {
		char b[32], line[128];
		rung_fmt_bytes(b, sizeof(b), c->unforwarded);
		int n = snprintf(line, sizeof(line), "rung worker: %s more of its diagnostics not shown\n", b);
		write_all(c->forward_fd, line, (size_t)n);
	}
	c->forwarded = c->unforwarded = 0;
}

/* A line of stream k (without its newline; nl: it had one). rung's own
 * diagnostics on the worker's stderr start with "rung " (RUNG_TIMING lines,
 * "rung worker: ..." warnings): they go to our stderr, as does anything
 * printed outside a job; the rest is the job's output. */
static void line_out(rung_capture *c, int k, const char *s, size_t n, bool nl)
{
	bool own = k == 1 && n >= 5 && memcmp(s, "rung ", 5) == 0;
	if (c->active && !own) {
		take(c, s, n);
		if (nl)
			take(c, "\n", 1);
	} else if (n || nl) {
		forward(c, own ? "" : k ? "rung worker: stderr: " : "rung worker: stdout: ", s, n);
	}
}

static void handle(rung_capture *c, int k, const char *s, size_t n)
{
	if (k == 0 && c->active) { /* device printf: as it comes */
		take(c, s, n);
		return;
	}
	while (n > 0) {
		const char *nl = memchr(s, '\n', n);
		size_t seg = nl ? (size_t)(nl - s) : n;
		size_t room = sizeof(c->line[k].buf) - c->line[k].len;
		if (seg >= room) { /* an overlong line: out in pieces */
			memcpy(c->line[k].buf + c->line[k].len, s, room);
			line_out(c, k, c->line[k].buf, sizeof(c->line[k].buf), false);
			c->line[k].len = 0;
			s += room;
			n -= room;
			continue;
		}
		memcpy(c->line[k].buf + c->line[k].len, s, seg);
		c->line[k].len += seg;
		if (!nl)
			return;
		line_out(c, k, c->line[k].buf, c->line[k].len, true);
		c->line[k].len = 0;
		s += seg + 1;
		n -= seg + 1;
	}
}

static void flush_lines(rung_capture *c)
{
	for (int k = 0; k < 2; k++) {
		if (c->line[k].len)
			line_out(c, k, c->line[k].buf, c->line[k].len, false);
		c->line[k].len = 0;
	}
}

int64_t rung__capture_cap(const rung_capture *c)
{
	int64_t factor = RUNG_OUTPUT_DEADLINE_FACTOR * c->window_ms;
	int64_t flood = c->window_ms > RUNG_OUTPUT_FLOOD_MS ? c->window_ms : RUNG_OUTPUT_FLOOD_MS;
	return c->since_ms + (factor < flood ? factor : flood);
}

/* Reads stream k until it would block (at most 1 MiB, so that a flood cannot
 * hold the caller here past its deadline). */
static void drain_fd(rung_capture *c, int k, int64_t *deadline_ms)
{
	char buf[65536];
	for (int round = 0; round < 16 && c->fd[k] >= 0; round++) {
		ssize_t n = read(c->fd[k], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			close_stream(c, k);
			return;
		}
		int64_t before = c->printed_since;
		handle(c, k, buf, (size_t)n);
		/* the job's output is activity (rung's own lines are not) */
		if (c->printed_since > before && deadline_ms && *deadline_ms >= 0 && c->window_ms > 0) {
			int64_t want = rung_now_ms() + c->window_ms;
			int64_t cap = rung__capture_cap(c);
			if (want > cap)
				want = cap;
			if (want > *deadline_ms)
				*deadline_ms = want;
		}
	}
}

static void side(rung_chan *ch, int k, int64_t *deadline_ms)
{
	drain_fd(ch->side_ud, k, deadline_ms);
}

void rung__capture_attach(rung_capture *c, rung_chan *ch)
{
	c->chan = ch;
	ch->side_fd[0] = c->fd[0];
	ch->side_fd[1] = c->fd[1];
	ch->side_fn = side;
	ch->side_ud = c;
}

void rung__capture_begin(rung_capture *c)
{
	flush_lines(c); /* what came before belongs to no job */
	say_unforwarded(c);
	c->active = true;
	c->kept = 0;
	c->bytes = 0;
	c->printed_since = 0;
	c->window_ms = 0;
}

void rung__capture_arm(rung_capture *c, int64_t now_ms, int64_t window_ms)
{
	c->since_ms = now_ms;
	c->window_ms = window_ms;
	c->printed_since = 0;
}

void rung__capture_drain(rung_capture *c)
{
	for (int k = 0; k < 2; k++)
		drain_fd(c, k, NULL);
}

void rung__capture_end(rung_capture *c, char **text, int64_t *bytes, int64_t *dropped)
{
	flush_lines(c);
	*text = c->bytes > 0 ? rung_inert_utf8(c->keep ? c->keep : "", c->kept) : NULL;
	*bytes = c->bytes;
	*dropped = c->bytes - (int64_t)c->kept;
	c->active = false;
	c->kept = 0;
	c->bytes = 0;
	c->window_ms = 0;
	say_unforwarded(c);
}

void rung__capture_close(rung_capture *c)
{
	rung__capture_drain(c);
	close_stream(c, 0);
	close_stream(c, 1);
}

void rung__capture_clear(rung_capture *c)
{
	rung__capture_close(c);
	flush_lines(c);
	say_unforwarded(c);
	free(c->keep);
	c->keep = NULL;
}

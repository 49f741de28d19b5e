/* The command line's output, inert (docs/CLI.md, "Output is text"): commit
 * subjects, authors, notes, compiler and kernel messages and spec values reach
 * rung's stdout and stderr, and none of them may act on the terminal (set its
 * title, clear it, write the clipboard with OSC 52, make it type replies into
 * the shell) or, through `rung brief`, turn up as control bytes in an agent's
 * context. So every command but the workbench (which renders through curses
 * and its own sanitizer) and the worker (which speaks the protocol) writes
 * through two filtering streams: newline and tab pass, every other control, DEL,
 * C1, bidi controls and invalid UTF-8 become visible escapes (core/inert.h
 * rung_inert_lines). rung's own progress line, the one place rung means to move
 * the cursor, goes to rung_cli_tty_stderr(), the unfiltered stderr, and only
 * through rung_cli_tty_status, whose text (a kernel's file name, a step's
 * message) is made inert on one line (rung_inert). JSON output
 * is ASCII (JSON_ENSURE_ASCII), so the filter never changes it. */
#define _GNU_SOURCE /* fopencookie */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fs.h"
#include "core/inert.h"
#include "cli/cli.h"

typedef struct {
	int fd;
	char carry[4]; /* the start of a UTF-8 sequence cut by the last write */
	size_t ncarry;
} sink;

static FILE *tty_err;

/* Writes src[0..n) made inert. */
static int put(sink *k, const char *src, size_t n)
{
	char out[8192];
	for (size_t off = 0; off < n;) {
		size_t used = rung_inert_lines(out, sizeof(out), src + off, n - off);
		if (rung_fs_write_all(k->fd, out, strlen(out)) < 0)
			return -1;
		if (!used)
			break;
		off += used;
	}
	return 0;
}

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
	sink *k = cookie;
	size_t at = 0;
	if (k->ncarry) { /* finish the sequence cut last time (or give up on it) */
		char joined[8];
		size_t take = n < 4 ? n : 4;
		memcpy(joined, k->carry, k->ncarry);
		memcpy(joined + k->ncarry, buf, take);
		size_t whole = rung_utf8_whole(joined, k->ncarry + take);
		size_t seq = whole > k->ncarry ? whole : k->ncarry; /* at least the carried bytes go */
		if (seq > k->ncarry + take)
			seq = k->ncarry + take;
		if (put(k, joined, seq) < 0)
			return -1;
		at = seq - k->ncarry;
		k->ncarry = 0;
	}
	size_t whole = at + rung_utf8_whole(buf + at, n - at);
	if (put(k, buf + at, whole - at) < 0)
		return -1;
	memcpy(k->carry, buf + whole, n - whole);
	k->ncarry = n - whole;
	return (ssize_t)n;
}

static int sink_close(void *cookie)
{
	sink *k = cookie;
	return k->ncarry ? put(k, k->carry, k->ncarry) : 0; /* a cut sequence at the end: as bytes */
}

/* One sink per stream, for the life of the process (static: nothing to free
 * whether or not the streams are closed at exit). */
static sink sinks[2];

static FILE *filtered(int fd)
{
	sink *k = &sinks[fd == STDERR_FILENO];
	memset(k, 0, sizeof(*k));
	k->fd = fd;
	cookie_io_functions_t io = {.write = sink_write, .close = sink_close};
	FILE *f = fopencookie(k, "w", io);
	if (f)
		setvbuf(f, NULL, _IOLBF, BUFSIZ);
	return f;
}

void rung_cli_inert_stdio(void)
{
	fflush(stdout);
	fflush(stderr);
	int efd = dup(STDERR_FILENO);
	tty_err = efd >= 0 ? fdopen(efd, "w") : NULL;
	if (tty_err)
		setvbuf(tty_err, NULL, _IONBF, 0);
	FILE *o = filtered(STDOUT_FILENO), *e = filtered(STDERR_FILENO);
	if (o)
		stdout = o;
	if (e)
		stderr = e;
}

FILE *rung_cli_tty_stderr(void)
{
	if (tty_err) {
		fflush(stderr); /* what the filtered stream holds comes first */
		return tty_err;
	}
	return stderr;
}

void rung_cli_tty_status(const char *fmt, ...)
{
	char text[1024], out[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	rung_inert(out, sizeof(out), text, strlen(text));
	FILE *f = rung_cli_tty_stderr();
	fprintf(f, "\r\033[K%s", out);
	fflush(f);
}

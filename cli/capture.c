/* See cli/capture.h. */
#define _GNU_SOURCE /* fopencookie */
#include "cli/capture.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "core/err.h"

typedef struct {
	char *buf;
	size_t n, cap;
	bool on;     /* inside a command: keep what comes */
	bool nomem;  /* an append failed */
} capbuf;

static capbuf bufs[2];
static FILE *streams[2];

static ssize_t cap_write(void *cookie, const char *s, size_t n)
{
	capbuf *b = cookie;
	if (!b->on || b->nomem)
		return (ssize_t)n;
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->n + n + 1)
			cap *= 2;
		char *nb = realloc(b->buf, cap);
		if (!nb) {
			b->nomem = true;
			return (ssize_t)n;
		}
		b->buf = nb;
		b->cap = cap;
	}
	memcpy(b->buf + b->n, s, n);
	b->n += n;
	return (ssize_t)n;
}

static FILE *stream(int k)
{
	if (!streams[k]) {
		cookie_io_functions_t io = {.write = cap_write};
		streams[k] = fopencookie(&bufs[k], "w", io);
	}
	return streams[k];
}

/* What stream k holds, handed over; the stream goes back to discarding. */
static char *take(int k, size_t *n)
{
	fflush(streams[k]);
	capbuf *b = &bufs[k];
	char *s = b->nomem ? NULL : b->buf;
	if (s)
		s[b->n] = 0;
	else
		free(b->buf);
	if (!s && !b->nomem)
		s = calloc(1, 1);
	*n = s ? b->n : 0;
	memset(b, 0, sizeof(*b));
	return s;
}

int rung_cli_capture(char **out, size_t *nout, char **err, size_t *nerr, int *rc, int (*fn)(int, char **),
		     int argc, char **argv)
{
	*out = *err = NULL;
	*nout = *nerr = 0;
	FILE *o = stream(0), *e = stream(1);
	if (!o || !e)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	fflush(stdout);
	fflush(stderr);
	FILE *so = stdout, *se = stderr;
	bufs[0].on = bufs[1].on = true;
	stdout = o;
	stderr = e;
	*rc = fn(argc, argv);
	stdout = so;
	stderr = se;
	*out = take(0, nout);
	*err = take(1, nerr);
	if (!*out || !*err) {
		free(*out);
		free(*err);
		*out = *err = NULL;
		*nout = *nerr = 0;
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	return 0;
}

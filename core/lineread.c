/* Capped line reader (see lineread.h). */
#include "core/lineread.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"

enum { CHUNK = 64 * 1024 };

void rung_line_reader_init(rung_line_reader *r, int fd, size_t max)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->max = max;
}

void rung_line_reader_clear(rung_line_reader *r)
{
	free(r->buf);
	r->buf = NULL;
	r->start = r->len = r->cap = r->scanned = 0;
}

/* Reads one chunk more into the buffer (0, or 1 at the end of input, or negative). */
static int fill(rung_line_reader *r)
{
	if (r->start) { /* what was handed out goes: the rest moves to the front */
		memmove(r->buf, r->buf + r->start, r->len - r->start);
		r->len -= r->start;
		r->start = 0;
	}
	if (r->cap - r->len < CHUNK) { /* doubling, so a long line is not copied once per chunk */
		size_t cap = r->cap * 2 > r->len + CHUNK + 1 ? r->cap * 2 : r->len + CHUNK + 1;
		if (cap > r->max + 2 * CHUNK + 2)
			cap = r->len + CHUNK + 1 > r->max + 2 * CHUNK + 2 ? r->len + CHUNK + 1 : r->max + 2 * CHUNK + 2;
		char *b = realloc(r->buf, cap);
		if (!b)
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		r->buf = b;
		r->cap = cap;
	}
	for (;;) {
		ssize_t k = read(r->fd, r->buf + r->len, r->cap - r->len - 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return rung_error_set(RUNG_EIO, "read: %s", strerror(errno));
		if (k == 0) {
			r->eof = true;
			return 1;
		}
		r->len += (size_t)k;
		return 0;
	}
}

int rung_line_read(rung_line_reader *r, char **line, size_t *n)
{
	for (;;) {
		char *from = r->buf ? r->buf + r->start + r->scanned : NULL;
		size_t avail = r->len - r->start - r->scanned;
		char *nl = avail ? memchr(from, '\n', avail) : NULL;
		if (r->skipping) {
			if (nl) {
				r->skipped += (size_t)(nl - from);
				r->start += r->scanned + (size_t)(nl - from) + 1;
				r->scanned = 0;
				r->skipping = false;
				*n = r->skipped;
				return RUNG_LINE_TOO_LONG;
			}
			r->skipped += avail;
			r->start = r->len; /* dropped */
			r->scanned = 0;
			if (r->eof) {
				r->skipping = false;
				*n = r->skipped;
				return RUNG_LINE_TOO_LONG;
			}
		} else if (nl || (r->eof && r->len > r->start)) {
			char *s = r->buf + r->start;
			size_t k = nl ? (size_t)(nl - s) : r->len - r->start;
			r->start += k + (nl ? 1 : 0);
			r->scanned = 0;
			if (k && s[k - 1] == '\r')
				k--;
			if (k > r->max) { /* it came whole in one read: still over the cap */
				*n = k;
				return RUNG_LINE_TOO_LONG;
			}
			s[k] = 0;
			*line = s;
			*n = k;
			return RUNG_LINE_OK;
		} else {
			r->scanned += avail;
			if (r->scanned > r->max + 1) { /* no newline within the cap: drop the line */
				r->skipping = true;
				r->skipped = r->scanned;
				r->start = r->len;
				r->scanned = 0;
			}
		}
		if (r->eof)
			return RUNG_LINE_EOF;
		int e = fill(r);
		if (e < 0)
			return e;
	}
}

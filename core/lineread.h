/* Lines from a descriptor, each at most a set number of bytes: the MCP
 * server's message reader (cli/cmd_mcp.c, one JSON-RPC message per line). A
 * line longer than the cap is never held whole: its bytes are dropped as they
 * arrive, up to its newline, and the caller is told (the server answers
 * -32600), so a 1.5 GB line costs the cap, not 1.5 GB. */
#ifndef RUNG_CORE_LINEREAD_H
#define RUNG_CORE_LINEREAD_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
	int fd;
	size_t max;        /* the longest line kept, in bytes (without its newline) */
	char *buf;         /* bytes read and not yet handed out: [start, len) */
	size_t start, len, cap;
	size_t scanned;    /* bytes after start already searched for a newline */
	bool skipping;     /* inside a line past max: dropped up to its newline */
	size_t skipped;    /* bytes of that line seen so far */
	bool eof;
} rung_line_reader;

enum { RUNG_LINE_EOF = 0, RUNG_LINE_OK = 1, RUNG_LINE_TOO_LONG = 2 };

void rung_line_reader_init(rung_line_reader *r, int fd, size_t max);
/* RUNG_LINE_OK: *line (NUL-terminated, without "\n" or "\r\n"; valid until
 * the next call) and *n; a last line without a newline counts too.
 * RUNG_LINE_TOO_LONG: a line over max was dropped (*n: its length, counted up
 * to the newline or the end of input). RUNG_LINE_EOF: nothing more.
 * Negative: a read error (RUNG_EIO, message set) or out of memory. */
int rung_line_read(rung_line_reader *r, char **line, size_t *n);
void rung_line_reader_clear(rung_line_reader *r);

#endif

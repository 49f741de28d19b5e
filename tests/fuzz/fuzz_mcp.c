/* The MCP server's message reader (core/lineread.c, as cli/cmd_mcp.c uses it):
 * the input is what the client writes on the server's stdin (a memfd read to
 * its end), read line by line with a cap of 64 bytes, so that lines over the
 * cap, cut by a read or not, are dropped; every line kept is parsed as the
 * server parses a message. Invariants: a kept line is at most the cap, holds
 * no newline and ends in a NUL; a dropped one is over the cap; the lengths
 * never add up to more than the input. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include <jansson.h>

#include "core/err.h"
#include "core/lineread.h"
#include "fuzz.h"

enum { CAP = 64 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	if (fd < 0 && (fd = memfd_create("fuzz.mcp", 0)) < 0)
		abort();
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size || lseek(fd, 0, SEEK_SET) != 0)
		abort();
	rung_line_reader r;
	rung_line_reader_init(&r, fd, CAP);
	size_t total = 0;
	for (;;) {
		char *line = NULL;
		size_t n = 0;
		int rc = rung_line_read(&r, &line, &n);
		FUZZ_ASSERT(rc != RUNG_ENOMEM);
		if (rc <= 0)
			break;
		total += n;
		FUZZ_ASSERT(total <= size);
		if (rc == RUNG_LINE_TOO_LONG) {
			FUZZ_ASSERT(n > CAP);
			continue;
		}
		FUZZ_ASSERT(rc == RUNG_LINE_OK && n <= CAP && line[n] == 0 && !memchr(line, '\n', n));
		json_error_t je;
		json_t *msg = json_loadb(line, n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
		if (msg && json_is_object(msg))
			(void)json_string_value(json_object_get(msg, "method"));
		json_decref(msg);
	}
	rung_line_reader_clear(&r);
	rung_error_clear();
	return 0;
}

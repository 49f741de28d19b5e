/* core/lineread.c: the MCP server's capped message reader (#30 D8). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/lineread.h"
#include "harness.h"

static int fd_of(const char *data, size_t n)
{
	int fd = memfd_create("lineread", 0);
	if (fd >= 0 && (write(fd, data, n) != (ssize_t)n || lseek(fd, 0, SEEK_SET) != 0)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static void test_lines(void)
{
	const char in[] = "abc\r\n\nexactly8\n123456789\nlast";
	int fd = fd_of(in, sizeof(in) - 1);
	CHECK(fd >= 0);
	rung_line_reader r;
	rung_line_reader_init(&r, fd, 8);
	char *l;
	size_t n;
	CHECK_INT(rung_line_read(&r, &l, &n), RUNG_LINE_OK);
	CHECK_STR(l, "abc");
	CHECK_INT(rung_line_read(&r, &l, &n), RUNG_LINE_OK);
	CHECK_INT((int)n, 0);
	CHECK_INT(rung_line_read(&r, &l, &n), RUNG_LINE_OK);
	CHECK_STR(l, "exactly8");
	CHECK_INT(rung_line_read(&r, &l, &n), RUNG_LINE_TOO_LONG); /* 9 bytes over a cap of 8 */
	CHECK_INT((int)n, 9);
	CHECK_INT(rung_line_read(&r, &l, &n), RUNG_LINE_OK); /* a last line without a newline */
	CHECK_STR(l, "last");
	CHECK_INT(rung_line_read(&r, &l, &n), RUNG_LINE_EOF);
	rung_line_reader_clear(&r);
	close(fd);
}

/* A line of 1 MiB under a 1 KiB cap: dropped as it arrives (the buffer stays
 * near the cap and a read chunk), and the next line is read whole. */
static void test_long_line_dropped(void)
{
	size_t big = 1 << 20;
	char *in = malloc(big + 16);
	memset(in, 'x', big);
	memcpy(in + big, "\nnext\n", 6);
	int fd = fd_of(in, big + 6);
	free(in);
	rung_line_reader r;
	rung_line_reader_init(&r, fd, 1024);
	char *l;
	size_t n;
	CHECK_INT(rung_line_read(&r, &l, &n), RUNG_LINE_TOO_LONG);
	CHECK(n == big);
	CHECK(r.cap < 1024 + 3 * 64 * 1024);
	CHECK_INT(rung_line_read(&r, &l, &n), RUNG_LINE_OK);
	CHECK_STR(l, "next");
	CHECK_INT(rung_line_read(&r, &l, &n), RUNG_LINE_EOF);
	rung_line_reader_clear(&r);
	close(fd);
}

int main(void)
{
	T_RUN(test_lines);
	T_RUN(test_long_line_dropped);
	return t_done();
}

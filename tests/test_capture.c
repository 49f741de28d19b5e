/* cli/capture.c: a command's stdout and stderr captured to memory, and the
 * capture streams still valid after it. A library loaded during a command
 * (libstdc++ through NVRTC's builtins or CUDA) keeps the stdout it saw and
 * flushes it at exit: with a stream closed after the command that was a freed
 * FILE, and the MCP server died at exit after GPU checks (#27 item 1). The
 * test runs under MALLOC_PERTURB_ (it re-executes itself so), which fills
 * freed memory, so a freed stream would not survive the late write. */
#include "cli/capture.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static FILE *kept_out, *kept_err;

static int cmd(int argc, char **argv)
{
	kept_out = stdout; /* as libstdc++'s std::cout does when it starts here */
	kept_err = stderr;
	printf("out:%s", argc > 1 ? argv[1] : "");
	fprintf(stderr, "err:%d", argc);
	return 7;
}

static void test_capture(void)
{
	FILE *so = stdout, *se = stderr;
	char *out, *err, a0[] = "cmd", a1[] = "first";
	char *argv[] = {a0, a1, NULL};
	size_t no, ne;
	int rc = 0;
	CHECK_INT(rung_cli_capture(&out, &no, &err, &ne, &rc, cmd, 2, argv), 0);
	CHECK_INT(rc, 7);
	CHECK_STR(out, "out:first");
	CHECK_INT(no, 9);
	CHECK_STR(err, "err:2");
	CHECK(stdout == so && stderr == se);
	free(out);
	free(err);
	/* after the command: what kept the streams writes and flushes them */
	for (int i = 0; i < 3; i++) {
		CHECK(fprintf(kept_out, "late %d\n", i) > 0);
		CHECK_INT(fflush(kept_out), 0);
		CHECK_INT(fflush(kept_err), 0);
	}
	/* and none of it reaches the next command's capture */
	char b1[] = "second";
	argv[1] = b1;
	CHECK_INT(rung_cli_capture(&out, &no, &err, &ne, &rc, cmd, 2, argv), 0);
	CHECK_STR(out, "out:second");
	CHECK_STR(err, "err:2");
	free(out);
	free(err);
	/* an empty command gives "" (not NULL) */
	CHECK_INT(fflush(kept_out), 0);
}

int main(int argc, char **argv)
{
	(void)argc;
	if (!getenv("MALLOC_PERTURB_")) {
		setenv("MALLOC_PERTURB_", "165", 1);
		execv("/proc/self/exe", argv);
	}
	T_RUN(test_capture);
	/* exit flushes every stream, the kept ones too */
	return t_done();
}

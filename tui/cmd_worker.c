/* `rung worker`: the GPU worker process. Started by the parent (gpu/worker.c)
 * as `rung worker --socket`: stdin is a socket carrying the protocol both ways,
 * stdout and stderr are the parent's capture pipes (the kernel's output). With
 * no argument (tests, by hand) the protocol is read on stdin and written on
 * stdout, and stdout is moved to stderr. Not meant to be run by hand. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gpu/worker.h"
#include "tui/cli.h"

int rung_cmd_worker(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--socket"))
		return rung_worker_main(STDIN_FILENO, STDIN_FILENO);
	if (argc > 1) {
		fprintf(stderr, "rung worker: takes no arguments but --socket\n");
		return RUNG_EXIT_USAGE;
	}
	return rung_worker_main(STDIN_FILENO, STDOUT_FILENO);
}

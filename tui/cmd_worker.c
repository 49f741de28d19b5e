/* `rung worker`: the GPU worker process. Started by the parent (gpu/worker.c)
 * with a socket on stdin/stdout; not meant to be run by hand. */
#include <stdio.h>
#include <unistd.h>

#include "gpu/worker.h"
#include "tui/cli.h"

int rung_cmd_worker(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "rung worker: takes no arguments\n");
		return RUNG_EXIT_USAGE;
	}
	return rung_worker_main(STDIN_FILENO, STDOUT_FILENO);
}

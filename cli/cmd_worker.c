/* `rung worker`: the GPU worker process. Started by the parent (gpu/worker.c)
 * as `rung worker --socket`: stdin is a socket carrying the protocol both ways,
 * stdout and stderr are the parent's capture pipes (the kernel's output). With
 * no argument (tests, by hand) the protocol is read on stdin and written on
 * stdout, and stdout is moved to stderr. Under a wrapper (compute-sanitizer)
 * it also gets `--connect PATH`, a socket the parent listens on, and speaks
 * there. Not meant to be run by hand. */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "gpu/worker.h"
#include "cli/cli.h"

/* `--connect PATH`: a socket path the parent listens on (a wrapper such as
 * compute-sanitizer may not hand fd 0 on); -1 when it cannot be reached. */
static int connect_to(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

int rung_cmd_worker(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--socket") && !strcmp(argv[2], "--connect")) {
		int fd = connect_to(argv[3]);
		return rung_worker_main(fd >= 0 ? fd : STDIN_FILENO, fd >= 0 ? fd : STDIN_FILENO);
	}
	if (argc == 2 && !strcmp(argv[1], "--socket"))
		return rung_worker_main(STDIN_FILENO, STDIN_FILENO);
	if (argc > 1) {
		fprintf(stderr, "rung worker: takes no arguments but --socket [--connect PATH]\n");
		return RUNG_EXIT_USAGE;
	}
	return rung_worker_main(STDIN_FILENO, STDOUT_FILENO);
}

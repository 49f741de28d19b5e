/* `rung worker`: the GPU worker process. Started by the parent (gpu/worker.c)
 * as `rung worker --socket`: stdin is a socket carrying the protocol both ways,
 * stdout and stderr are the parent's capture pipes (the kernel's output). With
 * no argument (tests, by hand) the protocol is read on stdin and written on
 * stdout, and stdout is moved to stderr. Under a wrapper (compute-sanitizer)
 * it also gets `--connect PATH`, a socket the parent listens on, and speaks
 * there. `--stdio` names the stdin/stdout mode for a worker on another box
 * (`ssh HOST rung worker --stdio`, `srun ... rung worker --stdio`: app/pool.c). Not meant to be run by hand. */
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

typedef struct {
	bool socket, stdio;
	const char *connect;
} worker_opts;

static const rung_opt_spec worker_specs[] = {
	{RUNG_OPT_BOOL(worker_opts, socket), .name = "socket",
	 .help = "stdin is a socket carrying the protocol both ways (how the parent starts it)"},
	{RUNG_OPT_BOOL(worker_opts, stdio), .name = "stdio",
	 .help = "the protocol on stdin and stdout, the kernel's stdout moved to stderr (through ssh or srun)"},
	{RUNG_OPT_STR(worker_opts, connect), .name = "connect", .value = "PATH",
	 .help = "with --socket: speak on the socket the parent listens on at PATH (under a wrapper)"},
	{0}};
/* Registered like every command, but left out of `rung --help`, the docs and
 * the completion (rung_cli_each_command skips it). */
const rung_opt_table rung_opts_worker = {.cmd = "worker", .args = "", .max_args = 0, .opts = worker_specs};

int rung_cmd_worker(int argc, char **argv)
{
	worker_opts o = {0};
	int rc, nargs;
	if (rung_opts_parse(&rc, &rung_opts_worker, &o, argc, argv, &nargs))
		return rc;
	if (o.stdio && (o.socket || o.connect)) {
		fprintf(stderr, "rung worker: --stdio goes alone\n");
		return RUNG_EXIT_USAGE;
	}
	if (o.connect && !o.socket) {
		fprintf(stderr, "rung worker: --connect goes with --socket\n");
		return RUNG_EXIT_USAGE;
	}
	if (o.connect) {
		int fd = connect_to(o.connect);
		return rung_worker_main(fd >= 0 ? fd : STDIN_FILENO, fd >= 0 ? fd : STDIN_FILENO);
	}
	if (o.socket)
		return rung_worker_main(STDIN_FILENO, STDIN_FILENO);
	return rung_worker_main(STDIN_FILENO, STDOUT_FILENO);
}

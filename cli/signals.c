/* SIGTERM, SIGINT and SIGHUP for the commands that compile and run children
 * (docs/CLI.md, "Exit codes"). The signals are blocked in every thread (the
 * mask is set before any thread starts, and threads inherit it) and taken by
 * one thread of rung's own with sigwait. So NVRTC's handler, which it installs
 * around a compile and which calls exit(4) (rung's "no GPU" code) from the
 * compile thread, never runs, and a signal never lands inside a lock. On a
 * signal that thread kills the children rung has out (gpu/children.h: the
 * worker and its wrapper's group, nvdisasm, ptxas, ncu), removes its temporary
 * files, runs the command's hook (rung mcp: nothing more is written) and ends
 * the process with _exit(128 + signal), the shell's convention: 130 for
 * SIGINT, 143 for SIGTERM, 129 for SIGHUP. A store write in flight is one
 * SQLite transaction: it is rolled back at the next open, never half kept. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "gpu/children.h"

static sigset_t set;
static void (*hook)(int sig);

static void *sig_thread(void *arg)
{
	(void)arg;
	for (;;) {
		int sig = 0;
		if (sigwait(&set, &sig) != 0)
			continue;
		rung_children_kill();
		rung_tmp_remove_all();
		if (hook)
			hook(sig);
		rung_children_reap(0);
		_exit(128 + sig);
	}
	return NULL;
}

void rung_cli_signals_start(void (*on_signal)(int sig))
{
	static bool started;
	hook = on_signal;
	if (started)
		return;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0)
		return;
	pthread_t th;
	pthread_attr_t at;
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&th, &at, sig_thread, NULL) == 0)
		started = true;
	else
		pthread_sigmask(SIG_UNBLOCK, &set, NULL); /* no thread to take them: the default, as before */
	pthread_attr_destroy(&at);
}

/* A diagnostic LD_PRELOAD shim: on SIGSEGV, SIGABRT or SIGBUS, prints the
 * backtrace (library+offset, for addr2line) and the executable mappings to
 * stderr, then dies of the signal. Build: cc -shared -fPIC -o crash_shim.so
 * crash_shim.c; use: LD_PRELOAD=./crash_shim.so PROGRAM. */
#define _GNU_SOURCE
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static void on_crash(int sig)
{
	void *pcs[64];
	int n = backtrace(pcs, 64);
	char head[64];
	int l = 0;
	const char *name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGABRT ? "SIGABRT" : "SIGBUS";
	for (const char *p = "crash_shim: "; *p; p++)
		head[l++] = *p;
	for (const char *p = name; *p; p++)
		head[l++] = *p;
	head[l++] = '\n';
	write(2, head, (size_t)l);
	backtrace_symbols_fd(pcs, n, 2);
	int fd = open("/proc/self/maps", O_RDONLY);
	char buf[4096];
	ssize_t r;
	while (fd >= 0 && (r = read(fd, buf, sizeof(buf))) > 0)
		write(2, buf, (size_t)r);
	signal(sig, SIG_DFL);
	raise(sig);
}

__attribute__((constructor)) static void install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

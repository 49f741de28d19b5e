/* Running one of the tools rung may run (nvdisasm, ncu; docs/ARCHITECTURE.md,
 * "Security") with arguments rung built, no shell: stdin /dev/null, stdout and
 * stderr captured (each up to a bound, the rest read and dropped), killed at a
 * deadline. Shared by gpu/nvdisasm.c, gpu/ncu.c and gpu/ptxas_run.c. */
#ifndef RUNG_GPU_SPAWN_H
#define RUNG_GPU_SPAWN_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
	char *out, *err;      /* NUL-terminated (owned; never NULL after a 0 return) */
	size_t out_len, err_len;
	bool out_over;        /* stdout passed its bound (what is kept is its start) */
	int status;           /* waitpid's */
} rung_spawned;

/* Runs tool with argv (argv[0] first) and waits for it. Returns 0 when it ran
 * to its end (r->status says how it ended), or an error whose message starts
 * with what: RUNG_EIO (no pipe, cannot start it), RUNG_ENOMEM, RUNG_ETIMEOUT
 * (killed after timeout_ms). max_err 0: stderr goes into stdout's pipe, one
 * stream in r->out, as a terminal would show it (ptxas's log). r is always
 * safe to clear. */
int rung__spawn(rung_spawned *r, const char *what, const char *tool, const char *const argv[], int timeout_ms,
		size_t max_out, size_t max_err);
void rung__spawned_clear(rung_spawned *r);
/* The first line of its stderr, without leading blanks (for a message). */
const char *rung__spawned_errline(const rung_spawned *r, int *len);

#endif

/* The processes and temporary files rung has out at a time, so that a
 * process ending early (SIGTERM, SIGINT, SIGHUP: cli/signals.c) kills its
 * children (the GPU worker and the wrapper group over it, nvdisasm, ptxas)
 * and removes its temporary files, and a long-lived process (rung mcp) reaps
 * the workers it left to exit on their own (rung_worker_detach). Every call
 * is thread-safe; a full table only loses the bookkeeping, never the child. */
#ifndef RUNG_GPU_CHILDREN_H
#define RUNG_GPU_CHILDREN_H

#include <stdbool.h>
#include <sys/types.h>

/* A child started (group: it leads a process group of its own: kill the group). */
void rung_children_add(pid_t pid, bool group);
/* It was reaped. */
void rung_children_del(pid_t pid);
/* Left to exit on its own (its CUDA teardown): rung_children_reap collects it. */
void rung_children_detach(pid_t pid);
/* Reaps the detached children that ended; grace_ms > 0: waits up to that for
 * the rest, then kills them (SIGKILL) and reaps them. Returns how many are left. */
int rung_children_reap(int grace_ms);
/* SIGKILL to every child still known (and its group). */
void rung_children_kill(void);

/* In a forked child before exec: no signal blocked (rung's own signal
 * thread blocks them in the parent: cli/signals.c), async-signal-safe. */
void rung_children_unblock(void);

/* A temporary file or directory (removed by rung_tmp_remove_all; a
 * directory's files first, one level). */
void rung_tmp_add(const char *path);
void rung_tmp_del(const char *path);
void rung_tmp_remove_all(void);

#endif

/* A pool of GPU workers beyond the one local worker (`rung eval --workers`):
 *
 *   local:N        N local workers on devices 0..N-1 (N >= 1)
 *   local:0,1,3    one local worker per listed device (also `local:2,`: device 2 only)
 *   ssh:HOST[,HOST...]   `ssh -T -o BatchMode=yes HOST rung worker --stdio` per host
 *   slurm:N[,partition=P][,gres=G]   N job steps: `srun --ntasks=1 ... rung worker --stdio`
 *
 * Local workers are pinned with CUDA_VISIBLE_DEVICES (through env(1) as the
 * worker's argv prefix). All speak the worker protocol over the child's
 * stdin and stdout (rung_worker_opts.stdio): the pipes of ssh or srun, or the
 * socket itself for env(1). rung builds every argv itself;
 * host, partition and gres are checked to be plain names, never passed to a
 * shell of ours (ssh hands the remote command to the remote login shell, so
 * the remote rung's path is checked to be a plain path too).
 *
 * Environment: RUNG_SSH_CONFIG (a file given to ssh as -F), RUNG_REMOTE_RUNG
 * (the rung binary on the remote side: default "rung" for ssh, this binary's
 * own path for Slurm, which assumes a shared file system).
 *
 * Scheduling (rung_pool_start): one thread per worker takes the next job in
 * order. A job whose worker is lost (rung_worker_lost: died, killed at the
 * deadline, connection dropped) is run again once on another worker (the same
 * one when it is alone), then given up with both reasons. A worker that loses
 * two jobs in a row is retired; when none is left the jobs still queued are
 * given up. Every job ends exactly once. Nothing here prints or exits. */
#ifndef RUNG_APP_POOL_H
#define RUNG_APP_POOL_H

#include <pthread.h>
#include <stdbool.h>

#include "gpu/worker.h"

#define RUNG_POOL_MAX 64

typedef struct {
	char label[64];         /* "local:1", "ssh:gpu3", "slurm:2" */
	char args[12][256];     /* the argv prefix's strings */
	const char *argv[13];   /* NULL-terminated, into args */
	char exe[1024];         /* the rung binary ("" : this one) */
	bool stdio;
	bool bad;               /* an argument did not fit */
	rung_worker *w;         /* opened by rung_pool_open */
	/* per batch; busy_s: seconds in the worker (its GPU rungs, spawn and
	 * hello included), added by the job function on the member's thread */
	double busy_s;
	int done, lost, run_of_lost;
	bool retired;
} rung_pool_member;

typedef struct rung_pool_run rung_pool_run;

typedef struct {
	int n;
	rung_pool_member m[RUNG_POOL_MAX];
	rung_pool_run *run; /* the batch in flight */
} rung_pool;

/* Parses a --workers value into p's members (workers not opened). RUNG_EUSAGE
 * with a message naming what is wrong. */
int rung_pool_parse(rung_pool *p, const char *spec);
/* Opens every member's worker (rung_worker_open; nothing starts yet). */
int rung_pool_open(rung_pool *p);
void rung_pool_close(rung_pool *p);

/* Runs job i on member m's worker (attempt 1, or 2 after a lost worker;
 * `after` is then the label of the member it was lost on). Called on the
 * member's thread; returns 0 when it used the worker (rung_worker_lost then
 * says whether it was lost), 1 when it ended without it (a compile verdict),
 * negative for rung's own failure (the job then ends). */
typedef int (*rung_pool_job_fn)(void *ud, int i, rung_pool_member *m, int attempt, const char *after);
/* Job i is given up without running (no worker left): why. On a pool thread. */
typedef void (*rung_pool_giveup_fn)(void *ud, int i, const char *why);

/* Starts the batch of jobs 0..n-1 on the members' threads; returns at once. */
int rung_pool_start(rung_pool *p, int n, rung_pool_job_fn run, rung_pool_giveup_fn giveup, void *ud);
/* Waits until job i has ended (run, or given up); its result is the caller's then. */
void rung_pool_wait(rung_pool *p, int i);
/* Jobs not started yet are dropped (a cancel). */
void rung_pool_cancel(rung_pool *p);
/* Waits for the threads and ends the batch. */
void rung_pool_join(rung_pool *p);

#endif

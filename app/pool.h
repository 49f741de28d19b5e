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
 * given up. Every job ends exactly once. Nothing here prints or exits.
 *
 * One GPU, one timed job at a time: members whose workers report the same
 * device (the hello's UUID: local:0,0, or two ssh hosts that reach one box)
 * share a lock, which the job function holds for the whole of a job's GPU
 * rungs (rung_pool_gpu_hold), so that no member times while another member
 * of the pool runs anything on its GPU; the compiles, the transfers and the
 * workers' start overlap. Their timings are still marked shared (the other
 * worker holds a context there: rung_pool_mark_shared). */
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
	double wait_s;          /* seconds waiting for its GPU while another member held it */
	int done, lost, run_of_lost, failed;
	bool retired;
	/* over every batch since rung_pool_parse */
	int done_total, failed_total;
	/* the device its worker reported (rung_pool_gpu_hold): "" before, or
	 * without a GPU; gpu_slot -1 then */
	char gpu[128], uuid[64], host[64];
	int gpu_slot;
	int worker_pid;         /* its worker's pid when it last held the GPU (-1) */
	/* what it does now (rung_pool_member_doing): "" idle */
	char doing[64];
	bool waiting_gpu, holding_gpu;
	/* from the batch's start until its first job has its worker's hello (or
	 * it has no job): a member holding a GPU waits for these, so that who
	 * else is on that GPU is known, and their workers started, before
	 * anything is timed (rung_pool_member_hello) */
	bool hello_pending;
	char retired_why[200]; /* why it was retired ("" : lost twice in a row) */
} rung_pool_member;

typedef struct rung_pool_run rung_pool_run;

typedef struct {
	int n;
	rung_pool_member m[RUNG_POOL_MAX];
	rung_pool_run *run; /* the batch in flight */
	/* the members' fields above that other threads read (status), and the
	 * GPU locks: one per device UUID the members reported */
	pthread_mutex_t mu;
	pthread_cond_t cv; /* a member's hello is in */
	int ngpus;
	struct rung_pool_gpu {
		char uuid[64];
		pthread_mutex_t mu;
		int members; /* members that reported it */
	} gpus[RUNG_POOL_MAX];
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
 * 2 when m cannot take jobs (rung_pool_no_gpu_here: its worker reports no GPU
 * while another member has one): the job goes back to the queue as it was and
 * m is retired, with the reason in m->retired_why; negative for rung's own
 * failure (the job then ends). */
typedef int (*rung_pool_job_fn)(void *ud, int i, rung_pool_member *m, int attempt, const char *after);
/* Job i is given up without running (no worker left): why. On a pool thread. */
typedef void (*rung_pool_giveup_fn)(void *ud, int i, const char *why);

/* Member m's worker has answered its hello (env: the device it reported;
 * NULL or not valid: none, or it was lost). Call on m's thread in each job
 * before its GPU rungs. */
void rung_pool_member_hello(rung_pool *p, rung_pool_member *m, const rung_env *env);
/* The device member m's worker reported (env->valid false: none, nothing
 * held): waits until every member with a job of the batch has said hello
 * (rung_pool_member_hello), then until no other member of the pool holds
 * that GPU, and holds it. Time spent waiting goes to m->wait_s. Call on m's thread around every
 * GPU rung of a job (run, check, bench, sanitize); release after. */
void rung_pool_gpu_hold(rung_pool *p, rung_pool_member *m, const rung_env *env);
void rung_pool_gpu_release(rung_pool *p, rung_pool_member *m);
/* Member m's worker reported no GPU (why): true when another member has one
 * (asked after every member with a job has said hello), so that m takes no
 * jobs (a device missing on this box, local:2 on one GPU, should not turn
 * half the versions into SKIPPED ones); false when no member has a GPU (every
 * result then says so). */
bool rung_pool_no_gpu_here(rung_pool *p, rung_pool_member *m, const char *why);
/* The members other than m that reported m's GPU (0: it has it alone). */
int rung_pool_gpu_sharers(rung_pool *p, const rung_pool_member *m);
/* A timing m's worker took on a GPU another member of the pool also holds a
 * context on is shared, whatever NVML saw (it may see no process of another
 * container): adds each such member's worker to b->shared when it is not
 * listed. Returns the number added. */
int rung_pool_mark_shared(rung_pool *p, const rung_pool_member *m, rung_bench *b);
/* What m works on now ("abc1234 compile", "abc1234 gpu"; NULL or "": idle),
 * and a job of it that ended FAILED (the counts of rung_pool_status). */
void rung_pool_member_doing(rung_pool *p, rung_pool_member *m, const char *what);
void rung_pool_member_failed(rung_pool *p, rung_pool_member *m);

/* Per-worker status for a front end (the workbench's worker list; the CLI's
 * --stats): a copy taken under the pool's lock, safe while a batch runs. */
typedef struct {
	char label[64];   /* "local:1", "ssh:gpu3", "slurm:0" */
	char host[64];    /* the host its worker reported ("" before its hello) */
	char gpu[128];    /* GPU name ("" : none reported, or no GPU) */
	char uuid[64];
	char doing[64];   /* the current job ("abc1234 gpu"), "" idle */
	bool waiting_gpu; /* waiting for its GPU, which another member holds */
	char retired_why[200]; /* with retired: why ("" : lost twice in a row) */
	int sharers;      /* other members on the same GPU */
	int done, failed, lost; /* this batch (failed: verdict FAILED; lost: worker lost) */
	int done_total, failed_total; /* since the pool was made */
	double busy_s, wait_s; /* this batch */
	bool retired;
} rung_pool_status;
/* Fills out[0..min(n, max)) and returns the pool's member count. */
int rung_pool_status_get(rung_pool *p, rung_pool_status *out, int max);

/* Starts the batch of jobs 0..n-1 on the members' threads; returns at once. */
int rung_pool_start(rung_pool *p, int n, rung_pool_job_fn run, rung_pool_giveup_fn giveup, void *ud);
/* Waits until job i has ended (run, or given up); its result is the caller's then. */
void rung_pool_wait(rung_pool *p, int i);
/* Jobs not started yet are dropped (a cancel). */
void rung_pool_cancel(rung_pool *p);
/* Waits for the threads and ends the batch. */
void rung_pool_join(rung_pool *p);

#endif

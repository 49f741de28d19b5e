/* Shared by gpu/worker.c (parent), gpu/compare.c and gpu/worker/main.c (child);
 * not part of the public API. */
#ifndef RUNG_GPU_WORKER_INTERNAL_H
#define RUNG_GPU_WORKER_INTERNAL_H

#include <stdbool.h>
#include <sys/types.h>

#include <jansson.h>

#include "gpu/capture.h"
#include "gpu/protocol.h"
#include "gpu/worker.h"

struct rung_worker {
	char exe[4096];
	/* rung_worker_opts.argv_prefix, copied (NULL-terminated; NULL: none). The
	 * child then runs in a process group of its own, killed as a group. */
	char **prefix;
	pid_t pid;
	int fd;
	rung_chan chan;
	bool running;
	bool hello_pending;     /* spawned by rung_worker_prestart, hello not read yet */
	bool nodev;             /* hello said there is no usable device (cached) */
	char nodev_reason[512];
	bool deadline_hit;      /* a job's deadline passed and the worker was killed (the sanitize rung's cost limit) */
	bool have_env;
	rung_env env;
	rung_capture cap; /* the worker's stdout and stderr (gpu/capture.h) */
	bool stdio;       /* rung_worker_opts.stdio */
	bool lost;        /* rung_worker_lost */
	const volatile int *cancel; /* rung_worker_opts.cancel */
	bool cancelled;   /* rung_worker_cancelled */
};

/* Starts the child and reads its hello if not running. RUNG_ENODEV (cached) when
 * the hello said no device. */
int rung__worker_start(rung_worker *w);

/* The outcome of one request: the reply (result or error), or the reason the
 * worker is gone (crash, deadline) and the step it was in. */
typedef struct {
	bool failed;
	rung_step_id step;
	char reason[512];
	bool have_msg;
	rung_msg msg;
	/* what the worker printed during the request (gpu/capture.h; owned, NULL
	 * when nothing): rung_inert_utf8 text of the first RUNG_OUTPUT_KEEP bytes */
	char *output;
	int64_t output_bytes, output_dropped;
} rung_exchange;

/* Sends hdr (+ blobs) and reads progress until a result or error arrives, the
 * worker dies, or deadline_s passes without any message (then SIGKILL; output
 * the worker prints extends the wait, up to RUNG_OUTPUT_DEADLINE_FACTOR x
 * deadline_s after the last message). What it printed is in ex->output. The
 * worker is reaped when it died or reported a fatal (sticky) error, and the
 * next request starts a fresh one. Returns negative only for rung's own errors. */
int rung__worker_exchange(rung_worker *w, json_t *hdr, const rung_blob *blobs, int nblobs, double deadline_s,
			  rung_progress_fn cb, void *ud, rung_exchange *ex);
void rung__exchange_clear(rung_exchange *ex);

/* Inactivity deadline: job->deadline_s, else $RUNG_DEADLINE, else 10 s. */
double rung__deadline_s(const rung_job *job);

/* "worker crashed (Segmentation fault, signal 11)" from a wait status. */
void rung__describe_exit(char *buf, size_t len, int status);

/* rung_env <-> JSON (hello message). */
json_t *rung_env_to_json(const rung_env *e);
void rung_env_from_json(rung_env *e, const json_t *j);

#endif

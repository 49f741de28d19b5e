/* The workbench service's state, split by concern (app/workbench.h for the
 * threads and locks): shared by app/workbench.c (the runner, the queue, the
 * evaluator, the poller) and app/workbench_text.c (the texter and its cache). */
#ifndef RUNG_APP_WORKBENCH_INTERNAL_H
#define RUNG_APP_WORKBENCH_INTERNAL_H

#include <pthread.h>

#include "app/workbench.h"
#include "app/pipeline.h"

/* A queued evaluation: the version and the task it belongs to (at queue time). */
typedef struct {
	char hash[41];
	char *taskdir; /* NULL: as picked */
	unsigned gen;
	unsigned sanitize; /* the sanitize rung only, with these tools (RUNG_SAN_BIT mask) */
} rung__wb_item;

/* The runner's jobs, all under lock (which also guards rung_wb's taskdir,
 * task_gen and the poll's marks). */
typedef struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	bool running; /* the thread was started */
	bool stop;
	rung__wb_item *items;
	int n, cap;
	bool reload;
	/* the results of the first list's rows read pending by rung_wb_first,
	 * for task generation fill_gen: fill is asked for as the rows are read
	 * (the runner opens its handles meanwhile), fill_ready once their
	 * versions are there (fill_v, fill_n of them, owned; NULL: none after
	 * all); runs first of all */
	bool fill, fill_ready;
	bool drawn; /* rung_wb_drawn was called (rung_wb_opts.fill_after_drawn) */
	rung_version *fill_v;
	int fill_n;
	unsigned fill_gen;
	/* the rest of the first list, after row rest_anchor; runs before
	 * queued evaluations and reloads */
	bool rest;
	char rest_anchor[41];
	unsigned rest_gen;
	/* rung_wb_probe: waits until probe_at (monotonic seconds) with
	 * nothing else to do meanwhile */
	bool probe;
	double probe_at;
	/* the sanitize gate (app/workbench.c): due after a batch or the probe,
	 * run once nothing else is queued and gate_at (monotonic seconds) has
	 * passed, for the task of generation gate_gen */
	bool gate;
	double gate_at;
	unsigned gate_gen;
} rung__wb_queue;

/* The poller (under the queue's lock but for thread and running): HEAD and
 * the newest commit of the list as last read (rung_wb_first, a reload);
 * gen is bumped by each such read. */
typedef struct {
	pthread_t thread;
	bool running;
	pthread_cond_t cond;
	int interval_s;
	char head[41], top[41];
	unsigned gen;
	/* the last broken-spec note the poll posted ("" none), said once per HEAD */
	char said[256];
} rung__wb_poll;

/* The evaluator, the runner's alone. */
typedef struct {
	rung_vctx ctx;  /* its handles on the task evaluated (gen) */
	bool ctx_open;
	unsigned gen;
	rung_evaler evaler; /* the persistent worker, or the pool's (pooled) */
	bool evaler_open;
	/* rung_wb_opts.workers: the pool (parsed by rung_wb_new, opened on the
	 * runner's first evaluation, closed by rung_wb_free) */
	rung_pool pool;
	bool pooled, pool_open;
	int jobs;           /* versions in flight (compile threads + 1) */
	/* the sanitize gate's run after a batch (rung_eval_opts.cancel): set
	 * under q.lock by a task switch or rung_wb_free, so that its worker
	 * under compute-sanitizer is killed; cleared under it before a run */
	volatile int gate_cancel;
} rung__wb_eval;

/* PTX and SASS of one version (err < 0: the compile failed, error says why:
 * not tried again). */
typedef struct {
	char hash[41];
	char *ptx, *sass;
	int err;
	char error[512];
} rung__wb_text;

/* The texter and the cache. lock guards the cache (the caller's thread
 * reads it), the queue, busy and gen (bumped when the cache is cleared: a
 * text made before is dropped). ctx is the texter's alone. */
typedef struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	bool running, stop;
	rung__wb_text *cache;
	int ncache;
	char (*q)[41];
	int nq, qcap;
	char busy[41];
	unsigned gen;
	rung_vctx ctx; /* the texter's handles on the task (ctx_gen) */
	bool ctx_open;
	unsigned ctx_gen;
} rung__wb_texts;

struct rung_wb {
	char *dir;      /* as given (-C) */
	char *spec_rev; /* NULL: HEAD's, else the last good one */
	bool defer_results; /* rung_wb_opts.defer_results */
	bool fill_after_drawn; /* rung_wb_opts.fill_after_drawn */
	rung_wb_sink sink;
	/* the task shown (under q.lock): NULL as picked; task_gen is bumped by a
	 * switch, so that older jobs are dropped */
	char *taskdir;
	unsigned task_gen;
	rung__wb_queue q;
	rung__wb_poll poll;
	rung__wb_eval eval;
	rung__wb_texts texts;
};

/* The task directory and generation a background job works on (takes q.lock). */
char *rung__wb_task_snapshot(rung_wb *b, unsigned *gen);
/* Posts ev through the sink. */
int rung__wb_post(rung_wb *b, const rung_wb_event *ev);
/* Sets up and tears down b->texts (rung__wb_texts_stop joins the texter). */
void rung__wb_texts_init(rung__wb_texts *t);
void rung__wb_texts_stop(rung__wb_texts *t);
void rung__wb_texts_destroy(rung__wb_texts *t);

#endif

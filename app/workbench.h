/* The workbench's background service: the versions of a task read in the
 * background, its evaluations (one persistent worker), new commits noticed
 * as they land, and the PTX and SASS of versions made ahead of a compare.
 * What a front end shows is its own: the service hands it typed events
 * through a sink (rung_wb_sink) and never prints. tui/model/git.c is its
 * front end (the model's rows and events); app/workbench.c, app/workbench_text.c
 * implement it.
 *
 * Threads, each with its own handles on the repository and the task:
 * - the caller's thread (the UI thread) calls every rung_wb_* function;
 *   none of them waits for the GPU, a compile or a long read, except
 *   rung_wb_first and rung_wb_load_all (the first screenful, read
 *   before the first frame), rung_wb_text on a text not made yet, and
 *   rung_wb_free (the version on the GPU and the text being made finish);
 * - the runner (one thread, started on first use) runs, in this order: the
 *   results of the first list's pending rows (RUNG_WB_FILL), the
 *   rest of the first list (RUNG_WB_ROWS_MORE), the auto-evaluation probe
 *   (RUNG_WB_PROBE, after its delay), the queued evaluations in batches
 *   of one task and one sanitize request (RUNG_WB_PROGRESS,
 *   RUNG_WB_RESULT), then reloads (RUNG_WB_ROWS); with nothing else
 *   queued, after a batch (or a moment after the probe), the sanitize gate
 *   of app/sanitize_gate.h, as `rung eval` runs it: the would-be best is
 *   sanitized before it is recommended (RUNG_WB_QUEUED with
 *   RUNG_STEP_SANITIZE, RUNG_WB_PROGRESS, RUNG_WB_RESULT with the result as
 *   stored, RUNG_WB_MESSAGE in the CLI's words); a task switch or
 *   rung_wb_free kills its worker under compute-sanitizer. It owns the
 *   evaluator (rung_evaler: the worker process, the crash boundary) and its
 *   handles on the task evaluated;
 * - the poller (rung_wb_poll_start) looks at HEAD every interval and
 *   posts the versions committed since (RUNG_WB_ROWS_NEW);
 * - the texter (started by the first rung_wb_text_prepare) makes PTX and
 *   SASS one version at a time (RUNG_WB_TEXT), so that a compare never
 *   waits for an evaluation.
 * Two locks: the queue's (the jobs, the task shown and its generation, the
 * poll's marks) and the texts' (the cache, the text queue). The sink is
 * called on any of these threads, at times with one of them held: it must
 * hand the event on (to the UI's event queue) and never call the service. A task switch (rung_wb_set_task) bumps the task generation:
 * jobs of the old task finish, their rows are dropped, their results are
 * posted without a result (counted, not shown). A step after a version's
 * evaluation belongs in the runner's batch_done (app/workbench.c), before
 * the result is handed on; one after a batch (the sanitize gate) in
 * gate_after_batch.
 *
 * Compiles go through the one compile request builder (rung_version_compile,
 * app/task.h), so an #include outside the repository is refused, file:line. */
#ifndef RUNG_APP_WORKBENCH_H
#define RUNG_APP_WORKBENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "app/pool.h"
#include "app/session.h"
#include "core/result.h"

/* A version as read for the list: the loader's row (result, note: owned)
 * and its recorded result (rung demo, rung import: owned, NULL when none). */
typedef struct {
	rung_vrow vr;
	rung_result *recorded;
	/* read without its results (rung_wb_opts.defer_results): no content, no
	 * live or recorded result yet; RUNG_WB_FILL brings them */
	bool pending;
} rung_wb_row;
void rung_wb_rows_free(rung_wb_row *rows, int n);

typedef enum {
	RUNG_WB_QUEUED,    /* hash was queued (.step RUNG_STEP_SANITIZE: its sanitize rung only, else COMPILE) */
	RUNG_WB_PROGRESS,  /* hash is at .step, .frac done */
	RUNG_WB_RESULT,    /* hash is done: .result (owned, passed on) or NULL (failed, stale: counted) */
	RUNG_WB_MESSAGE,   /* .text for the person */
	RUNG_WB_ROWS,      /* the whole list: .rows/.nrows */
	RUNG_WB_ROWS_MORE, /* more of the first list after row .hash; .last: it is complete */
	RUNG_WB_ROWS_NEW,  /* versions committed since, newest first, to go above row .hash ("" : none) */
	RUNG_WB_PROBE,     /* the probe's answer: .gpu, .text the GPU's name or why there is none */
	RUNG_WB_TEXT,      /* the PTX and SASS of .hash are made, or failed (rung_wb_text says why) */
	/* the results of the first list's rows read pending (rung_wb_first with
	 * rung_wb_opts.defer_results): .rows/.nrows, the same versions again with
	 * their content, live and recorded results (no notes: the pending rows
	 * have theirs), for the list read at task generation .gen (rung_wb_first's
	 * *gen); .text: why they could not be read ("" : they were) */
	RUNG_WB_FILL,
} rung_wb_kind;

typedef struct {
	rung_wb_kind kind;
	char hash[41];
	rung_step_id step;
	double frac;
	rung_result *result;
	void *rows; /* the sink's rows (rung_wb_sink.rows made them) */
	int nrows;
	bool last;
	bool gpu;
	unsigned gen; /* RUNG_WB_FILL */
	char text[256];
} rung_wb_event;

typedef struct {
	void *ud;
	/* Turns rows read by the service into the front end's own (*out, n of
	 * them; NULL for none), taking rows over in every case. A service thread,
	 * or the caller's in rung_wb_first and rung_wb_load_all; no lock
	 * held. 0 or negative (message set). */
	int (*rows)(void **out, void *ud, rung_wb_row *rows, int n);
	/* Frees what rows made (rows a task switch made stale). */
	void (*rows_free)(void *ud, void *rows, int n);
	/* Takes the event over (.result, .rows). Any service thread, at times
	 * under one of the service's locks: must not call the service. 0, or negative
	 * when it could not (out of memory: the event is lost; a submit fails). */
	int (*post)(void *ud, const rung_wb_event *ev);
} rung_wb_sink;

typedef struct {
	const char *dir;      /* the repository, or a directory in it (-C) */
	const char *taskdir;  /* as given (NULL: the one around dir, else the first) */
	const char *spec_rev; /* rung tui --spec-rev (NULL: HEAD's, else the last good one) */
	int jobs;             /* versions in flight in a batch (compile threads + 1); <= 0: 3 */
	/* a pool of workers (app/pool.h: rung tui --workers, `workers =`); NULL or
	 * "": the one local worker. Parsed by rung_wb_new (RUNG_EUSAGE when bad),
	 * opened on the first evaluation (the probe's), kept across task
	 * switches, closed by rung_wb_free. */
	const char *workers;
	/* rung_wb_first reads the versions, their notes and nothing more before
	 * the first frame (#28, first frame against tig): when the store holds
	 * results, its rows are pending (no content hashed, no result parsed) and
	 * the runner reads their results first of all, before the rest of the
	 * list, the probe and any evaluation, and posts them as RUNG_WB_FILL */
	bool defer_results;
	/* with defer_results: the runner opens its handles at once but reads the
	 * rows' results only once rung_wb_drawn says the first frame is on
	 * screen, so that the two threads do not share the CPU before it (a
	 * 2-core machine's first frame was 1-3.5 ms later: docs/BENCHMARKS.md,
	 * "Workbench speed") */
	bool fill_after_drawn;
	rung_wb_sink sink;
} rung_wb_opts;

typedef struct rung_wb rung_wb;

/* A service for o (copied); no thread runs yet. *c (may be NULL) is opened on
 * the task as the UI thread's handles (rung_wb_open_ctx), *note says when
 * the last good spec is used. */
int rung_wb_new(rung_wb **out, const rung_wb_opts *o, rung_vctx *c, char *note, size_t len);
/* Stops every thread (the version on the GPU and the text being made finish,
 * the rest are left), closes the worker and frees b. */
void rung_wb_free(rung_wb *b);

/* Opens c on task taskdir (NULL: the one around the service's dir, else the
 * first of several) with the service's spec revision: a spec at HEAD that
 * does not parse gives way to the newest earlier one that does, and *note
 * (when given) says so, naming the error. The store is opened to read (writes
 * fail where it is read-only). */
int rung_wb_open_ctx(rung_vctx *c, rung_wb *b, const char *taskdir, char *note, size_t len);

/* The first rows (up to max) of c's task through the sink (*rows, *n);
 * *more when there are others (rung_wb_rest reads them). Marks the list
 * for the poller. With rung_wb_opts.defer_results, *gen (when given) is
 * the task generation a RUNG_WB_FILL for these rows will carry (the rows are
 * pending when their results are deferred: the runner is asked for them
 * here; where it cannot start they are read here and now). Caller's thread. */
int rung_wb_first(void **rows, int *n, bool *more, rung_wb *b, rung_vctx *c, int max);
int rung_wb_first_gen(void **rows, int *n, bool *more, unsigned *gen, rung_wb *b, rung_vctx *c, int max);
/* The front end's first frame is on screen (rung_wb_opts.fill_after_drawn):
 * the deferred results may be read. Any thread; once is enough. */
void rung_wb_drawn(rung_wb *b);
/* Every row of c's task through the sink, on the caller's thread. */
int rung_wb_load_all(void **rows, int *n, rung_wb *b, rung_vctx *c);
/* The rest of the list after row anchor, on the runner (RUNG_WB_ROWS_MORE,
 * or the whole list as RUNG_WB_ROWS when anchor is gone). Negative when no
 * thread can start (then nothing is posted). */
int rung_wb_rest(rung_wb *b, const char *anchor);
/* A reload on the runner (RUNG_WB_ROWS, "reloaded"). */
int rung_wb_reload(rung_wb *b);
/* The task shown from now on (a directory, as rung_wb_open_ctx takes it;
 * malloc'd, taken over; NULL: as picked): the generation is bumped, so that
 * jobs of the old one are dropped. *old (when given) gets the previous one
 * (caller frees), else it is freed. Never fails, so that a switch that
 * fails later can be taken back. */
void rung_wb_set_task(rung_wb *b, char *taskdir, char **old);

/* Queues version hash of the task shown for evaluation (sanitize: its
 * sanitize rung only, with these tools, a RUNG_SAN_BIT mask). RUNG_WB_QUEUED
 * is posted before the runner can see it. */
int rung_wb_submit(rung_wb *b, const char *hash, unsigned sanitize);
/* The probe on the runner after delay_s (nothing else asked meanwhile): opens
 * the worker evaluations use (one worker, one CUDA context) and posts
 * RUNG_WB_PROBE. */
int rung_wb_probe(rung_wb *b, double delay_s);
/* Per-worker status of the pool (rung_pool_status_get: safe while a batch
 * runs; any thread): the member count, 0 without a pool (rung_wb_opts.workers
 * not given). Before the pool is opened its members have no host or GPU yet. */
int rung_wb_workers(rung_wb *b, rung_pool_status *out, int max);
/* Starts the poller: HEAD every interval_s seconds (RUNG_WB_ROWS_NEW, or
 * RUNG_WB_ROWS when the history was rewritten). Negative: no thread. */
int rung_wb_poll_start(rung_wb *b, int interval_s);

/* The PTX (sass false) or SASS of hash: from the cache, else made here and
 * now with c's handles (the caller's thread) and cached. RUNG_ENOTFOUND when
 * there is none; the compile's error, file:line, when it failed. */
int rung_wb_text(char **out, rung_wb *b, rung_vctx *c, const char *hash, bool sass);
/* Has them made on the texter: 0 when they are cached already, 1 when they are
 * being made (RUNG_WB_TEXT follows), 0 too when no thread can start
 * (rung_wb_text makes them when asked). */
int rung_wb_text_prepare(rung_wb *b, const char *hash);
/* Drops the requests not started yet. */
void rung_wb_text_cancel(rung_wb *b);
/* Empties the cache (a changed work tree, another task): texts being made
 * are dropped when done. */
void rung_wb_texts_clear(rung_wb *b);

#endif

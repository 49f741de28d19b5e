/* Evaluating versions from git for `rung eval`, `rung watch` and the workbench:
 * each version goes through the one evaluation (app/evaluate.h), with compiles
 * running ahead of the GPU on other threads. The store is asked first (same
 * content + same device = cache hit, linked to the new commit); otherwise the
 * version is compiled, run in the evaluator's persistent worker, and stored.
 * Prints nothing: progress and results go to the caller's callbacks. */
#ifndef RUNG_APP_PIPELINE_H
#define RUNG_APP_PIPELINE_H

#include <stdatomic.h>
#include <stdbool.h>

#include "app/evaluate.h"
#include "app/pool.h"
#include "app/session.h"

/* Progress of version index (0-based) of total: the protocol's step, fraction
 * and message. Called on the thread that runs rung_evaler_run_all. */
typedef void (*rung_evaler_progress_fn)(void *ud, int index, int total, const rung_version *v, rung_step_id step,
					double frac, const char *msg);

typedef struct {
	rung_vctx *c;
	rung_evaluator ev;  /* the worker, the device and the store (c->store) */
	rung_env env;       /* env.valid false: no GPU (results are shown, not stored) */
	char no_gpu[512];   /* why, when !env.valid and not compile-only */
	rung_eval_opts opts; /* flags, sanitize; progress is set per version */
	rung_evaler_progress_fn progress;
	void *progress_ud;
	/* set while a version runs (for the progress callback) */
	int index, total;
	const rung_version *cur;
	/* A pool of workers (app/pool.h, borrowed; NULL: the evaluator's own
	 * worker). rung_evaler_run_all then hands each version's GPU rungs to the
	 * next free worker, the compile on that worker's thread, and stores the
	 * results in order on the calling thread, under each result's own device.
	 * No-op reuse and the sanitize rung as with one worker (a remote member's
	 * sanitize rung is SKIPPED, saying why); jobs on one GPU run one at a time
	 * (app/pool.h); no progress messages there. */
	rung_pool *pool;
	/* Asked to stop (any thread): the versions not started yet are left. */
	atomic_int cancel;
} rung_evaler;

/* For a sanitize run after a pooled batch (the sanitize gate): the argv
 * prefix that pins it to the device of the pool's local member whose GPU has
 * this UUID (the one that timed the version), else to the first local member
 * still in the pool; NULL without a pool or a local member. */
const char *const *rung_evaler_sanitize_wrap(const rung_evaler *e, const char *uuid);

/* Opens the worker and reads the device; never fails for a missing GPU (then
 * e->env.valid is false and e->no_gpu says why). flags: RUNG_EVAL_*. */
int rung_evaler_open(rung_evaler *e, rung_vctx *c, unsigned flags);
/* The same with a pool (app/pool.h, opened, borrowed until close): no worker
 * of the evaluator's own; the device is read from the pool's first worker. */
int rung_evaler_open_pool(rung_evaler *e, rung_vctx *c, unsigned flags, rung_pool *pool);
void rung_evaler_close(rung_evaler *e);
/* The same worker for another session (a task switch in the workbench): the
 * store and the measured ceilings are c's from now on. */
void rung_evaler_retarget(rung_evaler *e, rung_vctx *c);

/* The tools e runs the sanitize rung with (RUNG_SAN_BIT mask, 0: none). */
unsigned rung_evaler_sanitize_tools(const rung_evaler *e);

/* Evaluates (or finds in the store) one version into *out (initialised here).
 * Returns 0 or negative. */
int rung_evaler_run(rung_evaler *e, const rung_version *v, rung_result *out);

/* Evaluates vs[0..n) in this order, compiles overlapping the GPU: `jobs` - 1
 * compile threads (NVRTC, CPU) work ahead of the current version through a
 * bounded window of `jobs` versions, while this thread feeds the worker in order
 * and stores results in order. jobs <= 1: compile and run one version at a
 * time. Every version of the call is checked with one seed, drawn fresh for
 * the call unless e->opts has one, so that they are compared on the same
 * inputs. done(ud, i, &vs[i], result, err) is called once per version, in order
 * (err < 0: rung's own failure, message in rung_error_last(); the result is then
 * empty); it may take the result over (leaving *r initialised and empty).
 * Returns 0 or negative (thread start failure). */
typedef void (*rung_evaler_done_fn)(void *ud, int i, const rung_version *v, rung_result *r, int err);
int rung_evaler_run_all(rung_evaler *e, const rung_version *vs, int n, int jobs, rung_evaler_done_fn done, void *ud);

/* Compiles started so far by rung_evaler_run_all, and the most in flight at once
 * (for tests: overlap means the latter exceeds 1 with jobs > 2). */
typedef struct {
	int compiled, max_in_flight;
} rung_evaler_stats;
rung_evaler_stats rung_evaler_last_stats(void);

#endif

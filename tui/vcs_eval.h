/* Evaluating versions from git for `rung eval` and `rung watch`: the store is
 * asked first (same content + same device = cache hit, linked to the new
 * commit); otherwise rung_evaluate (gpu/worker.h) runs and the result is stored. */
#ifndef RUNG_TUI_VCS_EVAL_H
#define RUNG_TUI_VCS_EVAL_H

#include <stdbool.h>

#include "core/timing.h"
#include "gpu/worker.h"
#include "tui/vcs_ctx.h"

typedef struct {
	rung_vctx *c;
	rung_worker *w;
	rung_env env;       /* env.valid false: no GPU (results are shown, not stored) */
	/* The measured ceilings of env's device from the store (vcs/ceil_store.h),
	 * given to every job for the speed-of-light guard when have_ceilings. */
	rung_ceilings ceilings;
	bool have_ceilings;
	bool tty;           /* progress bar on stderr */
	int index, total;   /* for the progress line */
	double started;     /* monotonic seconds at the first version */
	const char *cur;    /* short id being evaluated */
	int last_step;
	unsigned flags;     /* RUNG_JOB_* */
	/* The sanitize rung (set after rung_evaler_open): sanitize_set ? sanitize
	 * : the spec's [check] sanitize; run after the other rungs, or on a stored
	 * result whose sanitize rung does not cover the tools, and stored with it. */
	bool sanitize_set;
	unsigned sanitize;
} rung_evaler;

/* The tools e runs the sanitize rung with (RUNG_SAN_BIT mask, 0: none). */
unsigned rung_evaler_sanitize_tools(const rung_evaler *e);

/* Opens the worker and reads the device; never fails for a missing GPU. */
int rung_evaler_open(rung_evaler *e, rung_vctx *c, unsigned flags);
void rung_evaler_close(rung_evaler *e);

/* Evaluates (or finds in the store) one version into *out (initialised here).
 * *stored is set when the result was written or linked. Returns 0 or negative. */
int rung_evaler_run(rung_evaler *e, const rung_version *v, rung_result *out);

/* Evaluates vs[0..n) in this order, compiles overlapping the GPU: `jobs` - 1
 * compile threads (NVRTC, CPU) work ahead of the current version through a
 * bounded window of `jobs` versions, while this thread feeds the worker in order
 * (rung_evaluate_gpu) and stores results in order. jobs <= 1: compile and run one
 * version at a time. done(ud, i, &vs[i], result, err) is called once per version,
 * in order (err < 0: rung's own failure, message in rung_error_last(); the result
 * is then empty). Returns 0 or negative (thread start failure). */
typedef void (*rung_evaler_done_fn)(void *ud, int i, const rung_version *v, rung_result *r, int err);
int rung_evaler_run_all(rung_evaler *e, const rung_version *vs, int n, int jobs, rung_evaler_done_fn done, void *ud);

/* Compiles started so far by rung_evaler_run_all, and the most in flight at once
 * (for tests: overlap means the latter exceeds 1 with jobs > 2). */
typedef struct {
	int compiled, max_in_flight;
} rung_evaler_stats;
rung_evaler_stats rung_evaler_last_stats(void);

#endif

/* Evaluating versions from git for `rung eval` and `rung watch`: the store is
 * asked first (same content + same device = cache hit, linked to the new
 * commit); otherwise rung_evaluate (gpu/worker.h) runs and the result is stored. */
#ifndef RUNG_TUI_VCS_EVAL_H
#define RUNG_TUI_VCS_EVAL_H

#include <stdbool.h>

#include "gpu/worker.h"
#include "tui/vcs_ctx.h"

typedef struct {
	rung_vctx *c;
	rung_worker *w;
	rung_env env;       /* env.valid false: no GPU (results are shown, not stored) */
	bool tty;           /* progress bar on stderr */
	int index, total;   /* for the progress line */
	double started;     /* monotonic seconds at the first version */
	const char *cur;    /* short id being evaluated */
	int last_step;
	unsigned flags;     /* RUNG_JOB_* */
} rung_evaler;

/* Opens the worker and reads the device; never fails for a missing GPU. */
int rung_evaler_open(rung_evaler *e, rung_vctx *c, unsigned flags);
void rung_evaler_close(rung_evaler *e);

/* Evaluates (or finds in the store) one version into *out (initialised here).
 * *stored is set when the result was written or linked. Returns 0 or negative. */
int rung_evaler_run(rung_evaler *e, const rung_version *v, rung_result *out);

double rung_now_s(void);

#endif

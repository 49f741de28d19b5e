/* The profile rung inside the worker (a job with RUNG_JOB_PROFILE): at the
 * benchmark shape, after run and check passed, one launch under the CUPTI range
 * profiler with kernel replay (gpu/cupti_prof.h). This run is never timed (the
 * bench rung is SKIPPED in it). Counters go to result.counters by metric name
 * (core/profile.h); metrics the chip lacks are named in the rung's reason. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "core/profile.h"
#include "gpu/cupti_prof.h"
#include "gpu/worker/flush.h"
#include "gpu/worker/input.h"
#include "gpu/worker/launch.h"
#include "gpu/worker/profile.h"
#include "gpu/worker/report.h"

typedef struct {
	rung_wjob *j;
	void **params;
	int session, nsessions;
} launch_ud;

/* One launch per profiler session (one metric each): a progress message keeps
 * the parent's deadline from firing on a long kernel replayed many times, and
 * L2 is flushed first so that every session sees a cold cache (the flush is its
 * own range; the candidate's range is the last one, the one evaluated). */
static CUresult launch_once(void *ud)
{
	launch_ud *u = ud;
	const rung_plan *p = u->j->p;
	rung_wctx *c = u->j->c;
	rung__wprogress(c, RUNG_STEP_PROFILE, (double)u->session / (u->nsessions ? u->nsessions : 1),
			"counter %d/%d (kernel replay)", u->session + 1, u->nsessions);
	u->session++;
	rung__scratch_zero(c->stream); /* zeroed scratch for each session, as for every launch */
	if (rung__flush_ready(c))
		rung__flush_l2(c);
	CUresult r = rung__launch(u->j->c, u->j->kfn, &p->shapes[p->nshapes - 1].geom, u->params);
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuStreamSynchronize(u->j->c->stream);
	return r;
}

void rung__wprofile(rung_wjob *j)
{
	rung_wctx *c = j->c;
	rung_result *res = j->res;
	const rung_plan *p = j->p;
	rung__wstep(res, RUNG_STEP_PROFILE, RUNG_S_RUNNING, NULL);
	rung__wprogress(c, RUNG_STEP_PROFILE, 0, "counters (kernel replay)");
	rung_dbuf buf[RUNG_MAX_ARGS];
	rung_kparam kp[RUNG_MAX_ARGS];
	void *params[RUNG_MAX_ARGS];
	memset(buf, 0, sizeof(buf));
	if (rung__bench_buffers(j, buf, kp, params)) {
		/* bench_buffers reports on the bench rung: move the verdict. */
		res->steps[RUNG_STEP_PROFILE] = res->steps[RUNG_STEP_BENCH];
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_SKIPPED, "profile run (never timed)");
		goto out;
	}
	double vals[64];
	char skipped[1024], why[512];
	CUresult lerr = CUDA_SUCCESS;
	int n = rung_profile_nmetrics < 64 ? rung_profile_nmetrics : 64;
	launch_ud u = {j, params, 0, n};
	int rc = rung_cupti_profile(vals, skipped, sizeof(skipped), c->ctx, c->dev, rung_profile_metrics, n, launch_once,
				    &u, &lerr, why, sizeof(why));
	if (rc == RUNG_EUNSUPPORTED) {
		rung__wstep(res, RUNG_STEP_PROFILE, RUNG_S_SKIPPED, "profiling counters not permitted (%s)", why);
		goto out;
	}
	if (rc) {
		if (lerr != CUDA_SUCCESS) {
			rung__describe_fault(why, sizeof(why), lerr, p->kernel.name);
			j->fatal = rung_cu_is_sticky(lerr);
		}
		rung__wstep(res, RUNG_STEP_PROFILE, RUNG_S_FAILED, "%s", why);
		goto out;
	}
	for (int i = 0; i < n; i++)
		if (!isnan(vals[i]))
			rung_counter_set(res, rung_profile_metrics[i], vals[i]);
	rung_profile_derive(res);
	if (skipped[0])
		rung__wstep(res, RUNG_STEP_PROFILE, RUNG_S_OK, "not on this chip: %s", skipped);
	else
		rung__wstep(res, RUNG_STEP_PROFILE, RUNG_S_OK, NULL);
out:
	if (!j->fatal)
		for (int i = 0; i < p->nargs; i++)
			if (buf[i].base)
				rung_cu.cuMemFree(buf[i].base);
}

/* `rung profile --sass` inside the worker (a job with RUNG_JOB_PROFILE |
 * RUNG_JOB_SASS): after run and check passed, one launch at the benchmark
 * shape under CUPTI SASS metrics (gpu/cupti_sass.h), never timed. The per-PC
 * counts go to result.aux as {"sass": {...}} (core/sass_prof.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "core/sass_prof.h"
#include "gpu/cupti_sass.h"
#include "gpu/worker/input.h"
#include "gpu/worker/launch.h"
#include "gpu/worker/report.h"
#include "gpu/worker/sass.h"

typedef struct {
	rung_wjob *j;
	void **params;
} sass_ud;

static CUresult launch_once(void *ud)
{
	sass_ud *u = ud;
	const rung_plan *p = u->j->p;
	CUresult r = rung__scratch_zero(u->j->c->stream); /* zeroed scratch for each launch */
	if (r == CUDA_SUCCESS)
		r = rung__launch(u->j->c, u->j->kfn, &p->shapes[p->nshapes - 1].geom, u->params);
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuStreamSynchronize(u->j->c->stream);
	return r;
}

void rung__wsass(rung_wjob *j)
{
	rung_wctx *c = j->c;
	rung_result *res = j->res;
	const rung_plan *p = j->p;
	rung__wstep(res, RUNG_STEP_PROFILE, RUNG_S_RUNNING, NULL);
	rung__wprogress(c, RUNG_STEP_PROFILE, 0, "SASS counts (patched binary)");
	rung_dbuf buf[RUNG_MAX_ARGS];
	rung_kparam kp[RUNG_MAX_ARGS];
	void *params[RUNG_MAX_ARGS];
	memset(buf, 0, sizeof(buf));
	if (rung__bench_buffers(j, buf, kp, params)) {
		res->steps[RUNG_STEP_PROFILE] = res->steps[RUNG_STEP_BENCH];
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_SKIPPED, "profile run (never timed)");
		goto out;
	}
	rung_sass_counts sc;
	char why[512];
	CUresult lerr = CUDA_SUCCESS;
	sass_ud u = {j, params};
	int rc = rung_cupti_sass(&sc, c->ctx, c->dev, p->kernel.lowered, launch_once, &u, &lerr, why, sizeof(why));
	if (rc == RUNG_EUNSUPPORTED) {
		rung__wstep(res, RUNG_STEP_PROFILE, RUNG_S_SKIPPED, "SASS metrics not permitted (%s)", why);
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
	json_t *aux = json_pack("{s:o}", "sass", rung_sass_counts_to_json(&sc));
	free(res->aux);
	res->aux = aux ? json_dumps(aux, JSON_COMPACT) : NULL;
	json_decref(aux);
	rung__wstep(res, RUNG_STEP_PROFILE, res->aux ? RUNG_S_OK : RUNG_S_FAILED, "sass: %d instructions counted%s",
		    sc.n, res->aux ? "" : " (out of memory encoding them)");
	rung_sass_counts_clear(&sc);
out:
	if (!j->fatal)
		for (int i = 0; i < p->nargs; i++)
			if (buf[i].base)
				rung_cu.cuMemFree(buf[i].base);
}

/* The per-PC profiles inside the worker, after run and check passed, one
 * launch at the benchmark shape, never timed (the bench rung is SKIPPED):
 *   `rung profile --sass`   (RUNG_JOB_PROFILE | RUNG_JOB_SASS): CUPTI SASS
 *       metrics (gpu/cupti_sass.h), exact counts per PC; result.aux "sass"
 *       (core/sass_prof.h);
 *   `rung profile --stalls` (RUNG_JOB_PROFILE | RUNG_JOB_STALLS): CUPTI PC
 *       sampling (gpu/cupti_pcsamp.h), warp stall reasons per PC;
 *       result.aux "stall" (core/stall.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "core/sass_prof.h"
#include "core/stall.h"
#include "gpu/cupti_pcsamp.h"
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

/* One collector: fills *aux (a JSON value to store under its kind) and a
 * summary for the rung's reason, or fails as rung_cupti_* do. */
typedef int (*collect_fn)(json_t **aux, char *summary, size_t slen, rung_wjob *j, sass_ud *u, CUresult *lerr,
			  char *why, size_t wlen);

static int collect_sass(json_t **aux, char *summary, size_t slen, rung_wjob *j, sass_ud *u, CUresult *lerr, char *why,
			size_t wlen)
{
	rung_sass_counts sc;
	int rc = rung_cupti_sass(&sc, j->c->ctx, j->c->dev, j->p->kernel.lowered, launch_once, u, lerr, why, wlen);
	if (rc)
		return rc;
	*aux = rung_sass_counts_to_json(&sc);
	snprintf(summary, slen, "sass: %d instructions counted", sc.n);
	rung_sass_counts_clear(&sc);
	return 0;
}

static int collect_stalls(json_t **aux, char *summary, size_t slen, rung_wjob *j, sass_ud *u, CUresult *lerr,
			  char *why, size_t wlen)
{
	rung_stall st;
	const char *pe = getenv("RUNG_PCSAMP_PERIOD"); /* log2 cycles, 5..31; CUPTI's default otherwise */
	int rc = rung_cupti_pcsamp(&st, j->c->ctx, j->p->kernel.lowered, pe ? atoi(pe) : 0, launch_once, u, lerr, why,
				   wlen);
	if (rc)
		return rc;
	*aux = rung_stall_to_json(&st);
	snprintf(summary, slen, "stalls: %llu samples at %d PCs%s", (unsigned long long)st.total, st.n,
		 st.dropped ? " (some dropped)" : "");
	rung_stall_clear(&st);
	return 0;
}

static void per_pc(rung_wjob *j, const char *kind, const char *what, const char *denied, collect_fn collect)
{
	rung_wctx *c = j->c;
	rung_result *res = j->res;
	const rung_plan *p = j->p;
	rung__wstep(res, RUNG_STEP_PROFILE, RUNG_S_RUNNING, NULL);
	rung__wprogress(c, RUNG_STEP_PROFILE, 0, "%s", what);
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
	json_t *data = NULL;
	char why[512], summary[256];
	CUresult lerr = CUDA_SUCCESS;
	sass_ud u = {j, params};
	int rc = collect(&data, summary, sizeof(summary), j, &u, &lerr, why, sizeof(why));
	if (rc == RUNG_EUNSUPPORTED) {
		rung__wstep(res, RUNG_STEP_PROFILE, RUNG_S_SKIPPED, "%s not permitted (%s)", denied, why);
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
	json_t *aux = json_object();
	json_object_set_new(aux, kind, data);
	free(res->aux);
	res->aux = aux ? json_dumps(aux, JSON_COMPACT) : NULL;
	json_decref(aux);
	rung__wstep(res, RUNG_STEP_PROFILE, res->aux ? RUNG_S_OK : RUNG_S_FAILED, "%s%s", summary,
		    res->aux ? "" : " (out of memory encoding them)");
out:
	if (!j->fatal)
		for (int i = 0; i < p->nargs; i++)
			if (buf[i].base)
				rung_cu.cuMemFree(buf[i].base);
}

void rung__wsass(rung_wjob *j)
{
	per_pc(j, "sass", "SASS counts (patched binary)", "SASS metrics", collect_sass);
}

void rung__wstall(rung_wjob *j)
{
	per_pc(j, "stall", "warp stall sampling (PC sampling)", "PC sampling", collect_stalls);
}

/* The compile half of rung_evaluate (gpu/worker.h), public for pipelines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/err.h"
#include "core/rng.h"
#include "gpu/worker_internal.h"

int rung_evaluate_compile(rung_result *out, rung_compiled *kc, rung_compiled *rc, const rung_job *job,
			  const char *arch)
{
	rung_result_init(out);
	memset(kc, 0, sizeof(*kc));
	memset(rc, 0, sizeof(*rc));
	if (!job || !job->spec || !job->kernel_src)
		return rung_error_set(RUNG_EINVAL, "rung_evaluate_compile: job, spec and kernel source are required");
	snprintf(out->rev, sizeof(out->rev), "%s", job->rev ? job->rev : "");
	snprintf(out->label, sizeof(out->label), "%s", job->label ? job->label : "");
	out->base_seed = job->seed_set ? job->seed : rung_seed_fresh();
	out->created = (int64_t)time(NULL);
	out->run_dims = job->spec->dims;
	char *ref_owned = NULL;
	int c = rung__compile_pair(out, kc, rc, job, arch ? arch : "sm_90", NULL, NULL, &ref_owned);
	free(ref_owned);
	return c;
}

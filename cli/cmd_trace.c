/* rung trace [--json] [--seed S] [-C DIR] [--task DIR] [--spec-rev REV] [TASKDIR|FILE|REV]
 *
 * Intra-kernel region timings (rung.h, RUNG_TRACE_BEGIN/END): run and check
 * as usual, then one launch at the benchmark shape with the trace buffer
 * attached (gpu/worker/trace.c; never timed, the bench rung is SKIPPED).
 * Prints per-region count, median, p90 and max duration (us) and the median's
 * fraction of the kernel time, then blocks per SM and each SM's first start
 * and last end. --json: {"status","reason","stored","trace":{records, regions,
 * sms}} (core/trace.h). For a version from git the trace is stored beside its
 * result (profile_extra, kind "trace").
 * Exit: 0 traced (or the kernel has no regions: SKIPPED), 1 a rung failed,
 * 2 usage, 3 spec, 4 no GPU, 5 internal. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/err.h"
#include "core/result.h"
#include "core/trace.h"
#include "gpu/compile.h"
#include "gpu/worker.h"
#include "app/evaluate.h"
#include "cli/cli.h"
#include "app/profile_extra.h"
#include "app/task.h"

typedef struct {
	rung_gpu_run_opts run;
} trace_opts;

static const rung_opt_spec trace_specs[] = {{RUNG_OPT_SUBTABLE(trace_opts, run, rung_gpu_run_opt_specs)}, {0}};
const rung_opt_table rung_opts_trace = {.cmd = "trace", .args = "[TASKDIR|FILE|REV]", .max_args = 1,
					.opts = trace_specs};

int rung_cmd_trace(int argc, char **argv)
{
	trace_opts to = {0};
	int rc, nargs;
	if (rung_opts_parse(&rc, &rung_opts_trace, &to, argc, argv, &nargs))
		return rc;
	rung_task t;
	rc = rung_cli_task_load(&t, "trace", nargs ? argv[1] : NULL, &to.run.where);
	if (rc) {
		rung_task_clear(&t);
		return rc;
	}
	rung_compiled kc, refc;
	memset(&kc, 0, sizeof(kc));
	memset(&refc, 0, sizeof(refc));
	int code = RUNG_EXIT_OK;
	rung_result r;
	rung_result_init(&r);
	rung_trace tr;
	rung_trace_init(&tr);
	json_t *aux = NULL;
	rung_eval_opts eo = {.job_flags = RUNG_JOB_TRACE, .seed = to.run.seed, .seed_set = to.run.has_seed, .sanitize_set = true,
			     .progress = rung_cli_progress};
	if ((code = rung_cli_evaluate(&r, &t, &eo, &kc, &refc, "trace")))
		goto done;
	code = rung_gpu_exit_code(&r, RUNG_STEP_CHECK);
	const rung_step *ps = &r.steps[RUNG_STEP_PROFILE];
	if (ps->status == RUNG_S_FAILED && code == RUNG_EXIT_OK)
		code = RUNG_EXIT_FAIL;
	aux = r.aux ? json_loads(r.aux, 0, NULL) : NULL;
	json_t *tj = json_object_get(aux, "trace");
	bool have = ps->status == RUNG_S_OK && tj && rung_trace_from_json(&tr, tj) == 0;
	int stored = 0;
	if (have) {
		char *txt = json_dumps(tj, JSON_COMPACT);
		stored = rung_profile_extra_put(&t, &r.env, "trace", txt);
		free(txt);
		if (stored < 0)
			fprintf(stderr, "rung trace: %s (the trace was not stored)\n", rung_error_last());
	}
	if (to.run.json) {
		const rung_step *why = rung_result_step_or_cause(&r, RUNG_STEP_PROFILE); /* no GPU: SKIPPED, not none */
		json_t *o = json_pack("{s:s,s:s,s:b}", "status", rung_status_name(why->status), "reason", why->reason,
				      "stored", stored > 0);
		if (have)
			json_object_set_new(o, "trace", rung_trace_to_json(&tr));
		char *s = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(17));
		if (s)
			puts(s);
		free(s);
		json_decref(o);
	} else {
		for (int s = RUNG_STEP_RUN; s <= RUNG_STEP_CHECK; s++)
			rung_check_print_gpu_step(stdout, &r, t.spec, (rung_step_id)s);
		if (have)
			rung_trace_print(stdout, &tr, 16);
		else if (ps->status != RUNG_S_NONE)
			printf("[trace] %s %s\n", rung_status_name(ps->status), ps->reason);
	}
done:
	json_decref(aux);
	rung_trace_clear(&tr);
	rung_result_clear(&r);
	rung_compiled_clear(&kc);
	rung_compiled_clear(&refc);
	rung_task_clear(&t);
	return code;
}

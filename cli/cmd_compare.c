/* rung compare [--json] [--budget SEC] [-C DIR] [--task DIR] [--spec-rev REV] A B
 *
 * Times two versions of one task against each other in one worker, interleaved
 * (A B, B A, ...) with an L2 flush before each launch and every launch verified
 * (gpu/worker/compare.c), and prints
 *   FASTER B/A=0.953 [0.948, 0.958] A=15.503ms B=14.772ms n=41 dropped=0 verified=86
 * (the verdict is B relative to A; the interval is a bootstrap 95% interval of
 * the ratio of medians, core/stats.h). Identical machine code prints
 *   SAME identical machine code
 * without timing. A verified launch that did not match gives no timing verdict:
 *   DISAGREE A and B disagree at timed round 7 (12288 elements of y, first at (1,0), ...): ...
 * and exit 1. --json prints one object with the same content. A and B are
 * kernel files (or task directories) of the same task; A's rung.ini is used for
 * both. A and B may also be git revisions (HEAD~1 HEAD, a short hash,
 * WORKTREE), read from git (rung_task_load_target). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "core/stats.h"
#include "gpu/worker.h"
#include "cli/cli.h"
#include "app/task.h"

/* One line: {"verdict":..., ...}; o is consumed. */
static void print_json(json_t *o)
{
	char *t = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(6));
	if (t)
		printf("%s\n", t);
	free(t);
	json_decref(o);
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* A verdict without timing (SAME identical, FAILED, SKIPPED). */
static void say(bool json, const char *verdict, const char *text)
{
	if (!json) {
		printf("%s %s\n", verdict, text);
		return;
	}
	json_t *o = json_pack("{s:s}", "verdict", verdict);
	if (!strcmp(verdict, "SAME"))
		json_object_set_new(o, "identical", json_true());
	else
		json_object_set_new(o, "reason", json_string(text));
	print_json(o);
}

static void add_verified(json_t *o, const rung_ab *ab)
{
	json_object_set_new(o, "verified", json_integer(ab->verified));
	json_object_set_new(o, "sets", json_integer(ab->sets));
	json_object_set_new(o, "verify_ms", num_or_null(ab->verify_ms));
}

static void say_disagree(bool json, const rung_ab *ab)
{
	if (!json) {
		printf("DISAGREE %s\n", ab->reason);
		return;
	}
	json_t *first = json_array();
	for (int k = 0; k < ab->rank; k++)
		json_array_append_new(first, json_integer(ab->first[k]));
	json_t *o = json_pack("{s:s,s:s,s:i,s:b,s:s,s:s,s:I,s:o}", "verdict", "DISAGREE", "reason", ab->reason, "round",
			      ab->round, "timed", ab->round_timed, "kernel", ab->kernel, "arg", ab->arg, "count",
			      (json_int_t)ab->count, "first", first);
	add_verified(o, ab);
	print_json(o);
}

typedef struct {
	bool json;
	double budget;
	rung_task_where where;
} compare_opts;

static const rung_opt_spec compare_specs[] = {
	{RUNG_OPT_BOOL(compare_opts, json), .name = "json", .help = "print one JSON object instead of the line"},
	{RUNG_OPT_DBL(compare_opts, budget, 0, 3600), .flags = RUNG_OPTF_GT, .name = "budget", .value = "SEC",
	 .help = "time budget of the interleaved rounds (default 2)"},
	{RUNG_OPT_SUBTABLE(compare_opts, where, rung_vctx_opt_specs)},
	{0}};
const rung_opt_table rung_opts_compare = {.cmd = "compare", .args = "A B", .max_args = 2,
					  .opts = compare_specs};

int rung_cmd_compare(int argc, char **argv)
{
	compare_opts co = {.budget = 2.0};
	int prc, nargs;
	if (rung_opts_parse(&prc, &rung_opts_compare, &co, argc, argv, &nargs))
		return prc;
	if (nargs != 2) {
		fprintf(stderr, "rung compare: needs two versions, A and B\n");
		return rung_cli_usage("compare", 1);
	}
	double budget = co.budget;
	bool json = co.json;
	const char *targets[2] = {argv[1], argv[2]};
	rung_task_where where = co.where;
	rung_task ta, tb;
	memset(&tb, 0, sizeof(tb));
	int rc = rung_cli_task_load(&ta, "compare", targets[0], &where);
	if (rc) {
		rung_task_free(&ta);
		return rc;
	}
	if ((rc = rung_cli_task_load(&tb, "compare", targets[1], &where))) {
		rung_task_free(&ta);
		rung_task_free(&tb);
		return rc;
	}
	rung_compiled ka, kb;
	memset(&ka, 0, sizeof(ka));
	memset(&kb, 0, sizeof(kb));
	int code = RUNG_EXIT_OK;
	rung_worker *w = NULL;
	rung_ab ab;
	memset(&ab, 0, sizeof(ab));
	char why[1024];
	if (rung_task_compile(&ka, &ta, false)) {
		snprintf(why, sizeof(why), "A does not compile: %s", ka.error[0] ? ka.error : rung_error_last());
		say(json, "FAILED", why);
		code = RUNG_EXIT_FAIL;
		goto done;
	}
	if (rung_task_compile(&kb, &tb, false)) {
		snprintf(why, sizeof(why), "B does not compile: %s", kb.error[0] ? kb.error : rung_error_last());
		say(json, "FAILED", why);
		code = RUNG_EXIT_FAIL;
		goto done;
	}
	if (rung_worker_open(&w, NULL)) {
		code = RUNG_EXIT_INTERNAL;
		goto done;
	}
	if (rung_compare_versions(&ab, w, ta.spec, ta.kernel.src, ta.kernel.path, &ka, tb.kernel.src, tb.kernel.path,
				  &kb, budget)) {
		fprintf(stderr, "rung compare: %s\n", rung_error_last());
		code = RUNG_EXIT_INTERNAL;
		goto done;
	}
	if (ab.identical) {
		say(json, "SAME", "identical machine code");
		goto done;
	}
	if (ab.failed) {
		say(json, ab.skipped ? "SKIPPED" : "FAILED", ab.reason);
		code = ab.skipped ? RUNG_EXIT_NOGPU : RUNG_EXIT_FAIL;
		goto done;
	}
	if (ab.disagree) { /* a verified launch did not match: no timing verdict */
		say_disagree(json, &ab);
		code = RUNG_EXIT_FAIL;
		goto done;
	}
	rung_compare cmp;
	if (ab.n < 2 || rung_compare_samples(&cmp, ab.a, ab.n, ab.b, ab.n, 0, 0x5eed)) {
		snprintf(why, sizeof(why), "too few samples (%d, %d dropped under 75%% of the max SM clock)", ab.n,
			 ab.dropped);
		say(json, "FAILED", why);
		code = RUNG_EXIT_FAIL;
		goto done;
	}
	if (json) {
		json_t *o = json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:i,s:i,s:s,s:s}", "verdict",
				      rung_cmp_verdict_name(cmp.verdict), "ratio", num_or_null(cmp.ratio), "lo",
				      num_or_null(cmp.lo), "hi", num_or_null(cmp.hi), "median_a", num_or_null(cmp.median_a),
				      "median_b", num_or_null(cmp.median_b), "n", ab.n, "dropped", ab.dropped, "method",
				      ab.method, "order", "alternate");
		add_verified(o, &ab);
		print_json(o);
		goto done;
	}
	printf("%s B/A=%.3f [%.3f, %.3f] A=%.3fms B=%.3fms n=%d dropped=%d verified=%d%s%s%s\n",
	       rung_cmp_verdict_name(cmp.verdict), cmp.ratio, cmp.lo, cmp.hi, cmp.median_a, cmp.median_b, ab.n,
	       ab.dropped, ab.verified, ab.sets == 1 ? " sets=1" : "", strcmp(ab.method, "cupti-activity") ? " method=" : "",
	       strcmp(ab.method, "cupti-activity") ? ab.method : "");
done:
	rung_ab_free(&ab);
	rung_worker_detach(w);
	rung_compiled_free(&ka);
	rung_compiled_free(&kb);
	rung_task_free(&ta);
	rung_task_free(&tb);
	return code;
}

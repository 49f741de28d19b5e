/* rung check [--compile-only] [--json] [--seed S] [--budget SEC] [--force]
 *            [--sanitize[=TOOLS] | --no-sanitize]
 *            [-C DIR] [--task DIR] [--spec-rev REV] [TASKDIR|FILE|REV]
 *
 * Runs the ladder for one version and prints one line per rung:
 *   [compile] ok regs=40 spills=0 stack=0 smem=8192 ptx=12.1KB cubin=9.8KB 38ms
 *   [compile] FAILED sgemm.cu:12: identifier "x" is undefined
 * The check service (app/check.h, the one the MCP server's check tool calls:
 * compile here with NVRTC, then run, check and bench in the worker) fills a
 * rung_check_result, printed by cli/check_view.c or as its one JSON object
 * (rung_check_to_json). After the rung lines, one line per
 * suspect (docs/CHECKS.md, "Evidence: suspects"), made inert:
 *   [suspect] mutable-global: mutable __device__ global 'calls' (written by the kernel): ...
 * A suspect alone never changes the exit code; --json has them as "suspects".
 *
 * A REV target (HEAD~1, a short hash, WORKTREE) is read from git
 * (rung_task_load_target); its GPU result goes into the store like `rung eval`,
 * and a re-check of the same content on the same GPU is a cache hit (lines end in
 * "(cached)") unless --force or --seed.
 *
 * --sanitize (memcheck, racecheck) or --sanitize=TOOLS, or the spec's [check]
 * sanitize, adds the sanitize rung after the others (app/evaluate.c,
 * gpu/sanitize.h): `[sanitize] ok no findings (memcheck, racecheck)`; stored
 * with the result of a version from git (a stored sanitize rung with the same
 * tools is reused). --no-sanitize turns the spec's default off. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "cli/check_view.h"
#include "cli/cli.h"
#include "cli/report.h"
#include "app/check.h"

typedef struct {
	bool compile_only, json, force;
	rung_task_where where;
	bool has_seed;
	unsigned long long seed;
	double budget_s; /* NAN: default */
	const char *target;
	rung_sanitize_sel sanitize; /* .set: --sanitize / --no-sanitize given (else the spec's [check] sanitize) */
} check_opts;

static const rung_opt_spec check_specs[] = {
	{RUNG_OPT_BOOL(check_opts, compile_only), .name = "compile-only",
	 .help = "stop after the compile rung (exit 0 or 1; no GPU needed)"},
	{RUNG_OPT_BOOL(check_opts, json), .name = "json", .help = "print one JSON object instead of the lines"},
	{RUNG_OPT_SEED(check_opts, seed), RUNG_OPT_SEEN(check_opts, has_seed), .name = "seed", .value = "S",
	 .help = "base seed for the input data (a REV target: runs again, not from the store)"},
	{RUNG_OPT_DBL(check_opts, budget_s, 0, 3600), .flags = RUNG_OPTF_GT, .name = "budget", .value = "SEC",
	 .help = "time budget for the bench rung"},
	{RUNG_OPT_BOOL(check_opts, force), .name = "force",
	 .help = "a REV target: run the GPU rungs even when the store has this content's result"},
	{RUNG_OPT_SUBTABLE(check_opts, sanitize, rung_sanitize_opt_specs)},
	{RUNG_OPT_SUBTABLE(check_opts, where, rung_vctx_opt_specs)},
	{0}};
const rung_opt_table rung_opts_check = {.cmd = "check", .args = "[TASKDIR|FILE|REV]", .max_args = 1, .opts = check_specs};

static int parse_args(check_opts *o, int argc, char **argv)
{
	memset(o, 0, sizeof(*o));
	o->budget_s = NAN;
	int rc, n;
	if (rung_opts_parse(&rc, &rung_opts_check, o, argc, argv, &n))
		return rc == RUNG_EXIT_OK ? -1 : rc;
	o->target = n ? argv[1] : NULL;
	if (o->compile_only && o->sanitize.set && o->sanitize.tools) {
		fprintf(stderr, "rung check: --sanitize runs on the GPU; it cannot go with --compile-only\n");
		return RUNG_EXIT_USAGE;
	}
	return 0;
}

int rung_cmd_check(int argc, char **argv)
{
	check_opts o;
	int rc = parse_args(&o, argc, argv);
	if (rc)
		return rc < 0 ? RUNG_EXIT_OK : rc; /* -1: --help */
	/* the one check (app/check.h), as the MCP server's check tool asks it */
	rung_check_request req = {
		.where = o.where,
		.target = o.target,
		.compile_only = o.compile_only,
		.force = o.force,
		.seed_set = o.has_seed,
		.seed = o.seed,
		.budget_s = o.budget_s,
		.sanitize_set = o.sanitize.set,
		.sanitize = o.sanitize.tools,
		.progress = rung_cli_progress,
	};
	rung_check_result c;
	rung_check(&c, &req);
	rung_cli_progress_clear();
	int exit_code = rung_check_exit(&c);
	rung_check_print_before(stderr, &c);
	if (!c.loaded) {
		if (o.json) { /* an agent reading stdout gets the error too, not nothing */
			rung_error_set(c.err, "%s", c.error);
			rung_cli_json_error(exit_code);
		}
	} else if (o.json) {
		json_t *j = rung_check_to_json(&c);
		char *s = j ? json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(17)) : NULL;
		if (s)
			puts(s);
		free(s);
		json_decref(j);
	} else {
		fflush(stdout);
		rung_check_print_lines(stdout, &c);
	}
	fflush(stdout);
	rung_check_print_after(stderr, &c);
	rung_check_result_clear(&c);
	return exit_code;
}

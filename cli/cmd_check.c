/* rung check [--compile-only] [--json] [--seed S] [--budget SEC] [--force]
 *            [--sanitize[=TOOLS] | --no-sanitize]
 *            [-C DIR] [--task DIR] [--spec-rev REV] [TASKDIR|FILE|REV]
 *
 * Runs the ladder for one version and prints one line per rung:
 *   [compile] ok regs=40 spills=0 stack=0 smem=8192 ptx=12.1KB cubin=9.8KB 38ms
 *   [compile] FAILED sgemm.cu:12: identifier "x" is undefined
 * The one evaluation (app/evaluate.h: compile here with NVRTC, then run, check
 * and bench in the worker) fills a rung_result, which is printed
 * by print_step_line() or as one JSON object. After the rung lines, one line per
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
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "core/err.h"
#include "core/inert.h"
#include "core/ptxscan.h"
#include "core/result.h"
#include "core/timing.h"
#include "gpu/compile.h"
#include "cli/cli.h"
#include "app/evaluate.h"
#include "app/suspects.h"
#include "app/task.h"
#include "vcs/store.h"

typedef struct {
	bool compile_only, json, force;
	bool both; /* hidden, for rung mcp: the lines, then the JSON object as the last line */
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
	{RUNG_OPT_BOOL(check_opts, both), .name = "lines-and-json", .flags = RUNG_OPTF_HIDDEN,
	 .help = "the lines, then the JSON object on the last line (rung mcp)"},
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

/* Bounded copy that always terminates (long mangled names are cut). */
static void copy_str(char *dst, size_t n, const char *src)
{
	size_t k = strlen(src);
	if (k >= n)
		k = n - 1;
	memcpy(dst, src, k);
	dst[k] = 0;
}

static void format_kb(char *buf, size_t len, int64_t bytes)
{
	snprintf(buf, len, "%.1fKB", (double)bytes / 1024.0);
}

/* "[compile] ok regs=40 spills=0 stack=0 smem=8192 ptx=12.1KB cubin=9.8KB 38ms" */
static void print_compile_ok(FILE *f, const rung_result *r)
{
	const rung_kinfo *k = &r->compile.kernel;
	char ptx[32], cubin[32];
	format_kb(ptx, sizeof(ptx), r->compile.ptx_bytes);
	format_kb(cubin, sizeof(cubin), r->compile.cubin_bytes);
	if (!k->valid) { /* ptxas printed no resource lines: say so, never a fake 0 */
		fprintf(f, "[compile] ok regs=n/a spills=n/a stack=n/a smem=n/a ptx=%s cubin=%s %.0fms\n", ptx, cubin,
		        r->compile.compile_ms);
		return;
	}
	fprintf(f, "[compile] ok regs=%d spills=%lld stack=%lld smem=%lld ptx=%s cubin=%s %.0fms\n", k->regs,
	        (long long)(k->spill_stores + k->spill_loads), (long long)k->stack, (long long)k->smem, ptx, cubin,
	        r->compile.compile_ms);
}

/* A GPU rung's line, with " (cached)" before the newline for a stored result
 * (not for a sanitize rung that ran now on a stored result). */
static bool print_gpu_line(const rung_result *r, const rung_spec *spec, rung_step_id s, bool sanitize_fresh)
{
	if (!r->cached || (s == RUNG_STEP_SANITIZE && sanitize_fresh))
		return rung_check_print_gpu_step(stdout, r, spec, s);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return rung_check_print_gpu_step(stdout, r, spec, s);
	bool done = rung_check_print_gpu_step(m, r, spec, s);
	fclose(m);
	if (done && len && buf[len - 1] == '\n')
		buf[--len] = 0;
	if (done)
		printf("%s (cached)\n", buf);
	free(buf);
	return done;
}

/* One line per rung: "[name] STATUS details". */
static void print_step_line(const rung_result *r, const rung_spec *spec, rung_step_id s, bool sanitize_fresh)
{
	const rung_step *st = &r->steps[s];
	if (st->status == RUNG_S_NONE)
		return;
	if (print_gpu_line(r, spec, s, sanitize_fresh))
		return;
	if (s == RUNG_STEP_COMPILE && st->status == RUNG_S_OK) {
		print_compile_ok(stdout, r);
		return;
	}

	printf("[%s] %s%s%s\n", rung_step_name(s), rung_status_name(st->status), st->reason[0] ? " " : "", st->reason);
	/* the compiler's other errors, after the first that the line names (#28 D-20) */
	if (s == RUNG_STEP_COMPILE && st->status == RUNG_S_FAILED && r->compile_log) {
		int n = rung_compile_log_nerrors(r->compile_log);
		char e[600], shown[1200];
		for (int i = 1; i < n && i <= 5; i++)
			if (rung_compile_log_error(r->compile_log, i, e, sizeof(e))) {
				rung_inert(shown, sizeof(shown), e, strlen(e)); /* the compiler quotes the source */
				printf("          %s\n", shown);
			}
		if (n > 6)
			printf("          ... %d more (rung dump writes the whole compile log)\n", n - 6);
	}
}

static json_t *kinfo_json(const rung_kinfo *k)
{
	json_t *o = json_object();
	json_object_set_new(o, "name", json_string(k->name));
	json_object_set_new(o, "regs", json_integer(k->regs));
	json_object_set_new(o, "barriers", json_integer(k->barriers));
	json_object_set_new(o, "spills", json_integer(k->spill_stores + k->spill_loads));
	json_object_set_new(o, "spill_stores", json_integer(k->spill_stores));
	json_object_set_new(o, "spill_loads", json_integer(k->spill_loads));
	json_object_set_new(o, "stack", json_integer(k->stack));
	json_object_set_new(o, "stack_frame", json_integer(k->stack_frame));
	json_object_set_new(o, "smem", json_integer(k->smem));
	return o;
}

static json_t *source_json(const rung_task_source *s, const rung_compiled *c, const char *error)
{
	json_t *o = json_object();
	json_object_set_new(o, "file", json_string(s->path ? s->path : ""));
	json_object_set_new(o, "entry", json_string(s->entry ? s->entry : ""));
	bool ok = !error || !*error;
	json_object_set_new(o, "status", json_string(ok ? "ok" : "FAILED"));
	if (ok) {
		json_object_set_new(o, "lowered", json_string(c->lowered));
		json_object_set_new(o, "resources", kinfo_json(&c->kinfo));
		json_object_set_new(o, "ptx_bytes", json_integer((json_int_t)c->ptx_len));
		json_object_set_new(o, "cubin_bytes", json_integer((json_int_t)c->cubin_len));
		json_object_set_new(o, "cached", json_boolean(c->cached));
	} else {
		json_object_set_new(o, "error", json_string(error));
	}
	json_object_set_new(o, "ms", json_real(c->ms));
	return o;
}

/* The kernel's scratch arguments at the bench shape: the spec's kind =
 * scratch ones, or those its sidecar adds ("added": the file:line). */
static json_t *scratch_json(const rung_task *t)
{
	const rung_spec *sp = t->spec;
	json_t *a = json_array();
	for (int i = 0; i < sp->nargs; i++) {
		int64_t b = 0;
		if (!sp->args[i].scratch)
			continue;
		if (rung_arg_scratch_bytes(&b, &sp->args[i], &sp->dims, sp->path) < 0)
			rung_error_clear();
		json_array_append_new(a, json_pack("{s:s,s:I}", "name", sp->args[i].name, "bytes", (json_int_t)b));
	}
	for (int k = 0; !sp->nscratch && k < t->launch.nscratch; k++) {
		const rung_launch_scratch *x = &t->launch.scratch[k];
		int64_t b = 0;
		if (rung_launch_scratch_bytes(&b, &t->launch, k, &sp->dims) < 0)
			rung_error_clear();
		char from[600];
		snprintf(from, sizeof(from), "%s:%d", t->launch.sidecar, x->line);
		json_array_append_new(a, json_pack("{s:s,s:I,s:I,s:s,s:s}", "name", x->name, "bytes", (json_int_t)b,
						   "per_program", (json_int_t)x->per_program, "key", x->key, "added", from));
	}
	return a;
}

/* "[scratch] global_scratch 512 B per program x 128 = 65536 B, profile_scratch
 * null; added after [arg n] from t/k.json (the spec declares no kind = scratch)":
 * what the sidecar added, so that the person sees it. Nothing otherwise. */
static void print_scratch(const rung_task *t)
{
	const rung_spec *sp = t->spec;
	if (sp->nscratch || !t->launch.nscratch)
		return;
	printf("[scratch]");
	for (int k = 0; k < t->launch.nscratch; k++) {
		const rung_launch_scratch *x = &t->launch.scratch[k];
		int64_t b = 0;
		if (rung_launch_scratch_bytes(&b, &t->launch, k, &sp->dims) < 0)
			rung_error_clear();
		if (x->per_program > 0)
			printf("%s %s %lld bytes (%lld per program)", k ? "," : "", x->name, (long long)b,
			       (long long)x->per_program);
		else
			printf("%s %s null", k ? "," : "", x->name);
	}
	char from[600];
	rung_inert(from, sizeof(from), t->launch.sidecar, strlen(t->launch.sidecar));
	printf("; added after [arg %s] from %s (the spec declares no kind = scratch)\n", sp->args[sp->nargs - 1].name, from);
}

static void print_json(const rung_result *r, const rung_task *t, const rung_compiled *kc, const rung_compiled *rc,
                       const char *ref_error)
{
	json_t *o = json_object();
	json_object_set_new(o, "task", json_string(t->spec->name ? t->spec->name : ""));
	json_object_set_new(o, "dir", json_string(t->dir));
	json_object_set_new(o, "arch", json_string(t->arch));
	if (t->rev[0]) { /* a version read from git */
		json_object_set_new(o, "rev", json_string(t->rev));
		json_object_set_new(o, "cached", json_boolean(r->cached));
	}
	json_object_set_new(o, "status", json_string(rung_status_name(rung_result_status(r))));
	json_t *steps = json_object();
	for (int s = 0; s < RUNG_NSTEPS; s++) {
		const rung_step *st = &r->steps[s];
		if (st->status == RUNG_S_NONE)
			continue;
		json_t *j = json_object();
		json_object_set_new(j, "status", json_string(rung_status_name(st->status)));
		if (st->reason[0])
			json_object_set_new(j, "reason", json_string(st->reason));
		if (isfinite(st->wall_ms))
			json_object_set_new(j, "ms", json_real(st->wall_ms));
		json_object_set_new(steps, rung_step_name((rung_step_id)s), j);
	}
	json_object_set_new(o, "steps", steps);
	json_t *sus = json_array(); /* evidence, also with --compile-only (docs/CHECKS.md) */
	for (int k = 0; k < r->nsuspects; k++)
		json_array_append_new(sus, json_pack("{s:s,s:s}", "kind", rung_suspect_name(r->suspects[k].kind), "reason",
						     r->suspects[k].reason));
	json_object_set_new(o, "suspects", sus);
	if (r->steps[RUNG_STEP_RUN].status != RUNG_S_NONE) {
		/* GPU rungs ran (or were skipped): the full record (docs/ARCHITECTURE.md). */
		char *rj = rung_result_to_json(r);
		json_t *rec = rj ? json_loads(rj, 0, NULL) : NULL;
		free(rj);
		if (rec)
			json_object_set_new(o, "result", rec);
		char seed[32];
		snprintf(seed, sizeof(seed), "%llu", (unsigned long long)r->base_seed);
		json_object_set_new(o, "seed", json_string(seed));
	}
	const char *kerr = r->steps[RUNG_STEP_COMPILE].status == RUNG_S_OK ? NULL : r->steps[RUNG_STEP_COMPILE].reason;
	json_object_set_new(o, "kernel", source_json(&t->kernel, kc, kerr));
	if (t->reference.src)
		json_object_set_new(o, "reference", source_json(&t->reference, rc, ref_error));
	json_t *launch = json_object();
	json_object_set_new(launch, "from_source", json_boolean(t->launch_from_source));
	json_object_set_new(launch, "file", json_string(t->launch.file));
	if (t->sidecar_path)
		json_object_set_new(launch, "sidecar", json_string(t->sidecar_path));
	rung_geom g;
	if (rung_launch_eval(&g, &t->launch, &t->spec->dims) == 0) { /* at the bench shape */
		json_object_set_new(launch, "grid", json_pack("[III]", (json_int_t)g.grid[0], (json_int_t)g.grid[1],
							      (json_int_t)g.grid[2]));
		json_object_set_new(launch, "block", json_pack("[III]", (json_int_t)g.block[0], (json_int_t)g.block[1],
							       (json_int_t)g.block[2]));
		json_object_set_new(launch, "smem", json_integer((json_int_t)g.smem));
	} else {
		rung_error_clear();
	}
	json_object_set_new(launch, "scratch", scratch_json(t));
	json_object_set_new(o, "launch", launch);
	char *s = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(17));
	if (s)
		puts(s);
	free(s);
	json_decref(o);
}

int rung_cmd_check(int argc, char **argv)
{
	check_opts o;
	int rc = parse_args(&o, argc, argv);
	if (rc)
		return rc < 0 ? RUNG_EXIT_OK : rc; /* -1: --help */
	/* the worker starts first: its CUDA context (the longest lap of a check,
	 * docs/BENCHMARKS.md) is made while the task and the store are read and the
	 * kernel compiles; the store joins the evaluator once it is open */
	rung_evaluator ev;
	unsigned ev_flags = (o.compile_only ? RUNG_EVAL_COMPILE_ONLY : 0) | (o.force ? RUNG_EVAL_FORCE : 0);
	int opened = rung_evaluator_open(&ev, NULL, ev_flags);
	double t0 = rung_now_s();
	rung_task t;
	if ((rc = rung_cli_task_load(&t, "check", o.target, &o.where))) {
		if (opened == 0)
			rung_evaluator_detach(&ev); /* the worker quits on its own */
		if (o.json || o.both) /* an agent reading stdout gets the error too, not nothing */
			rung_cli_json_error(rc);
		rung_task_clear(&t);
		return rc;
	}
	/* the one evaluation (app/evaluate.h): a version from git goes through
	 * the store (a re-check of the same content on the same GPU is a cache
	 * hit) unless --force or --seed; a path target is never stored */
	t0 = rung_timing_lap("task load (spec, sources, git)", t0);
	rung_store *store = NULL;
	if (t.repo && !o.compile_only && rung_store_open_repo(&store, t.repo) < 0) {
		fprintf(stderr, "rung check: %s (the result will not be stored)\n", rung_error_last());
		store = NULL;
	}
	rung_timing_lap("store open", t0);
	rung_eval_opts eo = {
		.flags = ev_flags,
		.seed = o.seed,
		.seed_set = o.has_seed,
		.budget_s = o.budget_s,
		.sanitize_set = o.sanitize.set,
		.sanitize = o.sanitize.tools,
		.progress = rung_cli_progress,
	};
	rung_result r;
	rung_result_init(&r);
	rung_compiled kc, refc;
	memset(&kc, 0, sizeof(kc));
	memset(&refc, 0, sizeof(refc));
	rung_eval_info info;
	memset(&info, 0, sizeof(info));
	int exit_code = RUNG_EXIT_OK;
	int e = opened;
	if (e == 0) {
		ev.store = store;
		ev.ceil_task = &t;
		e = rung_app_evaluate(&r, &info, &ev, &t, &eo, &kc, &refc);
	}
	rung_cli_progress_clear();
	if (e == 0 && info.reference_failed) {
		/* the task itself is broken: said on stderr, not as a rung of the kernel's
		 * (also when the kernel failed too, as both do on the spec's arch or options) */
		r.steps[RUNG_STEP_RUN].status = RUNG_S_NONE;
		r.steps[RUNG_STEP_RUN].reason[0] = 0;
	}
	if (e < 0) {
		fprintf(stderr, "rung check: %s\n", rung_error_last());
		exit_code = RUNG_EXIT_INTERNAL;
	} else if (r.steps[RUNG_STEP_COMPILE].status != RUNG_S_OK) {
		exit_code = RUNG_EXIT_FAIL;
	} else if (info.reference_failed) {
		exit_code = RUNG_EXIT_SPEC;
	} else if (!o.compile_only) {
		exit_code = rung_gpu_exit_code(&r, RUNG_STEP_BENCH);
		if (exit_code == RUNG_EXIT_OK && rung_eval_sanitize_tools(&eo, &t))
			exit_code = rung_sanitize_exit_code(&r);
	}
	if (info.store_error[0])
		fprintf(stderr, "rung check: %s (the result was not stored)\n", info.store_error);
	bool sanitize_fresh = info.sanitize_fresh || !info.cached;
	char ref_error[512];
	copy_str(ref_error, sizeof(ref_error), info.reference_error);
	int spec_rc = info.reference_failed ? RUNG_EXIT_SPEC : 0;
	/* the verdict first: the worker's CUDA teardown happens after it, unwaited */
	if (o.json) {
		print_json(&r, &t, &kc, &refc, ref_error);
	} else {
		fflush(stdout);
		for (int s = 0; s < RUNG_NSTEPS; s++) {
			print_step_line(&r, t.spec, (rung_step_id)s, sanitize_fresh);
			if (s == RUNG_STEP_COMPILE) /* what the sidecar added (the parameter count is checked with it) */
				print_scratch(&t);
		}
		rung_suspects_print(stdout, &r, "[suspect] "); /* evidence: the exit code is the rungs' */
		rung_check_print_output(stdout, &r); /* never raw */
		if (r.noop_of[0])
			printf("[no-op] same machine code, launch, spec and reference as %.7s: its verdict and timing"
			       " (rung check --force measures this version)\n", r.noop_of);
		if (o.both)
			print_json(&r, &t, &kc, &refc, ref_error);
	}
	fflush(stdout);
	rung_evaluator_detach(&ev);
	rung_store_close(store);
	if (spec_rc && refc.spec_error) { /* the spec's arch or options: the kernel failed so too */
		fprintf(stderr, "rung check: %s\n", ref_error);
		exit_code = spec_rc;
	} else if (spec_rc) {
		fprintf(stderr, "rung check: the reference %s does not compile: %s\n", t.reference.path, ref_error);
		exit_code = spec_rc;
	} else if (kc.spec_error) {
		exit_code = RUNG_EXIT_SPEC;
	}
	rung_compiled_clear(&kc);
	rung_compiled_clear(&refc);
	rung_result_clear(&r);
	rung_task_clear(&t);
	return exit_code;
}

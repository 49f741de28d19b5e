/* rung check [--compile-only] [--json] [--seed S] [--budget SEC] [--force]
 *            [--sanitize[=TOOLS] | --no-sanitize]
 *            [-C DIR] [--task DIR] [--spec-rev REV] [TASKDIR|FILE|REV]
 *
 * Runs the ladder for one version and prints one line per rung:
 *   [compile] ok regs=40 spills=0 stack=0 smem=8192 ptx=12.1KB cubin=9.8KB 38ms
 *   [compile] FAILED sgemm.cu:12: identifier "x" is undefined
 * The compile rung runs here (NVRTC, no GPU). The GPU rungs (run, check, bench) are
 * filled in by run_gpu_steps(); results are collected in a rung_result, then printed
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
 * sanitize, adds the sanitize rung after the others (tui/check_gpu.c,
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
#include "core/ptxscan.h"
#include "core/result.h"
#include "gpu/compile.h"
#include "tui/cli.h"
#include "tui/check_gpu.h"
#include "tui/suspects.h"
#include "tui/task_load.h"
#include "vcs/store.h"

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

/* Bounded copy that always terminates (long mangled names are cut). */
static void copy_str(char *dst, size_t n, const char *src)
{
	size_t k = strlen(src);
	if (k >= n)
		k = n - 1;
	memcpy(dst, src, k);
	dst[k] = 0;
}

static void set_step(rung_result *r, rung_step_id s, rung_status st, double ms, const char *reason)
{
	r->steps[s].status = st;
	r->steps[s].wall_ms = ms;
	copy_str(r->steps[s].reason, sizeof(r->steps[s].reason), reason ? reason : "");
}

/* Compiles kernel and reference into the result's compile rung. Returns 0, or
 * RUNG_EXIT_SPEC when the reference does not compile (the task itself is broken;
 * the message is in ref_error). */
/* The reference compiles on its own thread while the kernel compiles (NVRTC is
 * thread-safe per program); the error text is captured on that thread. */
typedef struct {
	const rung_task *t;
	rung_compiled *out;
	int rc;
	char error[512];
	pthread_t thread;
	bool started;
} ref_compile;

static void *compile_ref(void *arg)
{
	ref_compile *j = arg;
	j->rc = rung_task_compile(j->out, j->t, true);
	if (j->rc)
		copy_str(j->error, sizeof(j->error), j->out->error[0] ? j->out->error : rung_error_last());
	return NULL;
}

static int run_compile_step(rung_result *r, const rung_task *t, rung_compiled *kc, rung_compiled *rc, char *ref_error,
                            size_t ref_error_len)
{
	copy_str(r->compile.arch, sizeof(r->compile.arch), t->arch);
	ref_compile refjob = {.t = t, .out = rc};
	ref_compile *ref = &refjob;
	if (t->reference.src)
		ref->started = pthread_create(&ref->thread, NULL, compile_ref, ref) == 0;
	int k = rung_task_compile(kc, t, false);
	if (k == 0) {
		r->compile.kernel = kc->kinfo;
		r->compile.ptx_bytes = (int64_t)kc->ptx_len;
		r->compile.cubin_bytes = (int64_t)kc->cubin_len;
		r->compile.compile_ms = kc->ms;
		copy_str(r->compile.lowered_name, sizeof(r->compile.lowered_name), kc->lowered);
		set_step(r, RUNG_STEP_COMPILE, RUNG_S_OK, kc->ms, NULL);
		if (rung_ptxscan_result(r, kc->ptx, kc->ptx_len) < 0) /* evidence in the PTX */
			rung_error_clear();
	} else {
		set_step(r, RUNG_STEP_COMPILE, RUNG_S_FAILED, kc->ms, kc->error[0] ? kc->error : rung_error_last());
	}
	free(r->compile_log);
	r->compile_log = kc->log ? strdup(kc->log) : NULL;

	ref_error[0] = 0;
	if (!t->reference.src)
		return 0;
	if (ref->started)
		pthread_join(ref->thread, NULL);
	else
		compile_ref(ref);
	if (ref->rc == 0) {
		r->compile.reference = rc->kinfo;
		return 0;
	}
	copy_str(ref_error, ref_error_len, ref->error);
	return RUNG_EXIT_SPEC;
}

/* The GPU rungs through the worker (tui/check_gpu.c). */
static int run_gpu_steps(rung_result *r, rung_worker *w, const rung_task *t, const check_opts *o,
                         const rung_compiled *kc, const rung_compiled *rc)
{
	return rung_check_gpu_with(r, w, t, kc, rc, o->seed, o->has_seed, o->budget_s);
}

/* The GPU rungs of a version from git, through the store: the same content on the
 * same GPU is a cache hit (r replaced by the stored result, r->cached set) unless
 * --force or --seed; a fresh GPU result is stored and linked to the commit. No GPU:
 * the rungs are SKIPPED and nothing is stored. */
static int run_gpu_steps_stored(rung_result *r, rung_worker *w, const rung_task *t, const check_opts *o,
				const rung_compiled *kc, const rung_compiled *rc, unsigned sanitize, bool *sanitize_fresh)
{
	rung_env env;
	memset(&env, 0, sizeof(env));
	if (rung_worker_env(&env, w) < 0) {
		rung_error_clear();
		memset(&env, 0, sizeof(env));
	}
	rung_store *store = NULL;
	if (env.valid && rung_store_open_repo(&store, t->repo) < 0) {
		fprintf(stderr, "rung check: %s (the result will not be stored)\n", rung_error_last());
		store = NULL;
	}
	const char *commit = strcmp(t->rev, "WORKTREE") ? t->rev : NULL;
	char key[65];
	rung_result_key(key, t->content, env.uuid);
	int code;
	rung_result cached;
	if (store && !o->force && !o->has_seed && rung_store_get(&cached, store, key) == 0) {
		if (commit)
			rung_store_link(store, commit, key);
		rung_result_clear(r);
		*r = cached; /* moved: r owns it now */
		r->cached = true;
		/* the PTX evidence of this compile (a record stored before the scan has none) */
		if (rung_ptxscan_result(r, kc->ptx, kc->ptx_len) < 0)
			rung_error_clear();
		code = rung_gpu_exit_code(r, RUNG_STEP_BENCH);
		/* the sanitize rung of a stored result: reused when it covers the tools, else run and stored with it */
		int s = rung_check_sanitize(r, t, kc, rc, sanitize);
		*sanitize_fresh = s == 0 && sanitize;
		if (s == RUNG_EXIT_INTERNAL) {
			code = s;
		} else if (s == 0 && sanitize && r->steps[RUNG_STEP_SANITIZE].status != RUNG_S_SKIPPED &&
			   rung_store_put(store, r, t->content, commit) < 0) {
			fprintf(stderr, "rung check: %s (the sanitize rung was not stored)\n", rung_error_last());
		}
	} else {
		rung_error_clear();
		code = rung_check_gpu_with(r, w, t, kc, rc, o->seed, o->has_seed, o->budget_s);
		if (code != RUNG_EXIT_INTERNAL && rung_check_sanitize(r, t, kc, rc, sanitize) == RUNG_EXIT_INTERNAL)
			code = RUNG_EXIT_INTERNAL;
		if (store && r->steps[RUNG_STEP_RUN].status != RUNG_S_SKIPPED && code != RUNG_EXIT_INTERNAL) {
			snprintf(r->key, sizeof(r->key), "%s", key);
			if (!r->env.valid)
				r->env = env;
			if (!r->created)
				r->created = (int64_t)time(NULL);
			if (rung_store_put(store, r, t->content, commit) < 0)
				fprintf(stderr, "rung check: %s (the result was not stored)\n", rung_error_last());
		}
	}
	rung_store_close(store);
	return code;
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
	} else {
		json_object_set_new(o, "error", json_string(error));
	}
	json_object_set_new(o, "ms", json_real(c->ms));
	return o;
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
	rung_task t;
	if ((rc = rung_task_load_target(&t, "check", o.target, &o.where))) {
		if (o.json) { /* an agent reading stdout gets the error too, not nothing */
			json_t *e = json_pack("{s:s,s:i,s:s}", "status", "error", "exit", rc, "error", rung_error_last());
			char *js = e ? json_dumps(e, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
			if (js)
				puts(js);
			free(js);
			json_decref(e);
		}
		rung_task_free(&t);
		return rc;
	}
	rung_result r;
	rung_result_init(&r);
	copy_str(r.label, sizeof(r.label), t.kernel.path);
	copy_str(r.rev, sizeof(r.rev), t.rev[0] ? t.rev : t.kernel.path);

	rung_compiled kc, refc;
	memset(&kc, 0, sizeof(kc));
	memset(&refc, 0, sizeof(refc));
	char ref_error[512];
	/* The worker starts now, so that its CUDA context is created while NVRTC compiles. */
	rung_worker *w = NULL;
	if (!o.compile_only && rung_worker_open(&w, NULL) == 0)
		rung_worker_prestart(w);
	int spec_rc = run_compile_step(&r, &t, &kc, &refc, ref_error, sizeof(ref_error));
	bool compiled = r.steps[RUNG_STEP_COMPILE].status == RUNG_S_OK;
	/* No arch in the spec: compiled for sm_90 while the worker started; a device of
	 * another arch gets the version compiled again for its own. */
	char dev_arch[16] = "";
	if (compiled && !spec_rc && w && !(t.spec->arch && *t.spec->arch)) {
		rung_env env;
		if (rung_worker_env(&env, w) == 0 && env.arch[0] && strcmp(env.arch, t.arch) != 0) {
			snprintf(dev_arch, sizeof(dev_arch), "%s", env.arch);
			t.arch = dev_arch;
			rung_compiled_free(&kc);
			rung_compiled_free(&refc);
			spec_rc = run_compile_step(&r, &t, &kc, &refc, ref_error, sizeof(ref_error));
			compiled = r.steps[RUNG_STEP_COMPILE].status == RUNG_S_OK;
		}
		rung_error_clear();
	}

	int exit_code = compiled ? RUNG_EXIT_OK : RUNG_EXIT_FAIL;
	unsigned sanitize = o.sanitize.set ? o.sanitize.tools : t.spec->sanitize;
	bool sanitize_fresh = true;
	if (compiled && !spec_rc && !o.compile_only) {
		if (!w) {
			exit_code = RUNG_EXIT_INTERNAL;
		} else if (t.repo) {
			exit_code = run_gpu_steps_stored(&r, w, &t, &o, &kc, &refc, sanitize, &sanitize_fresh);
		} else {
			exit_code = run_gpu_steps(&r, w, &t, &o, &kc, &refc);
			if (exit_code != RUNG_EXIT_INTERNAL && rung_check_sanitize(&r, &t, &kc, &refc, sanitize) == RUNG_EXIT_INTERNAL)
				exit_code = RUNG_EXIT_INTERNAL;
		}
		if (exit_code == RUNG_EXIT_OK && sanitize)
			exit_code = rung_sanitize_exit_code(&r);
	}
	/* the verdict first: the worker's CUDA teardown happens after it, unwaited */
	if (o.json) {
		print_json(&r, &t, &kc, &refc, ref_error);
	} else {
		for (int s = 0; s < RUNG_NSTEPS; s++)
			print_step_line(&r, t.spec, (rung_step_id)s, sanitize_fresh);
		rung_suspects_print(stdout, &r, "[suspect] "); /* evidence: the exit code is the rungs' */
		rung_check_print_output(stdout, &r); /* never raw */
	}
	fflush(stdout);
	rung_worker_detach(w);
	if (spec_rc) {
		fprintf(stderr, "rung check: the reference %s does not compile: %s\n", t.reference.path, ref_error);
		exit_code = spec_rc;
	}
	rung_compiled_free(&kc);
	rung_compiled_free(&refc);
	rung_result_clear(&r);
	rung_task_free(&t);
	return exit_code;
}

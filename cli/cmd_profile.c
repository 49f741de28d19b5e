/* rung profile [--json] [--seed S] [--sass|--stalls|--ncu] [-C DIR] [--task DIR] [--spec-rev REV]
 *              [TASKDIR|FILE|REV]
 *
 * Collects CUPTI range-profiler counters for one version at the benchmark
 * shape (gpu/worker/profile.c): a run of its own, after run and check, never
 * timed. Prints the run/check lines and
 *   [profile] ok dram=201.3MB (1.04x the bytes it needs) flops=34.4G (1.00x) occupancy=62% sm=81% time=73.1us
 *   [profile] intensity dram=202 l2=29 l1=28.4 FLOP/B
 *   [profile] SKIPPED profiling counters not permitted (cuptiRangeProfilerEnable: ... INSUFFICIENT_PRIVILEGES ...)
 * For a version from git, the stored result of that content on this device
 * gets the counters (its bench and ideal point are kept).
 * --sass: per-PC SASS counts instead of the counters (CUPTI SASS metrics,
 * gpu/worker/sass.c), printed as the top-20 hot instructions and stored in the
 * store's profile_extra table (kind "sass"). --ncu: runs Nsight Compute
 * (--set detailed --section WarpStateStats) on this command's hidden
 * --launch-only mode (run + check, no bench: the first launch of the candidate
 * is at the benchmark shape), stores the report path (kind "ncu"), reads the
 * report back with ncu (--page details and --page source, app/profile_extra.h)
 * into kinds "ncu_sections" and "ncu_source", and prints a summary:
 *   [ncu] SOL: compute (SM) 39.04%, memory 45.29% (DRAM 2.10%, ...), duration 6.75 ms
 * exit 4 when ncu is not on PATH. --stalls: warp stall reasons per PC from
 * CUPTI PC sampling (gpu/worker/sass.c), printed as the top reasons (bars)
 * and the 12 lines with the most samples, stored as kind "stall"
 * (core/stall.h); RUNG_PCSAMP_PERIOD=N samples every 2^N cycles.
 * Exit: 0 (profiled, or counters not permitted), 1 a rung failed, 2 usage,
 * 3 spec, 4 no GPU, 5 internal. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "core/err.h"
#include "core/expr.h"
#include "core/fs.h"
#include "core/profile.h"
#include "core/result.h"
#include "gpu/compile.h"
#include "gpu/children.h"
#include "gpu/worker.h"
#include "app/evaluate.h"
#include "app/profile_extra.h"
#include "cli/cli.h"
#include "app/task.h"
#include "vcs/store.h"
#include "core/sass_prof.h"
#include "core/stall.h"

/* [roofline] flops / bytes at the benchmark shape (NAN when absent). */
static void needs(double *flops, double *bytes, const rung_spec *spec)
{
	int64_t v;
	*flops = *bytes = NAN;
	if (spec->flops.text && rung_expr_eval(&v, spec->flops.text, &spec->dims) == 0)
		*flops = (double)v;
	if (spec->bytes.text && rung_expr_eval(&v, spec->bytes.text, &spec->dims) == 0)
		*bytes = (double)v;
	rung_error_clear();
}

/* Puts the counters (and the profile rung) into the stored result of this
 * content on this device. Returns 1 stored, 0 nothing to update, <0 error. */
static int store_counters(const rung_task *t, const rung_result *r)
{
	if (!t->repo || !t->content[0] || !r->env.valid || !r->ncounters)
		return 0;
	rung_store *st = NULL;
	if (rung_store_open_repo(&st, t->repo) < 0)
		return -1;
	char key[65];
	rung_result_key(key, t->content, r->env.uuid);
	rung_result stored;
	int ret = 0;
	if (rung_store_get(&stored, st, key) == 0) {
		free(stored.counters);
		stored.counters = malloc((size_t)r->ncounters * sizeof(*stored.counters));
		stored.ncounters = stored.counters ? r->ncounters : 0;
		if (stored.counters)
			memcpy(stored.counters, r->counters, (size_t)r->ncounters * sizeof(*stored.counters));
		stored.steps[RUNG_STEP_PROFILE] = r->steps[RUNG_STEP_PROFILE];
		const char *commit = strcmp(t->rev, "WORKTREE") ? t->rev : NULL;
		ret = rung_store_put(st, &stored, t->content, commit) < 0 ? -1 : 1;
		rung_result_clear(&stored);
	}
	rung_error_clear();
	rung_store_close(st);
	return ret;
}

/* --sass / --stalls: the per-PC data of result.aux[kind] ("sass": the
 * hot-instruction listing; "stall": the top stall reasons and the lines with
 * the most samples), stored beside the result (app/profile_extra.h). */
static int per_pc_report(const rung_task *t, const rung_compiled *kc, const rung_result *r, bool json, int code,
			 const char *kind)
{
	const rung_step *ps = &r->steps[RUNG_STEP_PROFILE];
	bool stall = !strcmp(kind, "stall");
	const char *tag = stall ? "[stalls]" : "[sass]";
	rung_per_pc p;
	rung_per_pc_load(&p, t, r, kind);
	if (p.stored < 0)
		fprintf(stderr, "rung profile: %s (the %s were not stored)\n", p.store_error,
			stall ? "stall samples" : "SASS counts");
	if (json) {
		json_t *o = rung_per_pc_to_json(&p, kind);
		char *s = o ? json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
		if (s)
			puts(s);
		free(s);
		json_decref(o);
	} else {
		for (int s = RUNG_STEP_RUN; s <= RUNG_STEP_CHECK; s++)
			rung_check_print_gpu_step(stdout, r, t->spec, (rung_step_id)s);
		if (p.have) {
			int rc = stall ? rung_profile_print_stalls(stdout, kc, &p.stall, 12)
				       : rung_profile_print_hot(stdout, kc, &p.sass, 20);
			if (rc < 0)
				printf("%s %d PCs; no listing: %s\n", tag, stall ? p.stall.n : p.sass.n, rung_error_last());
			if (p.stored > 0)
				printf("%s %s stored with the result of %s\n", tag, stall ? "samples" : "counts",
				       t->short_rev[0] ? t->short_rev : "this version");
		} else if (ps->status != RUNG_S_NONE) {
			printf("%s %s %s\n", tag, rung_status_name(ps->status), ps->reason);
		}
	}
	if (ps->status == RUNG_S_FAILED && code == RUNG_EXIT_OK)
		code = RUNG_EXIT_FAIL;
	rung_per_pc_clear(&p);
	return code;
}

typedef struct {
	bool sass, stalls, ncu, launch_only;
	rung_gpu_run_opts run;
} profile_opts;

static const rung_opt_spec profile_specs[] = {
	{RUNG_OPT_BOOL(profile_opts, sass), .name = "sass",
	 .help = "per-instruction SASS counts instead of the counters (the top 20 hot instructions)"},
	{RUNG_OPT_BOOL(profile_opts, stalls), .name = "stalls",
	 .help = "warp stall reasons per instruction from PC sampling (the top reasons and the lines with the most samples)"},
	{RUNG_OPT_BOOL(profile_opts, ncu), .name = "ncu",
	 .help = "an Nsight Compute report of the version (ncu on PATH)"},
	{RUNG_OPT_BOOL(profile_opts, launch_only), .name = "launch-only", .flags = RUNG_OPTF_HIDDEN,
	 .help = "what --ncu runs under ncu: run and check, no bench"},
	{RUNG_OPT_SUBTABLE(profile_opts, run, rung_gpu_run_opt_specs)},
	{0}};
const rung_opt_table rung_opts_profile = {.cmd = "profile", .args = "[TASKDIR|FILE|REV]", .max_args = 1,
					  .opts = profile_specs};

/* The summary of what --ncu read back: sections and lines, the SOL, occupancy
 * and warp-state figures, ncu's rules by type, the top stall of the source
 * page, and how many pcs agree with rung's own counts where those are stored. */
static void ncu_summary(const rung_task *t, const rung_env *env, const rung_ncu_import *im)
{
	if (im->have_details || im->have_source)
		printf("[ncu] imported %d section%s, %d SASS line%s%s\n", im->details.nsections, im->details.nsections == 1 ? "" : "s",
		       im->source.nlines, im->source.nlines == 1 ? "" : "s",
		       im->stored > 0 ? " (stored with the result: the detail screen shows them, u)" : "");
	if (!im->have_details)
		printf("[ncu] sections not imported: %s\n", im->details_error);
	if (!im->have_source)
		printf("[ncu] source page not imported: %s\n", im->source_error);
	const rung_ncu_details *d = &im->details;
	char line[512];
	rung_ncu_sol_line(line, sizeof(line), d);
	if (line[0])
		printf("[ncu] SOL: %s\n", line);
	const rung_ncu_metric *ach = rung_ncu_metric_find(d, "Occupancy", "Achieved Occupancy"),
			      *th = rung_ncu_metric_find(d, "Occupancy", "Theoretical Occupancy"),
			      *regs = rung_ncu_metric_find(d, "Launch Statistics", "Registers Per Thread");
	if (ach || th)
		printf("[ncu] occupancy: achieved %s%%, theoretical %s%%%s%s%s\n", ach ? ach->value : "-", th ? th->value : "-",
		       regs ? ", " : "", regs ? regs->value : "", regs ? " registers/thread" : "");
	const rung_ncu_metric *cpi = rung_ncu_metric_find(d, "Warp State Statistics", "Warp Cycles Per Issued Instruction");
	if (cpi)
		printf("[ncu] warp state: %s cycles per issued instruction\n", cpi->value);
	int types[4] = {0};
	static const char *const tnames[4] = {"OPT", "WRN", "INF", "ERR"};
	for (int i = 0; i < d->nsections; i++)
		for (int k = 0; k < d->sections[i].nrules; k++)
			for (int n = 0; n < 4; n++)
				types[n] += !strcmp(d->sections[i].rules[k].type, tnames[n]);
	if (types[0] + types[1] + types[2] + types[3])
		printf("[ncu] rules: %d OPT, %d WRN, %d INF, %d ERR\n", types[0], types[1], types[2], types[3]);
	const rung_ncu_source *s = &im->source;
	if (im->have_source && s->nstalls) {
		int64_t tot = 0, *by = calloc((size_t)s->nstalls, sizeof(int64_t));
		for (int i = 0; by && i < s->nlines; i++)
			for (int k = 0; k < s->nstalls; k++)
				if (s->lines[i].stall && s->lines[i].stall[k] > 0)
					by[k] += s->lines[i].stall[k], tot += s->lines[i].stall[k];
		int best = -1;
		for (int k = 0; by && k < s->nstalls; k++)
			if (by[k] > 0 && (best < 0 || by[k] > by[best]))
				best = k;
		if (best >= 0)
			printf("[ncu] top stall (source page): %s, %.1f%% of %lld samples\n", s->stalls[best],
			       100.0 * (double)by[best] / (double)tot, (long long)tot);
		free(by);
	}
	rung_sass_counts sc;
	if (im->have_source && s->has_inst && rung_profile_sass_load(&sc, t->repo, t->content, env->uuid) == 0) {
		rung_ncu_agreement ag;
		rung_ncu_agree(&ag, s, &sc);
		printf("[ncu] instructions executed: %d of %d pcs agree exactly with rung's counts (rung profile --sass)\n", ag.agree,
		       ag.compared);
		rung_sass_counts_clear(&sc);
	}
	rung_error_clear();
}

/* --ncu: Nsight Compute on `rung profile --launch-only` (run + check: the
 * candidate's first launch is the benchmark shape), one report per version
 * and device under <gitdir>/rung/ncu/ (./rung-ncu/ outside git). */
/* The worker's deadline under ncu (seconds), unless RUNG_DEADLINE says otherwise. */
#define RUNG_NCU_DEADLINE "600"

static int run_ncu(const rung_task *t, const rung_compiled *kc, const char *ncu, const profile_opts *o,
		   const char *target)
{
	const rung_task_where *where = &o->run.where;
	rung_worker *w = NULL;
	rung_env env;
	memset(&env, 0, sizeof(env));
	if (rung_worker_open(&w, NULL))
		return RUNG_EXIT_INTERNAL;
	int e = rung_worker_env(&env, w);
	rung_worker_close(w);
	if (e == RUNG_ENODEV) {
		fprintf(stderr, "rung profile: %s\n", rung_error_last());
		return RUNG_EXIT_NOGPU;
	}
	char dir[4096] = "rung-ncu", name[80] = "report";
	if (t->repo) {
		rung_store *st = NULL;
		if (rung_store_open_repo(&st, t->repo) == 0) {
			snprintf(dir, sizeof(dir), "%s", rung_store_path(st));
			char *slash = strrchr(dir, '/');
			if (slash)
				snprintf(slash, sizeof(dir) - (size_t)(slash - dir), "/ncu");
			rung_store_close(st);
		}
	}
	if (t->content[0] && env.uuid[0]) {
		char key[65];
		rung_result_key(key, t->content, env.uuid);
		snprintf(name, sizeof(name), "%s", key);
	}
	mkdir(dir, 0777);
	char report[4300], self[4096], seedbuf[32];
	snprintf(report, sizeof(report), "%s/%s.ncu-rep", dir, name);
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = 0;
	snprintf(seedbuf, sizeof(seedbuf), "%llu", o->run.seed);
	const char *argv[40];
	int k = 0;
	const char *head[] = {ncu, "--clock-control", "none", "--target-processes", "all", "--kernel-name-base",
			      "mangled", "--kernel-name", kc->lowered, "--launch-count", "1", "--set", "detailed", "--section",
			      "WarpStateStats", "-f",
			      "--export", report, self[0] ? self : "rung", "profile", "--launch-only"};
	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		argv[k++] = head[i];
	if (o->run.has_seed) {
		argv[k++] = "--seed";
		argv[k++] = seedbuf;
	}
	if (where->dir) {
		argv[k++] = "-C";
		argv[k++] = where->dir;
	}
	if (where->task) {
		argv[k++] = "--task";
		argv[k++] = where->task;
	}
	if (where->spec_rev) {
		argv[k++] = "--spec-rev";
		argv[k++] = where->spec_rev;
	}
	if (target)
		argv[k++] = target;
	argv[k] = NULL;
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "rung profile: cannot start ncu\n");
		return RUNG_EXIT_INTERNAL;
	}
	if (pid == 0) {
		dup2(STDERR_FILENO, STDOUT_FILENO); /* ncu's chatter stays off our stdout */
		rung_children_unblock();
		/* ncu replays the kernel once per pass (about 40 with these sections):
		 * the worker's deadline for a launch must allow for them, or a kernel of
		 * a second is killed while it is profiled */
		if (!getenv("RUNG_DEADLINE"))
			setenv("RUNG_DEADLINE", RUNG_NCU_DEADLINE, 1);
		execv(ncu, (char *const *)argv);
		_exit(127);
	}
	rung_children_add(pid, false);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0)
		;
	rung_children_del(pid);
	struct stat sb;
	bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && stat(report, &sb) == 0;
	int stored = 0;
	rung_ncu_import im;
	memset(&im, 0, sizeof(im));
	if (ok) {
		json_t *j = json_pack("{s:s}", "report", report);
		char *txt = json_dumps(j, JSON_COMPACT);
		stored = rung_profile_extra_put(t, &env, "ncu", txt);
		free(txt);
		json_decref(j);
		if (rung_profile_ncu_import(&im, t, &env, ncu, report) < 0)
			fprintf(stderr, "rung profile: %s (the imported sections were not stored)\n", rung_error_last());
	}
	if (o->run.json) {
		json_t *j = json_pack("{s:s,s:s,s:b}", "status", ok ? "ok" : "FAILED", "report", ok ? report : "",
				      "stored", stored > 0);
		if (ok) {
			json_object_set_new(j, "ncu_sections", im.have_details ? rung_ncu_details_to_json(&im.details)
									       : json_pack("{s:s}", "error", im.details_error));
			json_object_set_new(j, "ncu_source_lines", json_integer(im.have_source ? im.source.nlines : 0));
			if (!im.have_source)
				json_object_set_new(j, "ncu_source_error", json_string(im.source_error));
		}
		char *s = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(17));
		if (s)
			puts(s);
		free(s);
		json_decref(j);
	} else if (ok) {
		printf("[ncu] report %s%s\n", report, stored > 0 ? " (path stored with the result)" : "");
		ncu_summary(t, &env, &im);
	} else {
		printf("[ncu] FAILED ncu exited with status %d (its output is above)\n",
		       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	}
	rung_ncu_import_clear(&im);
	return ok ? RUNG_EXIT_OK : RUNG_EXIT_FAIL;
}

int rung_cmd_profile(int argc, char **argv)
{
	profile_opts po = {0};
	int rc, nargs;
	if (rung_opts_parse(&rc, &rung_opts_profile, &po, argc, argv, &nargs))
		return rc;
	const char *target = nargs ? argv[1] : NULL;
	bool json = po.run.json, sass = po.sass, stalls = po.stalls, ncu = po.ncu, launch_only = po.launch_only;
	char ncu_path[4096];
	if (ncu && !rung_fs_which(ncu_path, sizeof(ncu_path), "ncu", NULL)) {
		fprintf(stderr, "rung profile: ncu not found on PATH (install Nsight Compute, or add its directory to PATH)\n");
		return RUNG_EXIT_NOGPU;
	}
	if ((int)sass + (int)stalls + (int)ncu > 1) {
		fprintf(stderr, "rung profile: --sass, --stalls and --ncu are separate runs; give one of them\n");
		return RUNG_EXIT_USAGE;
	}
	rung_task t;
	rc = rung_cli_task_load(&t, "profile", target, &po.run.where);
	if (rc) {
		if (json) /* as rung check --json: the error on stdout too (#28 D-18) */
			rung_cli_json_error(rc);
		rung_task_clear(&t);
		return rc;
	}
	rung_compiled kc, refc;
	memset(&kc, 0, sizeof(kc));
	memset(&refc, 0, sizeof(refc));
	int code = RUNG_EXIT_OK;
	rung_result r;
	rung_result_init(&r);
	if (ncu) {
		if ((code = rung_cli_compile_both(&kc, &refc, &t, "profile")))
			goto done;
		code = run_ncu(&t, &kc, ncu_path, &po, target);
		goto done;
	}
	rung_eval_opts eo = {
		.job_flags = launch_only ? RUNG_JOB_NO_BENCH
			     : sass	 ? RUNG_JOB_PROFILE | RUNG_JOB_SASS
			     : stalls	 ? RUNG_JOB_PROFILE | RUNG_JOB_STALLS
					 : RUNG_JOB_PROFILE,
		.seed = po.run.seed,
		.seed_set = po.run.has_seed,
		.sanitize_set = true, /* no sanitize rung in a profiling run */
		.progress = launch_only ? NULL : rung_cli_progress,
	};
	if ((code = rung_cli_evaluate(&r, &t, &eo, &kc, &refc, "profile")))
		goto done;
	code = rung_gpu_exit_code(&r, RUNG_STEP_CHECK);
	const rung_step *ps = &r.steps[RUNG_STEP_PROFILE];
	if (ps->status == RUNG_S_FAILED && code == RUNG_EXIT_OK)
		code = RUNG_EXIT_FAIL;
	if (launch_only) { /* under ncu: the run and check lines only */
		for (int s = RUNG_STEP_RUN; s <= RUNG_STEP_CHECK; s++)
			rung_check_print_gpu_step(stdout, &r, t.spec, (rung_step_id)s);
		goto done;
	}
	if (sass || stalls) {
		code = per_pc_report(&t, &kc, &r, json, code, sass ? "sass" : "stall");
		goto done;
	}
	int stored = ps->status == RUNG_S_OK ? store_counters(&t, &r) : 0;
	if (stored < 0)
		fprintf(stderr, "rung profile: %s (the counters were not stored)\n", rung_error_last());
	double nf, nb;
	needs(&nf, &nb, t.spec);
	if (json) {
		char *rj = rung_result_to_json(&r);
		/* the profile rung did not run because an earlier one could not (no GPU): say that */
		const rung_step *why = rung_result_step_or_cause(&r, RUNG_STEP_PROFILE);
		json_t *o = json_pack("{s:s,s:s,s:b}", "status", rung_status_name(why->status), "reason", why->reason,
				      "stored", stored > 0);
		json_t *rec = rj ? json_loads(rj, 0, NULL) : NULL;
		if (rec)
			json_object_set_new(o, "result", rec);
		char *s = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(17));
		if (s)
			puts(s);
		free(s);
		free(rj);
		json_decref(o);
	} else {
		for (int s = RUNG_STEP_RUN; s <= RUNG_STEP_CHECK; s++)
			rung_check_print_gpu_step(stdout, &r, t.spec, (rung_step_id)s);
		if (ps->status == RUNG_S_OK) {
			char line[1024];
			rung_profile_summary(line, sizeof(line), &r, nf, nb);
			printf("[profile] %s\n", line);
			rung_profile_intensity_line(line, sizeof(line), &r);
			if (line[0])
				printf("[profile] intensity %s\n", line);
			if (ps->reason[0])
				printf("[profile] note: %s\n", ps->reason);
			if (stored > 0)
				printf("[profile] counters stored with the result of %s\n", t.short_rev[0] ? t.short_rev : "this version");
		} else if (ps->status != RUNG_S_NONE) {
			printf("[profile] %s %s\n", rung_status_name(ps->status), ps->reason);
		}
	}
done:
	rung_result_clear(&r);
	rung_compiled_clear(&kc);
	rung_compiled_clear(&refc);
	rung_task_clear(&t);
	return code;
}

/* The sanitize rung (gpu/sanitize.h): a worker under compute-sanitizer per
 * tool, its --log-file parsed by core/sanitize.c. */
#include "gpu/sanitize.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/err.h"
#include "core/fs.h"
#include "core/fs.h"
#include "core/timing.h"
#include "gpu/children.h"
#include "gpu/worker_internal.h"

#define LOG_MAX (16u << 20) /* the part of a report that is read */
#define FINISH_GRACE_MS 60000 /* for the sanitizer to write its summary after the worker quits */

static void sfmt(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void sfmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

bool rung_sanitizer_find(char *buf, size_t len)
{
	if (!len)
		return false;
	const char *env = getenv("RUNG_COMPUTE_SANITIZER");
	if (env && *env) {
		if (!strcmp(env, "none") || strlen(env) >= len || !rung_fs_is_exec(env))
			return false;
		sfmt(buf, len, "%s", env);
		return true;
	}
	const char *home = getenv("CUDA_HOME");
	char dir[4096] = "";
	if (home && *home)
		sfmt(dir, sizeof(dir), "%s/bin", home);
	const char *extra[] = {dir, "/usr/local/cuda/bin", NULL};
	return rung_fs_which(buf, len, "compute-sanitizer", extra);
}

int rung_sanitize_argv(const char **argv, int max, char *store, size_t storelen, const char *sanitizer,
		       rung_san_tool tool, const char *log_path, int print_limit)
{
	if ((unsigned)tool >= RUNG_NSAN_TOOLS || !sanitizer || !*sanitizer || !log_path || !*log_path ||
	    strchr(log_path, '%') || max < 10 || storelen < 12)
		return -1;
	sfmt(store, storelen, "%d", print_limit > 0 ? print_limit : 1);
	int k = 0;
	argv[k++] = sanitizer;
	argv[k++] = "--tool";
	argv[k++] = rung_san_tool_name(tool);
	argv[k++] = "--target-processes";
	argv[k++] = "all";
	argv[k++] = "--log-file";
	argv[k++] = log_path;
	argv[k++] = "--print-limit";
	argv[k++] = store;
	argv[k] = NULL;
	return k;
}

/* A private, empty log file: "$TMPDIR/rung-sanitize-XXXXXX" (mode 0600), or
 * under /tmp when $TMPDIR is unusable or holds '%'. */
static int make_log(char *path, size_t len)
{
	const char *dirs[] = {getenv("TMPDIR"), "/tmp"};
	for (int i = 0; i < 2; i++) {
		const char *d = dirs[i];
		if (!d || !*d || strchr(d, '%') || strlen(d) + 32 > len)
			continue;
		sfmt(path, len, "%s/rung-sanitize-XXXXXX", d);
		int fd = mkstemp(path);
		if (fd >= 0) {
			close(fd);
			rung_tmp_add(path); /* removed on a signal too (cli/signals.c) */
			return 0;
		}
	}
	return rung_error_set(RUNG_EIO, "sanitize: cannot create a log file in $TMPDIR or /tmp: %s", strerror(errno));
}

static void drop_log(const char *path)
{
	unlink(path);
	rung_tmp_del(path);
}

/* Progress of the sanitized job, as the sanitize rung's. */
typedef struct {
	rung_progress_fn cb;
	void *ud;
	const char *tool, *shape;
	int index, count;
} san_progress;

static void wrap_progress(void *ud, rung_step_id step, double frac, const char *msg)
{
	san_progress *p = ud;
	(void)step;
	if (!p->cb)
		return;
	double f = isfinite(frac) && frac >= 0 && frac <= 1 ? frac : 0;
	char m[256];
	sfmt(m, sizeof(m), "%s %d/%d%s: %s", p->tool, p->index + 1, p->count, p->shape ? p->shape : "", msg ? msg : "");
	p->cb(p->ud, RUNG_STEP_SANITIZE, (p->index + f) / p->count, m);
}

/* Why the job under the sanitizer did not go through its cases, or "". The
 * run at the benchmark shape (bench) has no reference and so no metric. */
static void job_stopped(char *buf, size_t len, const rung_result *r, bool bench)
{
	buf[0] = 0;
	for (int s = RUNG_STEP_RUN; s <= RUNG_STEP_CHECK; s++)
		if (r->steps[s].status == RUNG_S_FAILED) {
			sfmt(buf, len, "%s: %s", rung_step_name((rung_step_id)s), r->steps[s].reason);
			return;
		}
	if (r->nmetrics == 0 && !bench)
		sfmt(buf, len, "no case ran to the end");
}

static void skip(rung_result *out, const char *why)
{
	out->steps[RUNG_STEP_SANITIZE].status = RUNG_S_SKIPPED;
	sfmt(out->steps[RUNG_STEP_SANITIZE].reason, sizeof(out->steps[0].reason), "%s", why);
}

double rung_sanitize_bench_limit_s(void)
{
	const char *e = getenv("RUNG_SANITIZE_BENCH_LIMIT");
	if (e && *e) {
		char *end;
		double v = strtod(e, &end);
		if (end != e && !*end && isfinite(v) && v >= 0)
			return v;
	}
	return RUNG_SANITIZE_BENCH_LIMIT_S;
}

/* Adds rep's findings that out does not hold yet (the same tool, kind, place,
 * kernel and message: the bench-shape run repeats what the check-shape run
 * found), so that a finding is listed once. */
static void add_new_findings(rung_result *out, rung_san_report *rep, bool bench)
{
	int k = 0;
	for (int i = 0; i < rep->n; i++) {
		rung_san_finding *f = &rep->f[i];
		bool seen = false;
		for (int j = 0; j < out->nsanitize && !seen; j++) {
			const rung_san_finding *g = &out->sanitize[j];
			seen = g->tool == f->tool && g->kind == f->kind && g->where == f->where && g->line == f->line &&
			       !strcmp(g->file, f->file) && !strcmp(g->kernel, f->kernel) && !strcmp(g->message, f->message);
		}
		if (seen)
			continue;
		if (bench && f->where != RUNG_SANW_HOST) { /* found only there: said so */
			size_t m = strlen(f->message);
			const char *tail = " (at the benchmark shape)";
			if (m + strlen(tail) < sizeof(f->message))
				memcpy(f->message + m, tail, strlen(tail) + 1);
		}
		rep->f[k++] = *f;
	}
	rep->n = k;
	rung_result_sanitize_add(out, rep);
}

static bool has_candidate_finding(const rung_result *r, rung_san_tool t)
{
	for (int i = 0; i < r->nsanitize; i++)
		if (r->sanitize[i].tool == t && r->sanitize[i].where == RUNG_SANW_CANDIDATE)
			return true;
	return false;
}

/* One tool run: a worker under compute-sanitizer on the job cut to the
 * smallest check shape (bench false) or to the benchmark shape (bench true,
 * deadline the cost limit). Its findings go into out; *incomplete gets why
 * its report cannot be trusted (check shape; a bench-shape run killed at the
 * limit sets *over instead). *skipped: no GPU (out's step SKIPPED, reason
 * set). *same: the check-shape run ran at the benchmark shape already.
 * Returns 0 or negative (rung's own failure). */
typedef struct {
	const char *sanitizer;
	const rung_job *job;
	const rung_compiled *kernel, *ref;
	rung_result *out;
	const rung_san_names *names;
	san_progress *sp;
} tool_ctx;

static int run_tool(tool_ctx *c, rung_san_tool t, bool bench, double deadline, char *incomplete, size_t inclen,
		    double *ms, bool *over, bool *skipped, bool *same)
{
	rung_result *out = c->out;
	const char *tool = rung_san_tool_name(t);
	double t0 = rung_now_s();
	*over = *skipped = false;
	char log[4200];
	int ret;
	if ((ret = make_log(log, sizeof(log))) < 0)
		return ret;
	const char *argv[32];
	char limit[16];
	int nw = 0;
	const char *const *wrap = c->job->wrap;
	for (; wrap && wrap[nw] && nw < 14; nw++) /* the pool's pinning before the sanitizer */
		argv[nw] = wrap[nw];
	if ((wrap && wrap[nw]) ||
	    rung_sanitize_argv(argv + nw, 16, limit, sizeof(limit), c->sanitizer, t, log, RUNG_SANITIZE_PRINT_LIMIT) < 0) {
		drop_log(log);
		return rung_error_set(RUNG_EINVAL, "sanitize: bad command line for %s", tool);
	}
	rung_worker_opts wo = {.argv_prefix = argv, .cancel = c->job->cancel};
	rung_worker *w = NULL;
	if ((ret = rung_worker_open(&w, &wo)) < 0) {
		drop_log(log);
		return ret;
	}
	const rung_job *job = c->job;
	rung_job sj = *job;
	sj.flags = (job->flags & ~(unsigned)(RUNG_JOB_PROFILE | RUNG_JOB_SASS | RUNG_JOB_STALLS | RUNG_JOB_TRACE |
					    RUNG_JOB_SANITIZE_BENCH)) |
		   RUNG_JOB_SANITIZE | RUNG_JOB_NO_BENCH | (bench ? RUNG_JOB_SANITIZE_BENCH : 0);
	sj.deadline_s = deadline;
	sj.seed = out->base_seed;
	sj.seed_set = out->base_seed != 0;
	rung_result tmp;
	rung_result_init(&tmp);
	tmp.steps[RUNG_STEP_COMPILE] = out->steps[RUNG_STEP_COMPILE];
	tmp.base_seed = out->base_seed;
	c->sp->tool = tool;
	c->sp->shape = bench ? " at the benchmark shape" : "";
	wrap_progress(c->sp, RUNG_STEP_RUN, 0, "starting compute-sanitizer");
	int e = rung_evaluate_gpu(&tmp, w, &sj, c->kernel, c->ref, wrap_progress, c->sp);
	int st = rung_worker_finish(w, FINISH_GRACE_MS);
	bool nodev = w->nodev, killed = w->deadline_hit;
	char nodev_reason[512];
	sfmt(nodev_reason, sizeof(nodev_reason), "%s", w->nodev_reason);
	rung_worker_close(w);
	size_t len = 0;
	char *text = NULL;
	rung_fs_read_head(&text, &len, log, LOG_MAX); /* NULL when the sanitizer wrote none */
	drop_log(log);
	*ms = (rung_now_s() - t0) * 1000;
	if (e == 0 && job->cancel && *job->cancel) { /* its worker was killed: no report to judge */
		free(text);
		rung_result_clear(&tmp);
		return rung_error_set(RUNG_ETIMEOUT, "cancelled");
	}
	if (e < 0) {
		free(text);
		rung_result_clear(&tmp);
		return e;
	}
	if (nodev || tmp.steps[RUNG_STEP_RUN].status == RUNG_S_SKIPPED) {
		skip(out, nodev ? nodev_reason : tmp.steps[RUNG_STEP_RUN].reason);
		*skipped = true;
		free(text);
		rung_result_clear(&tmp);
		return 0;
	}
	if (!bench && same) { /* the shape it ran: the benchmark shape too? */
		char a[256] = "", b[256] = "";
		*same = false;
		if (tmp.nmetrics > 0 && job->spec) {
			rung_dimset_format(a, sizeof(a), &tmp.metrics[0].dims);
			rung_dimset_format(b, sizeof(b), &job->spec->dims);
			*same = !strcmp(a, b);
		}
	}
	rung_san_report *rep = malloc(sizeof(*rep));
	if (!rep) {
		free(text);
		rung_result_clear(&tmp);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	rung_san_parse(rep, t, text, len, c->names);
	free(text);
	add_new_findings(out, rep, bench);
	char why[400];
	job_stopped(why, sizeof(why), &tmp, bench);
	if (bench && killed && !rep->tool_error[0]) {
		*over = true; /* past the cost limit: what it found so far is kept, the rest not covered */
	} else if (!incomplete[0]) {
		const char *where = bench ? " at the benchmark shape" : "";
		if (rep->tool_error[0]) {
			sfmt(incomplete, inclen, "%s%s: compute-sanitizer failed: %s", tool, where, rep->tool_error);
		} else if (!rep->have_summary) {
			char ex[256] = "";
			if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 127)
				sfmt(ex, sizeof(ex), "it could not be started");
			else if (st != -1 && WIFEXITED(st))
				sfmt(ex, sizeof(ex), "exit status %d", WEXITSTATUS(st));
			else if (st != -1 && WIFSIGNALED(st))
				sfmt(ex, sizeof(ex), "killed by signal %d", WTERMSIG(st));
			sfmt(incomplete, inclen, "%s%s: no report (compute-sanitizer ended without its summary%s%s%s%s)", tool,
			     where, ex[0] ? ": " : "", ex, why[0] ? "; " : "", why);
		} else if (why[0]) {
			sfmt(incomplete, inclen, "%s%s: the sanitized run stopped (%s)", tool, where, why);
		}
	}
	free(rep);
	rung_result_clear(&tmp);
	return 0;
}

int rung_sanitize_version(rung_result *out, const rung_job *job, const rung_compiled *kernel,
			  const rung_compiled *ref, unsigned tools, rung_progress_fn cb, void *ud)
{
	if (!out || !job || !job->spec || !kernel)
		return rung_error_set(RUNG_EINVAL, "rung_sanitize_version: result, job, spec and kernel are required");
	tools &= RUNG_SAN_ALL;
	if (!tools)
		return 0;
	double t0 = rung_now_s();
	/* an earlier run's findings of the other tools stay (a stored result) */
	rung_status before = out->steps[RUNG_STEP_SANITIZE].status;
	if (before == RUNG_S_OK || before == RUNG_S_FAILED) {
		int k = 0;
		for (int i = 0; i < out->nsanitize; i++)
			if (!(tools & RUNG_SAN_BIT(out->sanitize[i].tool)))
				out->sanitize[k++] = out->sanitize[i];
		out->nsanitize = k;
		out->sanitize_tools &= ~tools;
	} else {
		out->sanitize_tools = 0;
		out->nsanitize = 0;
		memset(out->sanitize_ms, 0, sizeof(out->sanitize_ms));
		memset(out->sanitize_bench_ms, 0, sizeof(out->sanitize_bench_ms));
		memset(out->sanitize_bench, 0, sizeof(out->sanitize_bench));
	}
	for (int t = 0; t < RUNG_NSAN_TOOLS; t++)
		if (tools & RUNG_SAN_BIT(t)) {
			out->sanitize_ms[t] = out->sanitize_bench_ms[t] = 0;
			out->sanitize_bench[t] = RUNG_SANB_NONE;
		}
	out->steps[RUNG_STEP_SANITIZE].wall_ms = NAN;
	char sanitizer[4096];
	if (!rung_sanitizer_find(sanitizer, sizeof(sanitizer))) {
		out->sanitize_tools = 0;
		out->nsanitize = 0;
		const char *env = getenv("RUNG_COMPUTE_SANITIZER");
		if (env && *env && strcmp(env, "none"))
			skip(out, "compute-sanitizer not found ($RUNG_COMPUTE_SANITIZER is not an executable file)");
		else
			skip(out, RUNG_SANITIZER_NOT_FOUND);
		return 0;
	}
	const rung_spec *spec = job->spec;
	rung_san_names names = {
		.kernel = spec->entry,
		.kernel_file = job->kernel_file ? job->kernel_file : spec->kernel,
		.ref = spec->reference ? (spec->reference_entry ? spec->reference_entry : spec->entry) : NULL,
		.ref_file = spec->reference ? (job->ref_file ? job->ref_file : spec->reference) : NULL,
	};
	double deadline = RUNG_SANITIZE_DEADLINE_S;
	const char *de = getenv("RUNG_DEADLINE");
	if (de && *de) {
		char *end;
		double v = strtod(de, &end);
		if (end != de && v > 0)
			deadline = v;
	}
	double limit = rung_sanitize_bench_limit_s();
	out->sanitize_bench_limit_s = limit;
	int count = 0;
	for (int t = 0; t < RUNG_NSAN_TOOLS; t++)
		count += (tools & RUNG_SAN_BIT(t)) != 0;
	out->steps[RUNG_STEP_SANITIZE].status = RUNG_S_RUNNING;
	char incomplete[512] = "";
	int ret = 0, index = 0;
	san_progress sp = {cb, ud, "", "", 0, count};
	tool_ctx c = {sanitizer, job, kernel, ref, out, &names, &sp};
	for (int t = 0; t < RUNG_NSAN_TOOLS && !ret; t++) {
		if (!(tools & RUNG_SAN_BIT(t)))
			continue;
		sp.index = index++;
		bool over, skipped, same = false;
		double ms = 0;
		ret = run_tool(&c, (rung_san_tool)t, false, deadline, incomplete, sizeof(incomplete), &ms, &over, &skipped,
			       &same);
		if (ret < 0)
			break;
		if (skipped) {
			out->steps[RUNG_STEP_SANITIZE].wall_ms = (rung_now_s() - t0) * 1000;
			return 0;
		}
		out->sanitize_ms[t] = ms;
		/* the benchmark shape: a code path of its own must be sanitized too */
		if (same) {
			out->sanitize_bench[t] = RUNG_SANB_SAME;
		} else if (has_candidate_finding(out, (rung_san_tool)t) || incomplete[0]) {
			/* FAILED already: another run would not change the verdict */
			out->sanitize_bench[t] = RUNG_SANB_NOT_NEEDED;
		} else if (!(limit > 0)) {
			out->sanitize_bench[t] = RUNG_SANB_OFF;
		} else {
			ret = run_tool(&c, (rung_san_tool)t, true, limit, incomplete, sizeof(incomplete), &ms, &over, &skipped,
				       NULL);
			if (ret < 0)
				break;
			if (skipped) {
				out->steps[RUNG_STEP_SANITIZE].wall_ms = (rung_now_s() - t0) * 1000;
				return 0;
			}
			out->sanitize_bench_ms[t] = ms;
			out->sanitize_bench[t] = over ? RUNG_SANB_OVER : RUNG_SANB_COVERED;
		}
	}
	if (ret < 0) {
		out->steps[RUNG_STEP_SANITIZE].status = RUNG_S_FAILED;
		sfmt(out->steps[RUNG_STEP_SANITIZE].reason, sizeof(out->steps[0].reason), "%s", rung_error_last());
		return ret;
	}
	rung_result_sanitize_judge(out, incomplete);
	out->steps[RUNG_STEP_SANITIZE].wall_ms = (rung_now_s() - t0) * 1000;
	return 0;
}

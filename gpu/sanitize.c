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
	const char *tool;
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
	sfmt(m, sizeof(m), "%s %d/%d: %s", p->tool, p->index + 1, p->count, msg ? msg : "");
	p->cb(p->ud, RUNG_STEP_SANITIZE, (p->index + f) / p->count, m);
}

/* Why the job under the sanitizer did not go through its cases, or "". */
static void job_stopped(char *buf, size_t len, const rung_result *r)
{
	buf[0] = 0;
	for (int s = RUNG_STEP_RUN; s <= RUNG_STEP_CHECK; s++)
		if (r->steps[s].status == RUNG_S_FAILED) {
			sfmt(buf, len, "%s: %s", rung_step_name((rung_step_id)s), r->steps[s].reason);
			return;
		}
	if (r->nmetrics == 0)
		sfmt(buf, len, "no case ran to the end");
}

static void skip(rung_result *out, const char *why)
{
	out->steps[RUNG_STEP_SANITIZE].status = RUNG_S_SKIPPED;
	sfmt(out->steps[RUNG_STEP_SANITIZE].reason, sizeof(out->steps[0].reason), "%s", why);
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
	int count = 0;
	for (int t = 0; t < RUNG_NSAN_TOOLS; t++)
		count += (tools & RUNG_SAN_BIT(t)) != 0;
	out->steps[RUNG_STEP_SANITIZE].status = RUNG_S_RUNNING;
	char incomplete[512] = "";
	int ret = 0, index = 0;
	for (int t = 0; t < RUNG_NSAN_TOOLS && !ret; t++) {
		if (!(tools & RUNG_SAN_BIT(t)))
			continue;
		const char *tool = rung_san_tool_name((rung_san_tool)t);
		char log[4200];
		if ((ret = make_log(log, sizeof(log))) < 0)
			break;
		const char *argv[32];
		char limit[16];
		int nw = 0;
		for (; job->wrap && job->wrap[nw] && nw < 14; nw++) /* the pool's pinning before the sanitizer */
			argv[nw] = job->wrap[nw];
		if ((job->wrap && job->wrap[nw]) ||
		    rung_sanitize_argv(argv + nw, 16, limit, sizeof(limit), sanitizer, (rung_san_tool)t, log,
				       RUNG_SANITIZE_PRINT_LIMIT) < 0) {
			drop_log(log);
			ret = rung_error_set(RUNG_EINVAL, "sanitize: bad command line for %s", tool);
			break;
		}
		rung_worker_opts wo = {.argv_prefix = argv};
		rung_worker *w = NULL;
		if ((ret = rung_worker_open(&w, &wo)) < 0) {
			drop_log(log);
			break;
		}
		rung_job sj = *job;
		sj.flags = (job->flags & ~(unsigned)(RUNG_JOB_PROFILE | RUNG_JOB_SASS | RUNG_JOB_STALLS | RUNG_JOB_TRACE)) | RUNG_JOB_SANITIZE |
			   RUNG_JOB_NO_BENCH;
		sj.deadline_s = deadline;
		sj.seed = out->base_seed;
		sj.seed_set = out->base_seed != 0;
		rung_result tmp;
		rung_result_init(&tmp);
		tmp.steps[RUNG_STEP_COMPILE] = out->steps[RUNG_STEP_COMPILE];
		tmp.base_seed = out->base_seed;
		san_progress sp = {cb, ud, tool, index++, count};
		wrap_progress(&sp, RUNG_STEP_RUN, 0, "starting compute-sanitizer");
		int e = rung_evaluate_gpu(&tmp, w, &sj, kernel, ref, wrap_progress, &sp);
		int st = rung_worker_finish(w, FINISH_GRACE_MS);
		bool nodev = w->nodev;
		char nodev_reason[512];
		sfmt(nodev_reason, sizeof(nodev_reason), "%s", w->nodev_reason);
		rung_worker_close(w);
		size_t len = 0;
		char *text = NULL;
		rung_fs_read_head(&text, &len, log, LOG_MAX); /* NULL when the sanitizer wrote none */
		drop_log(log);
		if (e < 0) {
			free(text);
			rung_result_clear(&tmp);
			ret = e;
			break;
		}
		if (nodev || tmp.steps[RUNG_STEP_RUN].status == RUNG_S_SKIPPED) {
			skip(out, nodev ? nodev_reason : tmp.steps[RUNG_STEP_RUN].reason);
			free(text);
			rung_result_clear(&tmp);
			out->steps[RUNG_STEP_SANITIZE].wall_ms = (rung_now_s() - t0) * 1000;
			return 0;
		}
		rung_san_report *rep = malloc(sizeof(*rep));
		if (!rep) {
			free(text);
			rung_result_clear(&tmp);
			ret = rung_error_set(RUNG_ENOMEM, "out of memory");
			break;
		}
		rung_san_parse(rep, (rung_san_tool)t, text, len, &names);
		free(text);
		rung_result_sanitize_add(out, rep);
		if (!incomplete[0]) {
			char why[400];
			job_stopped(why, sizeof(why), &tmp);
			if (rep->tool_error[0]) {
				sfmt(incomplete, sizeof(incomplete), "%s: compute-sanitizer failed: %s", tool, rep->tool_error);
			} else if (!rep->have_summary) {
				char ex[256] = "";
				if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 127)
					sfmt(ex, sizeof(ex), "it could not be started");
				else if (st != -1 && WIFEXITED(st))
					sfmt(ex, sizeof(ex), "exit status %d", WEXITSTATUS(st));
				else if (st != -1 && WIFSIGNALED(st))
					sfmt(ex, sizeof(ex), "killed by signal %d", WTERMSIG(st));
				sfmt(incomplete, sizeof(incomplete), "%s: no report (compute-sanitizer ended without its summary%s%s%s%s)",
				     tool, ex[0] ? ": " : "", ex, why[0] ? "; " : "", why);
			} else if (why[0]) {
				sfmt(incomplete, sizeof(incomplete), "%s: the sanitized run stopped (%s)", tool, why);
			}
		}
		free(rep);
		rung_result_clear(&tmp);
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

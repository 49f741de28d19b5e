#include "tui/vcs_eval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"

double rung_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int rung_evaler_open(rung_evaler *e, rung_vctx *c, unsigned flags)
{
	memset(e, 0, sizeof(*e));
	e->c = c;
	e->flags = flags;
	e->tty = isatty(STDERR_FILENO);
	e->started = rung_now_s();
	int r = rung_worker_open(&e->w, NULL);
	if (r < 0)
		return r;
	if (!(flags & RUNG_JOB_COMPILE_ONLY) && rung_worker_env(&e->env, e->w) < 0) {
		fprintf(stderr, "rung %s: %s: GPU rungs will be SKIPPED and results not stored\n", c->cmd,
			rung_error_last());
		memset(&e->env, 0, sizeof(e->env));
	}
	return 0;
}

void rung_evaler_close(rung_evaler *e)
{
	if (e->w)
		rung_worker_close(e->w);
	e->w = NULL;
}

static void progress(void *ud, rung_step_id step, double frac, const char *msg)
{
	rung_evaler *e = ud;
	double el = rung_now_s() - e->started;
	double done = e->index + (step + (frac >= 0 && frac <= 1 ? frac : 0)) / RUNG_NSTEPS;
	if (e->tty) {
		char bar[31];
		int fill = e->total > 0 ? (int)(30 * done / e->total) : 0;
		for (int i = 0; i < 30; i++)
			bar[i] = i < fill ? '=' : i == fill ? '>' : ' ';
		bar[30] = 0;
		char eta[32] = "?";
		if (done > 0.05) {
			int s = (int)(el / done * (e->total - done));
			snprintf(eta, sizeof(eta), "%d:%02d", s / 60, s % 60);
		}
		fprintf(stderr, "\r\033[K[%s] %d/%d %s %s%s%s ETA %s", bar, e->index + 1, e->total, e->cur,
			rung_step_name(step), msg && *msg ? ": " : "", msg ? msg : "", eta);
	} else if ((int)step != e->last_step) {
		fprintf(stderr, "%s %d/%d %s %s\n", e->c->cmd, e->index + 1, e->total, e->cur, rung_step_name(step));
	}
	e->last_step = (int)step;
}

int rung_evaler_run(rung_evaler *e, const rung_version *v, rung_result *out)
{
	rung_result_init(out);
	rung_vctx *c = e->c;
	rung_source src;
	int r = rung_vtask_source(&src, &c->task, v->worktree ? "WORKTREE" : v->id, v->kernel_path);
	if (r < 0)
		return r;
	char content[65], key[65];
	rung_vtask_content(content, &c->task, &src);
	rung_result_key(key, content, e->env.valid ? e->env.uuid : "");
	const char *commit = v->worktree ? NULL : v->id;
	if (e->env.valid && c->store && rung_store_get(out, c->store, key) == 0) {
		/* same content on the same device: reuse, and remember this commit */
		if (commit)
			rung_store_link(c->store, commit, key);
		rung_source_free(&src);
		return 0;
	}
	rung_error_clear();
	e->cur = v->short_id;
	e->last_step = -1;
	rung_job job;
	memset(&job, 0, sizeof(job));
	job.spec = c->task.spec;
	job.kernel_src = src.text;
	job.kernel_file = v->kernel_path;
	job.headers = src.headers;
	job.nheaders = src.nheaders;
	job.ref_src = c->task.ref.text;
	job.ref_file = c->task.ref.path;
	job.ref_headers = c->task.ref.headers;
	job.ref_nheaders = c->task.ref.nheaders;
	job.rev = v->id;
	job.label = v->subject;
	job.flags = e->flags;
	r = rung_evaluate(out, e->w, &job, progress, e);
	if (e->tty)
		fprintf(stderr, "\r\033[K");
	if (r == 0) {
		snprintf(out->key, sizeof(out->key), "%s", key);
		if (!out->env.valid && e->env.valid)
			out->env = e->env;
		/* only live GPU results are stored: a no-GPU run has nothing to keep */
		if (e->env.valid && c->store && !(e->flags & RUNG_JOB_COMPILE_ONLY))
			r = rung_store_put(c->store, out, content, commit);
	}
	rung_source_free(&src);
	return r;
}

#include "tui/vcs_eval.h"
#include "tui/cli.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "gpu/sanitize.h"
#include "tui/check_gpu.h"
#include "vcs/ceil_store.h"

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
	e->have_ceilings = rung_store_guard_ceilings(&e->ceilings, c->store, &e->env) != NULL;
	return 0;
}

static const rung_ceilings *evaler_ceilings(const rung_evaler *e)
{
	return e->have_ceilings ? &e->ceilings : NULL;
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
		fprintf(rung_cli_tty_stderr(), "\r\033[K[%s] %d/%d %s %s%s%s ETA %s", bar, e->index + 1, e->total, e->cur,
			rung_step_name(step), msg && *msg ? ": " : "", msg ? msg : "", eta);
	} else if ((int)step != e->last_step) {
		fprintf(stderr, "%s %d/%d %s %s\n", e->c->cmd, e->index + 1, e->total, e->cur, rung_step_name(step));
	}
	e->last_step = (int)step;
}

unsigned rung_evaler_sanitize_tools(const rung_evaler *e)
{
	if (e->flags & RUNG_JOB_COMPILE_ONLY)
		return 0;
	return e->sanitize_set ? e->sanitize : e->c->task.spec->sanitize;
}

static const char *target_arch(const rung_evaler *e)
{
	const rung_spec *spec = e->c->task.spec;
	return spec->arch && *spec->arch ? spec->arch : e->env.valid && e->env.arch[0] ? e->env.arch : "sm_90";
}

/* The sanitize rung of one version's result, fresh or from the store: run
 * unless not asked for, or stored already with these tools; kc/rc NULL (a
 * stored result): compiled here first. A result of a live GPU is stored again
 * with the rung. Returns 0 or negative (rung's own failure). */
static int evaler_sanitize(rung_evaler *e, rung_result *res, const rung_job *job, const rung_compiled *kc,
			   const rung_compiled *rc, const char *content, const char *commit)
{
	unsigned tools = rung_evaler_sanitize_tools(e);
	if (!tools || res->steps[RUNG_STEP_COMPILE].status != RUNG_S_OK || rung_sanitize_covers(res, tools))
		return 0;
	if (!e->env.valid || res->steps[RUNG_STEP_RUN].status == RUNG_S_SKIPPED) {
		res->steps[RUNG_STEP_SANITIZE].status = RUNG_S_SKIPPED;
		snprintf(res->steps[RUNG_STEP_SANITIZE].reason, sizeof(res->steps[0].reason), "%s",
			 res->steps[RUNG_STEP_RUN].status == RUNG_S_SKIPPED ? res->steps[RUNG_STEP_RUN].reason : "no GPU");
		return 0;
	}
	rung_compiled kc2, rc2;
	memset(&kc2, 0, sizeof(kc2));
	memset(&rc2, 0, sizeof(rc2));
	int r = 0;
	if (!kc) {
		rung_result tmp;
		int c = rung_evaluate_compile(&tmp, &kc2, &rc2, job, target_arch(e));
		rung_result_clear(&tmp);
		if (c != 0) { /* it compiled when it was stored: rung's own trouble now */
			r = c < 0 ? c : rung_error_set(RUNG_ECOMPILE, "sanitize: the version no longer compiles");
			goto done;
		}
		kc = &kc2;
		rc = &rc2;
	}
	rung_status was = res->steps[RUNG_STEP_SANITIZE].status;
	unsigned run = was == RUNG_S_OK || was == RUNG_S_FAILED ? tools & ~res->sanitize_tools : tools;
	r = rung_sanitize_version(res, job, kc, job->spec->reference ? rc : NULL, run, progress, e);
	if (e->tty)
		fprintf(rung_cli_tty_stderr(), "\r\033[K");
	if (r == 0 && e->c->store && res->key[0] && res->steps[RUNG_STEP_SANITIZE].status != RUNG_S_SKIPPED)
		r = rung_store_put(e->c->store, res, content, commit);
done:
	rung_compiled_free(&kc2);
	rung_compiled_free(&rc2);
	return r;
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
	job.ceilings = evaler_ceilings(e);
	e->cur = v->short_id;
	e->last_step = -1;
	if (e->env.valid && c->store && rung_store_get(out, c->store, key) == 0) {
		/* same content on the same device: reuse, and remember this commit */
		if (commit)
			rung_store_link(c->store, commit, key);
		r = evaler_sanitize(e, out, &job, NULL, NULL, content, commit);
		rung_source_free(&src);
		return r;
	}
	rung_error_clear();
	r = rung_evaluate(out, e->w, &job, progress, e);
	if (e->tty)
		fprintf(rung_cli_tty_stderr(), "\r\033[K");
	if (r == 0) {
		snprintf(out->key, sizeof(out->key), "%s", key);
		if (!out->env.valid && e->env.valid)
			out->env = e->env;
		/* only live GPU results are stored: a no-GPU run has nothing to keep */
		if (e->env.valid && c->store && !(e->flags & RUNG_JOB_COMPILE_ONLY))
			r = rung_store_put(c->store, out, content, commit);
		if (r == 0)
			r = evaler_sanitize(e, out, &job, NULL, NULL, content, commit);
	}
	rung_source_free(&src);
	return r;
}

/* ---- the pipeline: compile threads ahead of the GPU ---- */

enum { SLOT_EMPTY, SLOT_QUEUED, SLOT_COMPILING, SLOT_COMPILED, SLOT_DONE };

typedef struct {
	int state;
	rung_source src;
	bool have_src;
	char content[65], key[65];
	rung_job job;
	rung_result res;
	rung_compiled kc, rc;
	int crc; /* rung_evaluate_compile's return */
	int err; /* rung's own failure before compiling */
	rung_error_state error; /* the message of err or crc (set on the thread that failed) */
} pslot;

typedef struct {
	rung_evaler *e;
	const rung_version *vs;
	pslot *slots;
	int n;
	const char *arch;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop;
	int in_flight;
} pipeline;

static rung_evaler_stats last_stats;

rung_evaler_stats rung_evaler_last_stats(void)
{
	return last_stats;
}

static void compile_slot(pipeline *p, pslot *s)
{
	s->crc = rung_evaluate_compile(&s->res, &s->kc, &s->rc, &s->job, p->arch);
	if (s->crc < 0)
		rung_error_save(&s->error);
}

static void *compile_thread(void *arg)
{
	pipeline *p = arg;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		pslot *s = NULL;
		for (int i = 0; i < p->n && !s; i++)
			if (p->slots[i].state == SLOT_QUEUED)
				s = &p->slots[i];
		if (!s) {
			if (p->stop)
				break;
			pthread_cond_wait(&p->cv, &p->mu);
			continue;
		}
		s->state = SLOT_COMPILING;
		last_stats.compiled++;
		if (++p->in_flight > last_stats.max_in_flight)
			last_stats.max_in_flight = p->in_flight;
		pthread_mutex_unlock(&p->mu);
		compile_slot(p, s);
		pthread_mutex_lock(&p->mu);
		p->in_flight--;
		s->state = SLOT_COMPILED;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Reads version i's source and looks it up in the store. Returns the slot's next
 * state: SLOT_QUEUED for a compile thread, SLOT_DONE when the store has it (or the
 * source could not be read). Main thread only (libgit2, SQLite); the caller
 * publishes the state under the lock. */
static int prepare(pipeline *p, int i)
{
	rung_evaler *e = p->e;
	rung_vctx *c = e->c;
	const rung_version *v = &p->vs[i];
	pslot *s = &p->slots[i];
	int r = rung_vtask_source(&s->src, &c->task, v->worktree ? "WORKTREE" : v->id, v->kernel_path);
	if (r < 0) {
		s->err = r;
		rung_error_save(&s->error);
		return SLOT_DONE;
	}
	s->have_src = true;
	rung_vtask_content(s->content, &c->task, &s->src);
	rung_result_key(s->key, s->content, e->env.valid ? e->env.uuid : "");
	rung_job *job = &s->job;
	job->spec = c->task.spec;
	job->kernel_src = s->src.text;
	job->kernel_file = v->kernel_path;
	job->headers = s->src.headers;
	job->nheaders = s->src.nheaders;
	job->ref_src = c->task.ref.text;
	job->ref_file = c->task.ref.path;
	job->ref_headers = c->task.ref.headers;
	job->ref_nheaders = c->task.ref.nheaders;
	job->rev = v->id;
	job->label = v->subject;
	job->flags = e->flags;
	job->ceilings = evaler_ceilings(e);
	if (e->env.valid && c->store && rung_store_get(&s->res, c->store, s->key) == 0) {
		if (!v->worktree)
			rung_store_link(c->store, v->id, s->key);
		return SLOT_DONE; /* same content on the same device: reused */
	}
	rung_error_clear();
	return SLOT_QUEUED;
}

static void free_slot(pslot *s)
{
	rung_compiled_free(&s->kc);
	rung_compiled_free(&s->rc);
	if (s->have_src)
		rung_source_free(&s->src);
	s->have_src = false;
}

int rung_evaler_run_all(rung_evaler *e, const rung_version *vs, int n, int jobs, rung_evaler_done_fn done, void *ud)
{
	memset(&last_stats, 0, sizeof(last_stats));
	if (n <= 0)
		return 0;
	pipeline p;
	memset(&p, 0, sizeof(p));
	p.e = e;
	p.vs = vs;
	p.n = n;
	p.slots = calloc((size_t)n, sizeof(*p.slots));
	if (!p.slots)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	/* target arch as rung_evaluate picks it: the spec's, else the device's */
	const rung_spec *spec = e->c->task.spec;
	p.arch = target_arch(e);
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	int nthreads = jobs > 1 ? jobs - 1 : 0;
	if (nthreads > 64)
		nthreads = 64;
	int window = jobs > 1 ? jobs : 1;
	pthread_t th[64];
	int started = 0;
	for (; started < nthreads; started++)
		if (pthread_create(&th[started], NULL, compile_thread, &p) != 0)
			break;
	int prepared = 0, ret = 0;
	bool gpu = !(e->flags & RUNG_JOB_COMPILE_ONLY);
	e->total = n;
	for (int i = 0; i < n; i++) {
		e->index = i;
		e->cur = vs[i].short_id;
		e->last_step = -1;
		pthread_mutex_lock(&p.mu);
		while (prepared < n && prepared < i + window) {
			pthread_mutex_unlock(&p.mu);
			int st = prepare(&p, prepared); /* outside the lock; published under it */
			pthread_mutex_lock(&p.mu);
			p.slots[prepared++].state = st;
			pthread_cond_broadcast(&p.cv);
		}
		pslot *s = &p.slots[i];
		if (s->state != SLOT_DONE)
			progress(e, RUNG_STEP_COMPILE, 0, NULL);
		if (s->state == SLOT_QUEUED && started == 0) {
			/* no compile threads (jobs 1, or none could start): compile here */
			s->state = SLOT_COMPILING;
			last_stats.compiled++;
			if (last_stats.max_in_flight < 1)
				last_stats.max_in_flight = 1;
			pthread_mutex_unlock(&p.mu);
			compile_slot(&p, s);
			pthread_mutex_lock(&p.mu);
			s->state = SLOT_COMPILED;
		}
		while (s->state != SLOT_COMPILED && s->state != SLOT_DONE)
			pthread_cond_wait(&p.cv, &p.mu);
		pthread_mutex_unlock(&p.mu);

		int err = s->err;
		if (s->state == SLOT_COMPILED) {
			if (s->crc < 0) {
				err = s->crc;
			} else if (s->crc == 0 && gpu) {
				err = rung_evaluate_gpu(&s->res, e->w, &s->job, &s->kc, spec->reference ? &s->rc : NULL, progress,
						      e);
				if (err < 0)
					rung_error_save(&s->error);
			}
			if (e->tty)
				fprintf(rung_cli_tty_stderr(), "\r\033[K");
			if (err == 0) {
				snprintf(s->res.key, sizeof(s->res.key), "%s", s->key);
				if (!s->res.env.valid && e->env.valid)
					s->res.env = e->env;
				/* only live GPU results are stored: a no-GPU run has nothing to keep */
				if (e->env.valid && e->c->store && gpu && s->res.steps[RUNG_STEP_RUN].status != RUNG_S_SKIPPED &&
				    rung_store_put(e->c->store, &s->res, s->content, vs[i].worktree ? NULL : vs[i].id) < 0) {
					err = rung_error_last_code();
					rung_error_save(&s->error);
				}
			}
		}
		if (err == 0 && s->have_src && gpu) {
			bool compiled = s->state == SLOT_COMPILED && s->crc == 0;
			err = evaler_sanitize(e, &s->res, &s->job, compiled ? &s->kc : NULL, compiled ? &s->rc : NULL,
					      s->content, vs[i].worktree ? NULL : vs[i].id);
			if (err < 0)
				rung_error_save(&s->error);
		}
		if (err < 0) {
			s->error.code = err;
			rung_error_restore(&s->error);
			rung_result_clear(&s->res);
			rung_result_init(&s->res);
		}
		if (done)
			done(ud, i, &vs[i], &s->res, err);
		rung_result_clear(&s->res);
		free_slot(s);
	}
	pthread_mutex_lock(&p.mu);
	p.stop = true;
	pthread_cond_broadcast(&p.cv);
	pthread_mutex_unlock(&p.mu);
	for (int k = 0; k < started; k++)
		pthread_join(th[k], NULL);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	free(p.slots);
	return ret;
}

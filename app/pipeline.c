/* Versions through the one evaluation, compiles ahead of the GPU (app/pipeline.h). */
#include "app/pipeline.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/rng.h"
#include "core/timing.h"
#include "vcs/ceil_store.h"

int rung_evaler_open(rung_evaler *e, rung_vctx *c, unsigned flags)
{
	memset(e, 0, sizeof(*e));
	e->c = c;
	e->opts.flags = flags;
	int r = rung_evaluator_open(&e->ev, c->store, flags);
	if (r < 0)
		return r;
	if (!(flags & RUNG_EVAL_COMPILE_ONLY)) {
		const rung_env *env = rung_evaluator_env(&e->ev);
		if (env)
			e->env = *env;
		else
			snprintf(e->no_gpu, sizeof(e->no_gpu), "%s", e->ev.no_gpu);
	}
	return 0;
}

int rung_evaler_open_pool(rung_evaler *e, rung_vctx *c, unsigned flags, rung_pool *pool)
{
	if (!pool || pool->n < 1 || (flags & RUNG_EVAL_COMPILE_ONLY))
		return rung_evaler_open(e, c, flags);
	memset(e, 0, sizeof(*e));
	e->c = c;
	e->opts.flags = flags;
	e->pool = pool;
	e->ev.store = c->store;
	e->ev.w = pool->m[0].w; /* borrowed: the device as the first worker sees it, no process of our own */
	const rung_env *env = rung_evaluator_env(&e->ev);
	if (env)
		e->env = *env;
	else
		snprintf(e->no_gpu, sizeof(e->no_gpu), "%s", e->ev.no_gpu);
	return 0;
}

void rung_evaler_retarget(rung_evaler *e, rung_vctx *c)
{
	e->c = c;
	e->ev.store = c->store;
	e->ev.have_ceilings = e->env.valid && c->store &&
			      rung_store_guard_ceilings(&e->ev.ceilings, c->store, &e->env) != NULL;
	rung_error_clear();
}

void rung_evaler_close(rung_evaler *e)
{
	if (e->pool)
		e->ev.w = NULL; /* the pool's */
	rung_evaluator_close(&e->ev);
}

unsigned rung_evaler_sanitize_tools(const rung_evaler *e)
{
	if (e->opts.flags & RUNG_EVAL_COMPILE_ONLY)
		return 0;
	return e->opts.sanitize_set ? e->opts.sanitize : e->c->task.spec->sanitize;
}

static void progress(void *ud, rung_step_id step, double frac, const char *msg)
{
	rung_evaler *e = ud;
	if (e->progress)
		e->progress(e->progress_ud, e->index, e->total, e->cur, step, frac, msg);
}

int rung_evaler_run(rung_evaler *e, const rung_version *v, rung_result *out)
{
	/* one version through the same path as many: done == NULL moves the result into out */
	rung_result_init(out);
	return rung_evaler_run_all(e, v, 1, 1, NULL, out);
}

/* ---- the pipeline: compile threads ahead of the GPU ---- */

enum { SLOT_EMPTY, SLOT_QUEUED, SLOT_COMPILING, SLOT_COMPILED, SLOT_DONE };

typedef struct {
	int state;
	rung_source src;
	bool have_src, have_task;
	rung_task task; /* a view of the version (rung_task_of_version) */
	rung_result res;
	rung_compiled kc, rc;
	int crc; /* rung_eval_compile's return */
	int err; /* rung's own failure before compiling */
	char lost[400]; /* pool: the reason the first worker was lost */
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
	s->crc = rung_eval_compile(&s->res, &s->kc, &s->rc, &s->task, p->arch);
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
	rung_result_init(&s->res);
	int r = rung_vtask_source(&s->src, &c->task, v->worktree ? "WORKTREE" : v->id, v->kernel_path);
	if (r == 0) {
		s->have_src = true;
		r = rung_task_of_version(&s->task, c->repo, &c->task, &s->src, v);
		s->have_task = true;
	}
	if (r < 0) {
		s->err = r;
		rung_error_save(&s->error);
		return SLOT_DONE;
	}
	snprintf(s->res.rev, sizeof(s->res.rev), "%s", v->id);
	snprintf(s->res.label, sizeof(s->res.label), "%.*s", (int)sizeof(s->res.label) - 1, v->subject);
	s->res.run_dims = c->task.spec->dims;
	if (rung_eval_lookup(&s->res, &e->ev, &s->task, &e->opts) == 1)
		return SLOT_DONE; /* same content on the same device: reused */
	return SLOT_QUEUED;
}

static void free_slot(pslot *s)
{
	rung_compiled_clear(&s->kc);
	rung_compiled_clear(&s->rc);
	if (s->have_task)
		rung_task_clear(&s->task);
	if (s->have_src)
		rung_source_clear(&s->src);
	s->have_src = s->have_task = false;
}

/* The GPU half of slot s: run, check, bench, store and sanitize (or the
 * sanitize rung of a stored result). Returns 0 or negative. */
static int finish_slot(pipeline *p, pslot *s)
{
	rung_evaler *e = p->e;
	int err = s->err;
	bool gpu = !(e->opts.flags & RUNG_EVAL_COMPILE_ONLY);
	if (s->state == SLOT_COMPILED) {
		if (s->crc < 0)
			return s->crc;
		if (s->crc == 0 && gpu) {
			err = rung_eval_gpu(&s->res, NULL, &e->ev, &s->task, &e->opts, &s->kc, &s->rc);
			if (err < 0)
				rung_error_save(&s->error);
		} else if (s->crc == 1 && gpu && rung_eval_store(&s->res, NULL, &e->ev, &s->task, &e->opts) < 0) {
			/* a verdict at compile time (it does not compile, or the reference
			 * does not) is kept like any other on a live GPU */
			err = rung_error_last_code();
			rung_error_save(&s->error);
		}
		if (!gpu && s->crc >= 0 && rung_eval_store_compiled(&s->res, &e->ev, &s->task, &e->opts) < 0)
			rung_error_clear(); /* --compile-only: the verdict kept for log and the workbench (#28 D-16) */
		if (err == 0 && !s->res.env.valid && e->env.valid)
			s->res.env = e->env;
	} else if (err == 0 && s->have_task && gpu) { /* a stored result: its sanitize rung when asked */
		err = rung_eval_sanitize(&s->res, NULL, &e->ev, &s->task, &e->opts, NULL, NULL);
		if (err < 0)
			rung_error_save(&s->error);
	}
	return err;
}

/* ---- the pool: each version's compile and GPU rungs on the next free worker ---- */

typedef struct {
	pipeline *p;
	int *slot; /* the pool's job j is version slot[j] */
} pool_batch;

static const char *failed_reason(const rung_result *r)
{
	for (int s = RUNG_STEP_RUN; s < RUNG_NSTEPS; s++)
		if (r->steps[s].status == RUNG_S_FAILED)
			return r->steps[s].reason;
	return "no reply";
}

static int pool_job(void *ud, int j, rung_pool_member *m, int attempt, const char *after)
{
	pool_batch *b = ud;
	rung_evaler *e = b->p->e;
	pslot *s = &b->p->slots[b->slot[j]];
	if (attempt == 1) {
		/* compiled ahead by the compile threads, or here when none has taken it yet */
		pthread_mutex_lock(&b->p->mu);
		bool mine = s->state == SLOT_QUEUED;
		if (mine) {
			s->state = SLOT_COMPILING;
			last_stats.compiled++;
		}
		while (!mine && s->state != SLOT_COMPILED)
			pthread_cond_wait(&b->p->cv, &b->p->mu);
		pthread_mutex_unlock(&b->p->mu);
		if (mine) {
			compile_slot(b->p, s);
			pthread_mutex_lock(&b->p->mu);
			s->state = SLOT_COMPILED;
			pthread_cond_broadcast(&b->p->cv);
			pthread_mutex_unlock(&b->p->mu);
		}
		if (s->crc != 0)
			return 1; /* a compile verdict (or rung's own failure): no worker used */
	} else {
		for (int k = RUNG_STEP_RUN; k < RUNG_NSTEPS; k++) /* the lost attempt's rungs go */
			memset(&s->res.steps[k], 0, sizeof(s->res.steps[k]));
	}
	const rung_eval_opts *o = &e->opts;
	s->res.base_seed = o->seed_set ? o->seed : o->batch_seed; /* the batch's inputs on every worker */
	rung_job job;
	rung_task_job(&job, &s->task, s->res.base_seed, true, o->job_flags);
	job.budget_s = o->budget_s > 0 ? o->budget_s : 0;
	double t0 = rung_now_s();
	int rc = rung_evaluate_gpu(&s->res, m->w, &job, &s->kc, s->task.reference.src ? &s->rc : NULL, NULL, NULL);
	m->busy_s += rung_now_s() - t0;
	if (rc < 0) {
		s->err = rc;
		rung_error_save(&s->error);
		return rc;
	}
	if (attempt == 1 && rung_worker_lost(m->w))
		snprintf(s->lost, sizeof(s->lost), "%s", failed_reason(&s->res));
	if (after)
		snprintf(s->res.worker, sizeof(s->res.worker), "%.40s (re-run after %.40s: %.60s)", m->label, after, s->lost);
	else
		snprintf(s->res.worker, sizeof(s->res.worker), "%.60s", m->label);
	if (attempt > 1 && rung_worker_lost(m->w)) { /* lost twice: failed, both reasons said */
		rung_step *st = &s->res.steps[RUNG_STEP_RUN];
		char second[sizeof(st->reason)];
		snprintf(second, sizeof(second), "%s", failed_reason(&s->res));
		if (st->status != RUNG_S_FAILED)
			st->status = RUNG_S_FAILED;
		snprintf(st->reason, sizeof(st->reason), "worker lost twice: %.150s on %.40s; %.200s on %.40s", s->lost, after,
			 second, m->label);
	}
	return 0;
}

static void pool_giveup(void *ud, int j, const char *why)
{
	pool_batch *b = ud;
	pslot *s = &b->p->slots[b->slot[j]];
	s->res.steps[RUNG_STEP_RUN].status = RUNG_S_FAILED;
	snprintf(s->res.steps[RUNG_STEP_RUN].reason, sizeof(s->res.steps[RUNG_STEP_RUN].reason), "%s%s%s", why,
		 s->lost[0] ? "; first: " : "", s->lost);
	s->crc = 0;
}

static int run_pool(pipeline *p, int nthreads, rung_evaler_done_fn done, void *ud)
{
	rung_evaler *e = p->e;
	int n = p->n, nq = 0, ret = 0;
	pool_batch b = {.p = p, .slot = calloc((size_t)n, sizeof(int))};
	if (!b.slot)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	for (int i = 0; i < n; i++) { /* the sources and the store's answers, on this thread */
		p->slots[i].state = prepare(p, i);
		if (p->slots[i].state == SLOT_QUEUED)
			b.slot[nq++] = i;
	}
	/* compiles ahead of the workers, as in the one-worker pipeline */
	pthread_t th[64];
	int started = 0;
	for (; nq && started < nthreads && started < 64; started++)
		if (pthread_create(&th[started], NULL, compile_thread, p) != 0)
			break;
	if (nq && (ret = rung_pool_start(e->pool, nq, pool_job, pool_giveup, &b)) < 0)
		nq = 0;
	for (int i = 0, j = 0; i < n && ret == 0; i++) {
		pslot *s = &p->slots[i];
		if (e->cancel) { /* the versions not ended yet are left */
			if (nq)
				rung_pool_cancel(e->pool);
			break;
		}
		if (j < nq && b.slot[j] == i) {
			rung_pool_wait(e->pool, j++);
			int err = s->err < 0 ? s->err : s->crc < 0 ? s->crc : 0;
			if (err == 0 && s->res.env.valid) { /* stored under the device it ran on */
				rung_evaluator on = e->ev;
				on.env = s->res.env;
				on.env_read = true;
				if (rung_eval_store(&s->res, NULL, &on, &s->task, &e->opts) < 0)
					rung_error_clear();
			}
			if (err < 0) {
				s->error.code = err;
				rung_error_restore(&s->error);
				rung_result_clear(&s->res);
				rung_result_init(&s->res);
			}
			if (done)
				done(ud, i, &p->vs[i], &s->res, err);
			else if (ret == 0 && err < 0)
				ret = err;
		} else if (done) {
			int err = s->err;
			if (err < 0)
				rung_error_restore(&s->error);
			done(ud, i, &p->vs[i], &s->res, err);
		}
		if (!done) { /* rung_evaler_run: the one result to the caller */
			rung_result_clear(ud);
			*(rung_result *)ud = s->res;
			rung_result_init(&s->res);
		}
		rung_result_clear(&s->res);
		free_slot(s);
	}
	if (nq)
		rung_pool_join(e->pool);
	pthread_mutex_lock(&p->mu);
	p->stop = true;
	for (int i = 0; i < n; i++) /* left by a cancel */
		if (p->slots[i].state == SLOT_QUEUED)
			p->slots[i].state = SLOT_EMPTY;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	for (int k = 0; k < started; k++)
		pthread_join(th[k], NULL);
	for (int i = 0; i < n; i++) /* slots a cancel left behind */
		if (p->slots[i].have_src || p->slots[i].have_task) {
			rung_result_clear(&p->slots[i].res);
			free_slot(&p->slots[i]);
		}
	free(b.slot);
	return ret;
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
	/* target arch as the evaluation picks it: the spec's, else the device's */
	rung_task view = {.spec = e->c->task.spec};
	p.arch = rung_eval_arch(&e->ev, &view);
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	if (e->pool && e->pool->n > 0 && !(e->opts.flags & RUNG_EVAL_COMPILE_ONLY)) {
		rung_eval_opts keep = e->opts;
		if (!e->opts.seed_set && !e->opts.batch_seed)
			e->opts.batch_seed = rung_seed_fresh();
		int ret = run_pool(&p, jobs > 1 ? jobs - 1 : 0, done, ud);
		e->opts = keep;
		pthread_mutex_destroy(&p.mu);
		pthread_cond_destroy(&p.cv);
		free(p.slots);
		return ret;
	}
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
	rung_eval_opts base = e->opts;
	/* one fresh seed for the batch: its versions are compared on equal inputs
	 * (the seed is stored with each result) */
	if (!e->opts.seed_set && !e->opts.batch_seed)
		e->opts.batch_seed = rung_seed_fresh();
	e->opts.progress = progress;
	e->opts.ud = e;
	e->total = n;
	/* rung_evaler_run: the one result goes to the caller's record (ud) */
	rung_result *single = !done ? ud : NULL;
	for (int i = 0; i < n; i++) {
		e->index = i;
		e->cur = &vs[i];
		if (e->cancel)
			break;
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
			progress(e, RUNG_STEP_COMPILE, 0, vs[i].kernel_path);
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

		int err = finish_slot(&p, s);
		if (err < 0) {
			s->error.code = err;
			rung_error_restore(&s->error);
			rung_result_clear(&s->res);
			rung_result_init(&s->res);
		}
		if (done) {
			done(ud, i, &vs[i], &s->res, err);
		} else if (single) {
			rung_result_clear(single);
			*single = s->res; /* moved */
			rung_result_init(&s->res);
			if (err < 0)
				ret = err;
		}
		rung_result_clear(&s->res);
		free_slot(s);
	}
	pthread_mutex_lock(&p.mu);
	p.stop = true;
	/* versions left by a cancel: compiled or not, nothing more is done with them */
	for (int i = 0; i < n; i++)
		if (p.slots[i].state == SLOT_QUEUED)
			p.slots[i].state = SLOT_EMPTY;
	pthread_cond_broadcast(&p.cv);
	pthread_mutex_unlock(&p.mu);
	for (int k = 0; k < started; k++)
		pthread_join(th[k], NULL);
	for (int i = 0; i < prepared; i++) { /* slots a cancel left behind */
		if (p.slots[i].have_src || p.slots[i].have_task) {
			rung_result_clear(&p.slots[i].res);
			free_slot(&p.slots[i]);
		}
	}
	e->opts = base;
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	free(p.slots);
	return ret;
}

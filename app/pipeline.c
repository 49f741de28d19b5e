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
	/* pool, under the pipeline's lock: a stored result that needs only its
	 * sanitize rung; a member works on it; its no-op key is known (""
	 * none); its GPU result is there for a later no-op; the main thread has
	 * stored it and may free it */
	bool sanitize_only, busy, key_known, gpu_ready, released;
	char noop_key[65];
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
	pthread_mutex_t store_mu; /* pool: the store, between the main thread and the members' no-op lookups */
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

static bool member_is_local(const rung_pool_member *m)
{
	return !strncmp(m->label, "local:", 6);
}

const char *const *rung_evaler_sanitize_wrap(const rung_evaler *e, const char *uuid)
{
	if (!e->pool)
		return NULL;
	const rung_pool_member *first = NULL;
	for (int k = 0; k < e->pool->n; k++) {
		const rung_pool_member *m = &e->pool->m[k];
		if (!member_is_local(m) || m->retired)
			continue;
		if (uuid && uuid[0] && !strcmp(m->uuid, uuid))
			return m->argv;
		if (!first)
			first = m;
	}
	return first ? first->argv : NULL;
}

/* An evaluator over member m's worker and the device it reports, with no
 * store (the store is the calling thread's: run_pool). */
static void member_ev(rung_evaluator *mev, rung_pool_member *m)
{
	memset(mev, 0, sizeof(*mev));
	mev->w = m->w;
	mev->env_read = true;
	if (rung_worker_env(&mev->env, m->w) < 0) {
		snprintf(mev->no_gpu, sizeof(mev->no_gpu), "%s", rung_error_last());
		memset(&mev->env, 0, sizeof(mev->env));
	}
	rung_error_clear();
}

/* The options of a job on member m: a local member's sanitize rung runs on
 * its own device (env CUDA_VISIBLE_DEVICES=N before compute-sanitizer). */
static rung_eval_opts member_opts(const rung_evaler *e, const rung_pool_member *m)
{
	rung_eval_opts o = e->opts;
	o.progress = NULL;
	o.ud = NULL;
	o.sanitize_wrap = member_is_local(m) ? m->argv : NULL;
	return o;
}

/* The sanitize rung of s->res on member m (holding its GPU), as the
 * one-worker path runs it; a remote member cannot run it (compute-sanitizer
 * would write its report on the other box): SKIPPED, saying so, which the
 * exit code reports as it reports a missing compute-sanitizer. */
static int pool_sanitize(pslot *s, rung_pool_member *m, rung_evaluator *mev, const rung_eval_opts *o,
			 const rung_compiled *kc, const rung_compiled *rc)
{
	unsigned tools = rung_eval_sanitize_tools(o, &s->task);
	if (!tools || s->res.steps[RUNG_STEP_COMPILE].status != RUNG_S_OK || rung_sanitize_covers(&s->res, tools))
		return 0;
	if (!member_is_local(m) && mev->env.valid && s->res.steps[RUNG_STEP_RUN].status != RUNG_S_SKIPPED) {
		rung_step *st = &s->res.steps[RUNG_STEP_SANITIZE];
		st->status = RUNG_S_SKIPPED;
		snprintf(st->reason, sizeof(st->reason),
			 "the sanitize rung runs on local workers only (%.60s is not): rung eval --sanitize without --workers",
			 m->label);
		return 0;
	}
	return rung_eval_sanitize(&s->res, NULL, mev, &s->task, o, kc, rc);
}

static bool noop_possible(const rung_evaler *e, const pslot *s)
{
	const rung_eval_opts *o = &e->opts;
	return e->ev.store && s->task.content[0] && s->task.rev[0] && strcmp(s->task.rev, "WORKTREE") &&
	       !(o->flags & (RUNG_EVAL_FORCE | RUNG_EVAL_NO_STORE)) && !o->seed_set &&
	       !(o->job_flags & (RUNG_JOB_PROFILE | RUNG_JOB_TRACE | RUNG_JOB_NO_BENCH | RUNG_JOB_SANITIZE));
}

/* A no-op version (the same machine code as an earlier one, app/evaluate.h):
 * an earlier version of this batch with the same key that is on a worker now
 * is waited for (until its GPU result is there, or it ends without one) and
 * its result taken on the same device; else the store is asked, as the
 * one-worker path asks it. Waits only on earlier versions a member thread is
 * working on, which never wait on later ones: no cycle. 1: s->res became the
 * earlier version's verdict. */
static int pool_noop(pipeline *p, int idx, pslot *s, rung_pool_member *m, rung_evaluator *mev,
		     const rung_eval_opts *o)
{
	rung_evaler *e = p->e;
	char key[65] = "";
	bool have = mev->env.valid && noop_possible(e, s) && rung_eval_noop_key(key, &s->task, &s->kc) == 0;
	pthread_mutex_lock(&p->mu);
	snprintf(s->noop_key, sizeof(s->noop_key), "%s", have ? key : "");
	s->key_known = true;
	pthread_cond_broadcast(&p->cv);
	if (!have) {
		pthread_mutex_unlock(&p->mu);
		return 0;
	}
	int from = -1;
	for (;;) {
		bool wait = false;
		from = -1;
		for (int k = idx - 1; k >= 0 && from < 0; k--) {
			pslot *q = &p->slots[k];
			bool same = q->key_known && !strcmp(q->noop_key, key);
			if (q->busy && (!q->key_known || (same && !q->gpu_ready)))
				wait = true;
			else if (same && q->gpu_ready && !q->released && !strcmp(q->res.env.uuid, mev->env.uuid))
				from = k;
		}
		if (from >= 0 || !wait)
			break;
		pthread_cond_wait(&p->cv, &p->mu);
	}
	char *js = NULL;
	char rev[sizeof(s->res.noop_of)] = "";
	if (from >= 0) { /* a copy of its result, taken before the main thread stores and frees it */
		const pslot *q = &p->slots[from];
		js = rung_result_to_json(&q->res);
		snprintf(rev, sizeof(rev), "%s", q->res.noop_of[0] ? q->res.noop_of : p->vs[from].id);
	}
	pthread_mutex_unlock(&p->mu);
	if (js) {
		rung_result prev;
		int ok = rung_result_from_json(&prev, js) == 0;
		free(js);
		if (ok) {
			rung_eval_noop_apply(&s->res, &prev, rev);
			return 1;
		}
		rung_error_clear();
	}
	/* an earlier batch's: through the store, as rung_eval_gpu asks it */
	rung_evaluator sev = *mev;
	sev.store = e->ev.store;
	pthread_mutex_lock(&p->store_mu);
	int r = rung_eval_noop(&s->res, &sev, &s->task, o, &s->kc);
	pthread_mutex_unlock(&p->store_mu);
	return r == 1;
}

/* Version s's GPU rungs on member m: run, check, bench and sanitize with m's
 * GPU held, or the earlier version's verdict for a no-op. */
static int pool_gpu(pipeline *p, int idx, pslot *s, rung_pool_member *m, int attempt, const char *after)
{
	rung_evaler *e = p->e;
	rung_pool *pool = e->pool;
	const rung_version *v = &p->vs[idx];
	char what[64];
	if (attempt == 1) {
		/* compiled ahead by the compile threads, or here when none has taken it yet */
		pthread_mutex_lock(&p->mu);
		bool mine = s->state == SLOT_QUEUED;
		if (mine) {
			s->state = SLOT_COMPILING;
			last_stats.compiled++;
		}
		while (!mine && s->state != SLOT_COMPILED)
			pthread_cond_wait(&p->cv, &p->mu);
		pthread_mutex_unlock(&p->mu);
		if (mine) {
			compile_slot(p, s);
			pthread_mutex_lock(&p->mu);
			s->state = SLOT_COMPILED;
			pthread_cond_broadcast(&p->cv);
			pthread_mutex_unlock(&p->mu);
		}
		if (s->crc != 0)
			return 1; /* a compile verdict (or rung's own failure): no worker used */
	} else {
		for (int k = RUNG_STEP_RUN; k < RUNG_NSTEPS; k++) /* the lost attempt's rungs go */
			memset(&s->res.steps[k], 0, sizeof(s->res.steps[k]));
		pthread_mutex_lock(&p->mu); /* a re-run is no one's no-op source: nobody waits on it */
		s->noop_key[0] = 0;
		s->key_known = true;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
	rung_eval_opts o = member_opts(e, m);
	s->res.base_seed = o.seed_set ? o.seed : o.batch_seed; /* the batch's inputs on every worker */
	rung_evaluator mev;
	double th = rung_now_s();
	member_ev(&mev, m); /* its hello: the device it reports (its spawn and hello are busy time too) */
	rung_pool_member_hello(pool, m, &mev.env);
	double hello_s = rung_now_s() - th;
	bool hello_lost = rung_worker_lost(m->w); /* died before it spoke: lost like a job */
	if (!hello_lost && !mev.env.valid && rung_pool_no_gpu_here(pool, m, mev.no_gpu))
		return 2; /* another member has a GPU: this version goes there */
	if (!hello_lost && mev.env.valid && mev.env.arch[0] && !(s->task.spec->arch && *s->task.spec->arch) &&
	    strcmp(mev.env.arch, s->res.compile.arch[0] ? s->res.compile.arch : p->arch)) {
		/* a device of another arch than the batch was compiled for (a mixed pool): compiled
		 * again for it, as the one-worker path does for its device */
		rung_compiled_clear(&s->kc);
		rung_compiled_clear(&s->rc);
		s->crc = rung_eval_compile(&s->res, &s->kc, &s->rc, &s->task, mev.env.arch);
		if (s->crc != 0) {
			if (s->crc < 0)
				rung_error_save(&s->error);
			return 1; /* its verdict (or rung's own failure) */
		}
	}
	if (hello_lost) {
		s->res.steps[RUNG_STEP_RUN].status = RUNG_S_FAILED;
		snprintf(s->res.steps[RUNG_STEP_RUN].reason, sizeof(s->res.steps[RUNG_STEP_RUN].reason), "%s", mev.no_gpu);
	}
	if (!hello_lost && attempt == 1 && pool_noop(p, idx, s, m, &mev, &o) == 1) {
		snprintf(s->res.worker, sizeof(s->res.worker), "%.60s", m->label);
		snprintf(what, sizeof(what), "%s sanitize", v->short_id);
		rung_pool_member_doing(pool, m, what);
		rung_pool_gpu_hold(pool, m, &mev.env);
		int rc = pool_sanitize(s, m, &mev, &o, &s->kc, &s->rc);
		rung_pool_gpu_release(pool, m);
		pthread_mutex_lock(&pool->mu);
		m->busy_s += hello_s;
		pthread_mutex_unlock(&pool->mu);
		if (rc < 0) {
			s->err = rc;
			rung_error_save(&s->error);
			return rc;
		}
		return 1; /* its worker not asked */
	}
	rung_job job;
	rung_task_job(&job, &s->task, s->res.base_seed, true, o.job_flags);
	job.budget_s = o.budget_s > 0 ? o.budget_s : 0;
	job.deadline_s = o.deadline_s > 0 ? o.deadline_s : 0;
	job.ceilings = e->ev.have_ceilings && mev.env.valid && !strcmp(e->env.uuid, mev.env.uuid) ? &e->ev.ceilings : NULL;
	snprintf(what, sizeof(what), "%s gpu", v->short_id);
	rung_pool_member_doing(pool, m, what);
	rung_pool_gpu_hold(pool, m, &mev.env); /* nobody else of the pool on this GPU from here */
	double t0 = rung_now_s();
	int rc = hello_lost ? 0 : rung_evaluate_gpu(&s->res, m->w, &job, &s->kc, s->task.reference.src ? &s->rc : NULL, NULL, NULL);
	bool lost = rung_worker_lost(m->w);
	if (rc >= 0 && !lost && s->res.bench.valid && rung_pool_gpu_sharers(pool, m) > 0)
		rung_pool_mark_shared(pool, m, &s->res.bench); /* another worker's context on it */
	if (rc >= 0 && !lost) {
		snprintf(what, sizeof(what), "%s sanitize", v->short_id);
		rung_pool_member_doing(pool, m, what);
		rc = pool_sanitize(s, m, &mev, &o, &s->kc, &s->rc);
	}
	rung_pool_gpu_release(pool, m);
	pthread_mutex_lock(&pool->mu);
	m->busy_s += hello_s + rung_now_s() - t0;
	pthread_mutex_unlock(&pool->mu);
	if (rc < 0) {
		s->err = rc;
		rung_error_save(&s->error);
		return rc;
	}
	if (attempt == 1 && lost)
		snprintf(s->lost, sizeof(s->lost), "%s", failed_reason(&s->res));
	if (after)
		snprintf(s->res.worker, sizeof(s->res.worker), "%.40s (re-run after %.40s: %.60s)", m->label, after, s->lost);
	else
		snprintf(s->res.worker, sizeof(s->res.worker), "%.60s", m->label);
	if (attempt > 1 && lost) { /* lost twice: failed, both reasons said */
		rung_step *st = &s->res.steps[RUNG_STEP_RUN];
		char second[sizeof(st->reason)];
		snprintf(second, sizeof(second), "%s", failed_reason(&s->res));
		if (st->status != RUNG_S_FAILED)
			st->status = RUNG_S_FAILED;
		snprintf(st->reason, sizeof(st->reason), "worker lost twice: %.150s on %.40s; %.200s on %.40s", s->lost, after,
			 second, m->label);
	}
	if (!lost && !s->res.noop_of[0] && s->res.env.valid && s->res.steps[RUNG_STEP_RUN].status != RUNG_S_SKIPPED) {
		pthread_mutex_lock(&p->mu); /* later versions with this machine code may take it now */
		s->gpu_ready = true;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
	return 0;
}

/* A stored result that lacks the sanitize rung asked for: compiled again
 * and sanitized on member m, its GPU held (one-worker path: rung_eval_sanitize
 * of a stored result). */
static int pool_sanitize_stored(pipeline *p, int idx, pslot *s, rung_pool_member *m)
{
	rung_evaler *e = p->e;
	char what[64];
	snprintf(what, sizeof(what), "%s sanitize", p->vs[idx].short_id);
	rung_pool_member_doing(e->pool, m, what);
	rung_result tmp;
	rung_result_init(&tmp);
	int c = rung_eval_compile(&tmp, &s->kc, &s->rc, &s->task, p->arch);
	rung_result_clear(&tmp);
	if (c != 0) { /* it compiled when it was stored: rung's own trouble now */
		s->err = c < 0 ? c : rung_error_set(RUNG_ECOMPILE, "sanitize: the version no longer compiles");
		rung_error_save(&s->error);
		return s->err;
	}
	rung_eval_opts o = member_opts(e, m);
	rung_evaluator mev;
	member_ev(&mev, m);
	rung_pool_member_hello(e->pool, m, &mev.env);
	rung_pool_gpu_hold(e->pool, m, &mev.env);
	double t0 = rung_now_s();
	int rc = pool_sanitize(s, m, &mev, &o, &s->kc, &s->rc);
	rung_pool_gpu_release(e->pool, m);
	pthread_mutex_lock(&e->pool->mu);
	m->busy_s += rung_now_s() - t0;
	pthread_mutex_unlock(&e->pool->mu);
	if (rc < 0) {
		s->err = rc;
		rung_error_save(&s->error);
		return rc;
	}
	return 1; /* its worker not asked */
}

static int pool_job(void *ud, int j, rung_pool_member *m, int attempt, const char *after)
{
	pool_batch *b = ud;
	pipeline *p = b->p;
	int idx = b->slot[j];
	pslot *s = &p->slots[idx];
	char what[64];
	snprintf(what, sizeof(what), "%s compile", p->vs[idx].short_id);
	rung_pool_member_doing(p->e->pool, m, what);
	pthread_mutex_lock(&p->mu);
	s->busy = true;
	if (s->sanitize_only)
		s->key_known = true; /* no GPU result of its own to share */
	pthread_mutex_unlock(&p->mu);
	int rc = s->sanitize_only ? pool_sanitize_stored(p, idx, s, m) : pool_gpu(p, idx, s, m, attempt, after);
	pthread_mutex_lock(&p->mu);
	s->busy = false;
	if (!s->key_known && s->crc != 0)
		s->key_known = true; /* a compile verdict */
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	if (rc >= 0 && !(rc == 0 && rung_worker_lost(m->w) && attempt == 1) && rung_result_status(&s->res) == RUNG_S_FAILED)
		rung_pool_member_failed(p->e->pool, m);
	return rc;
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
	unsigned tools = rung_evaler_sanitize_tools(e);
	for (int i = 0; i < n; i++) { /* the sources and the store's answers, on this thread */
		pslot *s = &p->slots[i];
		s->state = prepare(p, i);
		/* a stored result without the sanitize rung asked for: a job of its own */
		s->sanitize_only = s->state == SLOT_DONE && !s->err && s->have_task && tools &&
				   s->res.steps[RUNG_STEP_COMPILE].status == RUNG_S_OK && !rung_sanitize_covers(&s->res, tools);
		if (s->state == SLOT_QUEUED || s->sanitize_only)
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
			/* under the lock: a later no-op may be reading this result */
			pthread_mutex_lock(&p->mu);
			if (err == 0 && s->res.env.valid) { /* stored under the device it ran on */
				rung_evaluator on = e->ev;
				on.env = s->res.env;
				on.env_read = true;
				pthread_mutex_lock(&p->store_mu);
				int st = rung_eval_store(&s->res, NULL, &on, &s->task, &e->opts);
				if (st < 0)
					rung_error_clear();
				else if (st == 1 && !s->sanitize_only && !s->res.noop_of[0] && !s->res.cached)
					rung_eval_noop_remember(&s->res, &on, &s->task, &e->opts, &s->kc);
				pthread_mutex_unlock(&p->store_mu);
			}
			s->released = true;
			pthread_mutex_unlock(&p->mu);
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
	pthread_mutex_init(&p.store_mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	if (e->pool && e->pool->n > 0 && !(e->opts.flags & RUNG_EVAL_COMPILE_ONLY)) {
		rung_eval_opts keep = e->opts;
		if (!e->opts.seed_set && !e->opts.batch_seed)
			e->opts.batch_seed = rung_seed_fresh();
		int ret = run_pool(&p, jobs > 1 ? jobs - 1 : 0, done, ud);
		e->opts = keep;
		pthread_mutex_destroy(&p.store_mu);
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
	pthread_mutex_destroy(&p.store_mu);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	free(p.slots);
	return ret;
}

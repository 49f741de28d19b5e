/* The one evaluation of a version (app/evaluate.h). */
#include "app/evaluate.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "core/sidecar.h"
#include "core/err.h"
#include "core/ptxscan.h"
#include "core/rng.h"
#include "core/timing.h"
#include "gpu/cubin.h"
#include "gpu/nvrtc_lib.h"
#include "gpu/sanitize.h"
#include "vcs/prof_store.h"
#include "vcs/ceil_store.h"
#include "vcs/repo.h"
#include "app/session.h"

/* Bounded copy that always terminates (long mangled names are cut). */
static void copy_str(char *dst, size_t n, const char *src)
{
	size_t k = strlen(src ? src : "");
	if (k >= n)
		k = n - 1;
	memcpy(dst, src ? src : "", k);
	dst[k] = 0;
}

/* ---- the evaluator ---- */

int rung_evaluator_open(rung_evaluator *ev, rung_store *store, unsigned flags)
{
	memset(ev, 0, sizeof(*ev));
	ev->store = store;
	if (flags & RUNG_EVAL_COMPILE_ONLY) {
		ev->env_read = true;
		snprintf(ev->no_gpu, sizeof(ev->no_gpu), "compile only");
		return 0;
	}
	int e = rung_worker_open(&ev->w, NULL);
	if (e < 0)
		return e;
	rung_worker_prestart(ev->w);
	return 0;
}

/* The measured ceilings of a path target's repository (nothing is created for
 * a lookup): NULL when it has no store or none measured. */
static const rung_ceilings *path_ceilings(rung_ceilings *buf, const rung_task *t, const rung_env *env)
{
	rung_repo *own = NULL;
	rung_repo *repo = t->repo;
	char path[4200];
	if (!repo) {
		if (rung_repo_open(&own, t->dir) < 0 ||
		    snprintf(path, sizeof(path), "%srung/results.db", rung_repo_gitdir(own)) >= (int)sizeof(path) ||
		    access(path, F_OK) != 0) {
			rung_repo_free(own);
			rung_error_clear();
			return NULL;
		}
		repo = own;
	}
	rung_store *st = NULL;
	const rung_ceilings *m = NULL;
	if (rung_store_open_repo(&st, repo) == 0)
		m = rung_store_guard_ceilings(buf, st, env);
	rung_error_clear();
	rung_store_close(st);
	rung_repo_free(own);
	return m;
}

const rung_env *rung_evaluator_env(rung_evaluator *ev)
{
	if (!ev->env_read) {
		ev->env_read = true;
		if (!ev->w || rung_worker_env(&ev->env, ev->w) < 0) {
			snprintf(ev->no_gpu, sizeof(ev->no_gpu), "%s", ev->w ? rung_error_last() : "no worker");
			memset(&ev->env, 0, sizeof(ev->env));
		} else if (ev->store) {
			ev->have_ceilings = rung_store_guard_ceilings(&ev->ceilings, ev->store, &ev->env) != NULL;
		} else if (ev->ceil_task) {
			ev->have_ceilings = path_ceilings(&ev->ceilings, ev->ceil_task, &ev->env) != NULL;
		}
		rung_error_clear();
	}
	return ev->env.valid ? &ev->env : NULL;
}

void rung_evaluator_target(rung_evaluator *ev, rung_store *store, const rung_task *ceil_task)
{
	ev->store = store;
	ev->ceil_task = ceil_task;
	ev->have_ceilings = false;
	if (ev->env_read && !ev->env.valid && ev->w && rung_worker_lost(ev->w)) {
		ev->env_read = false; /* the worker died before its hello: ask a fresh one */
		ev->no_gpu[0] = 0;
	}
	if (!ev->env_read || !ev->env.valid)
		return; /* read with the device (rung_evaluator_env) */
	if (store)
		ev->have_ceilings = rung_store_guard_ceilings(&ev->ceilings, store, &ev->env) != NULL;
	else if (ceil_task)
		ev->have_ceilings = path_ceilings(&ev->ceilings, ceil_task, &ev->env) != NULL;
	rung_error_clear();
}

static bool cancelled(const rung_eval_opts *o)
{
	return o->cancel && *o->cancel;
}

void rung_evaluator_close(rung_evaluator *ev)
{
	if (ev->w)
		rung_worker_close(ev->w);
	ev->w = NULL;
}

void rung_evaluator_detach(rung_evaluator *ev)
{
	rung_worker_detach(ev->w);
	ev->w = NULL;
}

/* ---- the job builder ---- */

void rung_task_job(rung_job *job, const rung_task *t, uint64_t seed, bool seed_set, unsigned flags)
{
	*job = (rung_job){
		.spec = t->spec,
		.kernel_src = t->kernel.src,
		.kernel_file = t->kernel.path,
		.kernel_launch = &t->launch,
		.ref_src = t->reference.src,
		.ref_file = t->reference.path,
		.kernel_len = t->kernel.len,
		.ref_len = t->reference.len,
		.seed = seed,
		.seed_set = seed_set,
		.flags = flags,
		.rev = t->rev[0] ? t->rev : NULL,
		.label = t->label,
	};
	if (t->ksrc) { /* a version from git: its headers at the same revision */
		job->headers = t->ksrc->headers;
		job->nheaders = t->ksrc->nheaders;
	}
	if (t->vtask) {
		job->ref_headers = t->vtask->ref.headers;
		job->ref_nheaders = t->vtask->ref.nheaders;
	}
}

unsigned rung_eval_sanitize_tools(const rung_eval_opts *o, const rung_task *t)
{
	if (o->flags & RUNG_EVAL_COMPILE_ONLY)
		return 0;
	return o->sanitize_set ? o->sanitize : t->spec->sanitize;
}

const char *rung_eval_arch(const rung_evaluator *ev, const rung_task *t)
{
	const rung_spec *spec = t->spec;
	if (spec->arch && *spec->arch)
		return spec->arch;
	return ev && ev->env.valid && ev->env.arch[0] ? ev->env.arch : "sm_90";
}

/* ---- compile ---- */

static void set_step(rung_result *r, rung_step_id s, rung_status st, double ms, const char *reason)
{
	r->steps[s].status = st;
	r->steps[s].wall_ms = ms;
	copy_str(r->steps[s].reason, sizeof(r->steps[s].reason), reason);
}

/* The reference compiles on its own thread while the kernel compiles (NVRTC is
 * thread-safe per program); its error text is captured on that thread. */
typedef struct {
	const rung_task *t;
	rung_compiled *out;
	const char *arch;
	int rc;
	char error[512];
	pthread_t thread;
	bool started;
} ref_compile;

/* Both through the task's CUBIN cache: the same machine code is not compiled
 * again (a version checked in the working tree, then committed and evaluated;
 * a version evaluated again). The key is everything that makes the CUBIN
 * (gpu/compile.c), so a hit is the CUBIN NVRTC would have made. */
static int compile_one(rung_compiled *out, const rung_task *t, bool reference, const char *arch)
{
	rung_task tt = *t; /* the same task at another arch */
	tt.arch = arch;
	return reference ? rung_task_compile(out, &tt, true) : rung_task_compile_kept(out, &tt, false);
}

static void *compile_ref(void *arg)
{
	ref_compile *j = arg;
	j->rc = compile_one(j->out, j->t, true, j->arch);
	if (j->rc)
		copy_str(j->error, sizeof(j->error), j->out->error[0] ? j->out->error : rung_error_last());
	return NULL;
}

int rung_eval_compile(rung_result *r, rung_compiled *kc, rung_compiled *rc, const rung_task *t, const char *arch)
{
	memset(kc, 0, sizeof(*kc));
	memset(rc, 0, sizeof(*rc));
	copy_str(r->compile.arch, sizeof(r->compile.arch), arch);
	if (t->launch_error[0]) { /* the launch line is part of the version: it does not build */
		set_step(r, RUNG_STEP_COMPILE, RUNG_S_FAILED, NAN, t->launch_error);
		copy_str(kc->error, sizeof(kc->error), t->launch_error);
		return 1;
	}
	ref_compile ref = {.t = t, .out = rc, .arch = arch};
	/* NVRTC (dlopened on first use, gpu/nvrtc_lib.h) is loaded here, on the
	 * caller's thread, before the reference's thread would: when that thread
	 * loaded it and then ended, LeakSanitizer's scan at exit read a stale
	 * dynamic-TLS entry of libnvrtc's in the main thread and crashed ("Tracer
	 * caught signal 11", exit 134). Measured with 48-240 parallel ASan checks:
	 * 4-10 % before, about 0.5 % after (2 of 432); also reading NVRTC's
	 * architectures here first made it 10 % (23 of 240), so only the load.
	 * Its compile loads it first thing anyway (the key names NVRTC's version). */
	if (t->reference.src && rung_kernel_lang_of(t->reference.path) == RUNG_LANG_CUDA && rung_nvrtc_load() < 0)
		rung_error_clear(); /* said by the compile that needs it */
	if (t->reference.src)
		ref.started = pthread_create(&ref.thread, NULL, compile_ref, &ref) == 0;
	int k = compile_one(kc, t, false, arch);
	if (k == 0) {
		r->compile.kernel = kc->kinfo;
		r->compile.ptx_bytes = (int64_t)kc->ptx_len;
		r->compile.cubin_bytes = (int64_t)kc->cubin_len;
		r->compile.compile_ms = kc->ms;
		r->compile.cached = kc->cached;
		copy_str(r->compile.lowered_name, sizeof(r->compile.lowered_name), kc->lowered);
		set_step(r, RUNG_STEP_COMPILE, RUNG_S_OK, kc->ms, NULL);
		/* evidence in the PTX: deterministic from it, so the content key stays */
		if (rung_ptxscan_result(r, kc->ptx, kc->ptx_len) < 0)
			rung_error_clear();
	} else {
		set_step(r, RUNG_STEP_COMPILE, RUNG_S_FAILED, kc->ms, kc->error[0] ? kc->error : rung_error_last());
	}
	free(r->compile_log);
	r->compile_log = kc->log ? strdup(kc->log) : NULL;
	if (t->reference.src) {
		if (ref.started)
			pthread_join(ref.thread, NULL);
		else
			compile_ref(&ref);
	}
	if (k == RUNG_ENOMEM || ref.rc == RUNG_ENOMEM)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	/* no NVRTC here (gpu/nvrtc_lib.h): rung's own trouble, not the version's verdict */
	if (k == RUNG_EUNSUPPORTED || ref.rc == RUNG_EUNSUPPORTED)
		return rung_error_set(RUNG_EUNSUPPORTED, "%s", k == RUNG_EUNSUPPORTED ? kc->error : ref.error);
	if (t->reference.src && ref.rc) { /* the task itself is broken */
		set_step(r, RUNG_STEP_RUN, RUNG_S_FAILED, 0, "");
		char *reason = r->steps[RUNG_STEP_RUN].reason;
		size_t n = sizeof(r->steps[0].reason);
		int k0 = snprintf(reason, n, "reference failed to compile: ");
		copy_str(reason + k0, n - (size_t)k0, ref.error);
		r->steps[RUNG_STEP_RUN].cause = RUNG_CAUSE_REFERENCE;
		return 1;
	}
	if (t->reference.src)
		r->compile.reference = rc->kinfo;
	return k == 0 ? 0 : 1;
}

/* ---- the store ---- */

static bool uses_store(const rung_evaluator *ev, const rung_task *t, const rung_eval_opts *o)
{
	return ev->store && t->content[0] && !(o->flags & (RUNG_EVAL_NO_STORE | RUNG_EVAL_COMPILE_ONLY)) &&
	       !(o->job_flags & (RUNG_JOB_PROFILE | RUNG_JOB_TRACE | RUNG_JOB_NO_BENCH | RUNG_JOB_SANITIZE));
}

static const char *commit_of(const rung_task *t)
{
	return t->rev[0] && strcmp(t->rev, "WORKTREE") ? t->rev : NULL;
}

int rung_eval_lookup(rung_result *r, rung_evaluator *ev, const rung_task *t, const rung_eval_opts *o)
{
	if (!uses_store(ev, t, o) || (o->flags & RUNG_EVAL_FORCE) || o->seed_set || t->launch_error[0])
		return 0;
	const rung_env *env = rung_evaluator_env(ev);
	if (!env)
		return 0;
	char key[65];
	rung_result_key(key, t->content, env->uuid);
	rung_result cached;
	if (rung_store_get(&cached, ev->store, key) != 0) {
		rung_error_clear();
		return 0;
	}
	/* same content on the same device: reuse, and remember this commit */
	if (commit_of(t))
		rung_store_link(ev->store, commit_of(t), key);
	rung_error_clear();
	rung_result_clear(r);
	*r = cached; /* moved: r owns it now */
	r->cached = true;
	return 1;
}

int rung_eval_store_compiled(rung_result *r, rung_evaluator *ev, const rung_task *t, const rung_eval_opts *o)
{
	rung_status cs = r->steps[RUNG_STEP_COMPILE].status;
	if (!ev->store || !t->content[0] || (o->flags & RUNG_EVAL_NO_STORE) || t->launch_error[0] ||
	    (o->job_flags & (RUNG_JOB_PROFILE | RUNG_JOB_TRACE | RUNG_JOB_NO_BENCH | RUNG_JOB_SANITIZE)) ||
	    (cs != RUNG_S_OK && cs != RUNG_S_FAILED) || r->bench.valid ||
	    (r->steps[RUNG_STEP_RUN].status != RUNG_S_SKIPPED && r->steps[RUNG_STEP_RUN].status != RUNG_S_NONE &&
	     cs == RUNG_S_OK))
		return 0;
	/* a live result, or one recorded on a GPU, says more: left as it is */
	rung_result old;
	rung_result_init(&old);
	const char *commit = commit_of(t);
	bool keep = rung_store_get_content(&old, ev->store, t->content, NULL) == 0;
	rung_result_clear(&old);
	if (!keep && commit && rung_store_get_commit(&old, ev->store, commit, false) == 0)
		keep = true;
	rung_result_clear(&old);
	/* recorded ones are found by commit first, then by content (rung_recorded_lookup) */
	if (!keep && commit && rung_store_get_commit(&old, ev->store, commit, true) == 0)
		keep = !rung_result_compile_verdict(&old);
	rung_result_clear(&old);
	if (!keep && rung_store_get_recorded_content(&old, ev->store, t->content) == 0)
		keep = !rung_result_compile_verdict(&old);
	rung_result_clear(&old);
	rung_error_clear();
	if (keep)
		return 0;
	rung_result c; /* a copy: r stays the caller's verdict, as it was */
	char *json = rung_result_to_json(r);
	rung_result_init(&c);
	int ej = json ? rung_result_from_json(&c, json) : rung_error_set(RUNG_ENOMEM, "out of memory");
	free(json);
	if (ej < 0) {
		rung_result_clear(&c);
		return ej;
	}
	rung_result_key(c.key, t->content, "compile-only");
	c.recorded = true;
	c.cached = false;
	memset(&c.env, 0, sizeof(c.env));
	if (!c.created)
		c.created = (int64_t)time(NULL);
	/* what the other rungs wait for: a GPU (the compile rung needs none) */
	for (int s = RUNG_STEP_RUN; s < RUNG_NSTEPS; s++)
		if (c.steps[s].status == RUNG_S_SKIPPED || c.steps[s].status == RUNG_S_NONE) {
			c.steps[s].status = cs == RUNG_S_OK && s != RUNG_STEP_SANITIZE ? RUNG_S_SKIPPED : RUNG_S_NONE;
			copy_str(c.steps[s].reason, sizeof(c.steps[s].reason), c.steps[s].status ? "needs a GPU" : "");
		}
	char day[16] = "";
	time_t when = (time_t)c.created;
	struct tm tm;
	if (gmtime_r(&when, &tm))
		strftime(day, sizeof(day), "%Y-%m-%d", &tm);
	snprintf(c.recorded_note, sizeof(c.recorded_note), "compiled here (%s, %s) with no GPU%s",
		 c.compile.arch[0] ? c.compile.arch : "?", day, cs == RUNG_S_OK ? ": run, check and bench need one" : "");
	int e = rung_store_put(ev->store, &c, t->content, commit);
	rung_result_clear(&c);
	return e < 0 ? e : 1;
}

int rung_eval_store(rung_result *r, rung_eval_info *info, rung_evaluator *ev, const rung_task *t,
		    const rung_eval_opts *o)
{
	const rung_env *env = ev->env_read ? (ev->env.valid ? &ev->env : NULL) : rung_evaluator_env(ev);
	/* only live GPU results are stored as such; with no GPU, the compile rung's
	 * verdict is kept apart (#28 D-16) */
	if (uses_store(ev, t, o) && !env) {
		if (rung_eval_store_compiled(r, ev, t, o) < 0)
			rung_error_clear(); /* a lookup aid: the verdict stands without it */
		return 0;
	}
	if (!uses_store(ev, t, o) || !env || r->steps[RUNG_STEP_RUN].status == RUNG_S_SKIPPED ||
	    r->steps[RUNG_STEP_COMPILE].status == RUNG_S_NONE)
		return 0;
	rung_result_key(r->key, t->content, env->uuid);
	if (!r->env.valid)
		r->env = *env;
	if (!r->created)
		r->created = (int64_t)time(NULL);
	if (rung_store_put(ev->store, r, t->content, commit_of(t)) < 0) {
		if (info)
			copy_str(info->store_error, sizeof(info->store_error), rung_error_last());
		return rung_error_last_code() < 0 ? rung_error_last_code() : RUNG_ESTORE;
	}
	if (info)
		info->stored = true;
	return 1;
}


/* ---- no-op versions ---- */

/* The no-op key of t's compiled version: the content hash (app/task.h) with
 * the kernel's text replaced by its machine code (gpu/cubin.h) and its launch
 * geometry as written, so that two versions that differ only where nothing
 * runs share it. 0 and out set; 1 when the version has none (a path target, no
 * CUBIN). */
int rung_eval_noop_key(char out[65], const rung_task *t, const rung_compiled *kc)
{
	out[0] = 0;
	if (!t->vtask || !kc->cubin || !kc->cubin_len)
		return 1;
	char code[65];
	if (rung_cubin_code_key(code, kc->cubin, kc->cubin_len) < 0) {
		rung_error_clear();
		return 1;
	}
	rung_launch l;
	memset(&l, 0, sizeof(l));
	if (rung_launch_with_sidecar(&l, t->spec, t->kernel.src, t->kernel.path, t->sidecar, t->sidecar_len,
				     t->sidecar_path) < 0) {
		rung_error_clear();
		return 1;
	}
	char desc[2048];
	size_t n = (size_t)snprintf(desc, sizeof(desc), "rung no-op key 1\ncode %s\n", code);
	const rung_expr_src *e[] = {&l.grid[0], &l.grid[1], &l.grid[2], &l.block[0], &l.block[1], &l.block[2], &l.smem};
	for (size_t k = 0; k < sizeof(e) / sizeof(e[0]) && n < sizeof(desc); k++)
		n += (size_t)snprintf(desc + n, sizeof(desc) - n, "launch %zu %s\n", k, e[k]->text ? e[k]->text : "-");
	for (int k = 0; k < l.nscratch && n < sizeof(desc); k++) /* the sidecar's scratch (none: the key as before) */
		n += (size_t)snprintf(desc + n, sizeof(desc) - n, "scratch %s %lld\n", l.scratch[k].name,
				      (long long)l.scratch[k].per_program);
	rung_launch_clear(&l);
	rung_key_input in = {
		.kernel_src = desc,
		.ref_src = t->vtask->ref.text,
		.ref_headers = t->vtask->ref.headers,
		.nref_headers = t->vtask->ref.nheaders,
		.spec_text = t->vtask->spec_text,
		.options = t->vtask->options,
		.entry = t->ksrc && t->ksrc->entry ? t->ksrc->entry : NULL,
	};
	rung_content_hash(out, &in);
	return 0;
}

static bool noop_allowed(const rung_evaluator *ev, const rung_task *t, const rung_eval_opts *o)
{
	return uses_store(ev, t, o) && !(o->flags & RUNG_EVAL_FORCE) && !o->seed_set;
}

int rung_eval_noop(rung_result *r, rung_evaluator *ev, const rung_task *t, const rung_eval_opts *o,
		   const rung_compiled *kc)
{
	if (!noop_allowed(ev, t, o))
		return 0;
	const rung_env *env = rung_evaluator_env(ev);
	char nk[65], sk[65];
	if (!env || rung_eval_noop_key(nk, t, kc))
		return 0;
	rung_result_key(sk, nk, env->uuid);
	char *js = NULL;
	if (rung_store_get_extra(&js, ev->store, sk, "noop") != 0) {
		rung_error_clear();
		return 0;
	}
	json_t *j = json_loads(js, 0, NULL);
	free(js);
	const char *key = json_string_value(json_object_get(j, "key"));
	const char *rev = json_string_value(json_object_get(j, "rev"));
	rung_result prev;
	int found = key && rev && rung_store_get(&prev, ev->store, key) == 0;
	rung_error_clear();
	if (found && !strcmp(rev, t->rev)) { /* its own entry: a plain re-check */
		rung_result_clear(&prev);
		found = 0;
	}
	if (found)
		rung_eval_noop_apply(r, &prev, rev);
	json_decref(j);
	return found ? 1 : 0;
}

void rung_eval_noop_apply(rung_result *r, rung_result *prev, const char *rev)
{
	/* the earlier version's verdict and timing, under this version's own
	 * compile rung (the same machine code) and identity */
	rung_result keep = *r;
	prev->steps[RUNG_STEP_COMPILE] = keep.steps[RUNG_STEP_COMPILE];
	prev->compile = keep.compile;
	free(prev->compile_log);
	prev->compile_log = keep.compile_log;
	keep.compile_log = NULL;
	copy_str(prev->rev, sizeof(prev->rev), keep.rev);
	copy_str(prev->label, sizeof(prev->label), keep.label);
	copy_str(prev->noop_of, sizeof(prev->noop_of), rev);
	prev->key[0] = 0;
	prev->cached = false;
	prev->created = keep.created;
	copy_str(prev->worker, sizeof(prev->worker), keep.worker);
	rung_result_clear(&keep);
	*r = *prev; /* moved */
	rung_result_init(prev);
}

/* After a live result of t: its no-op key points at it unless an earlier
 * version holds the key already (the first one with this machine code). */
void rung_eval_noop_remember(const rung_result *r, rung_evaluator *ev, const rung_task *t, const rung_eval_opts *o,
			     const rung_compiled *kc)
{
	const rung_env *env = ev->env.valid ? &ev->env : NULL;
	char nk[65], sk[65];
	if (!noop_allowed(ev, t, o) || !env || !r->key[0] || r->noop_of[0] || !commit_of(t) ||
	    r->steps[RUNG_STEP_RUN].status == RUNG_S_SKIPPED || rung_eval_noop_key(nk, t, kc))
		return;
	rung_result_key(sk, nk, env->uuid);
	char *js = NULL;
	if (rung_store_get_extra(&js, ev->store, sk, "noop") == 0) {
		free(js);
		return;
	}
	json_t *j = json_pack("{s:s,s:s}", "key", r->key, "rev", t->rev);
	char *txt = j ? json_dumps(j, JSON_COMPACT) : NULL;
	if (txt)
		rung_store_put_extra(ev->store, sk, "noop", txt, r->created);
	free(txt);
	json_decref(j);
	rung_error_clear();
}

/* ---- sanitize ---- */

bool rung_sanitize_covers(const rung_result *r, unsigned tools)
{
	rung_status st = r->steps[RUNG_STEP_SANITIZE].status;
	return tools && (st == RUNG_S_OK || st == RUNG_S_FAILED) && (r->sanitize_tools & tools) == tools;
}

int rung_eval_sanitize(rung_result *r, rung_eval_info *info, rung_evaluator *ev, const rung_task *t,
		       const rung_eval_opts *o, const rung_compiled *kc, const rung_compiled *rc)
{
	unsigned tools = rung_eval_sanitize_tools(o, t);
	if (!tools || r->steps[RUNG_STEP_COMPILE].status != RUNG_S_OK || rung_sanitize_covers(r, tools))
		return 0;
	const rung_env *env = rung_evaluator_env(ev);
	if (!env || r->steps[RUNG_STEP_RUN].status == RUNG_S_SKIPPED) { /* nothing to run it on */
		r->steps[RUNG_STEP_SANITIZE].status = RUNG_S_SKIPPED;
		snprintf(r->steps[RUNG_STEP_SANITIZE].reason, sizeof(r->steps[0].reason), "%s",
			 r->steps[RUNG_STEP_RUN].status == RUNG_S_SKIPPED ? r->steps[RUNG_STEP_RUN].reason : "no GPU");
		return 0;
	}
	rung_compiled kc2, rc2;
	memset(&kc2, 0, sizeof(kc2));
	memset(&rc2, 0, sizeof(rc2));
	int e = 0;
	if (!kc) { /* a stored result: compile it here */
		rung_result tmp;
		rung_result_init(&tmp);
		int c = rung_eval_compile(&tmp, &kc2, &rc2, t, rung_eval_arch(ev, t));
		rung_result_clear(&tmp);
		if (c != 0) { /* it compiled when it was stored: rung's own trouble now */
			e = c < 0 ? c : rung_error_set(RUNG_ECOMPILE, "sanitize: the version no longer compiles");
			goto done;
		}
		kc = &kc2;
		rc = &rc2;
	}
	rung_job job;
	rung_task_job(&job, t, r->base_seed, true, 0);
	job.wrap = o->sanitize_wrap;
	job.cancel = o->cancel; /* its workers are killed on a cancel (a run may take minutes) */
	/* the tools a stored rung lacks (its findings of the others stay) */
	rung_status was = r->steps[RUNG_STEP_SANITIZE].status;
	unsigned run = was == RUNG_S_OK || was == RUNG_S_FAILED ? tools & ~r->sanitize_tools : tools;
	e = rung_sanitize_version(r, &job, kc, t->reference.src ? rc : NULL, run, o->progress, o->ud);
	if (e == 0 && info)
		info->sanitize_fresh = true;
	if (e == 0 && r->key[0] && r->steps[RUNG_STEP_SANITIZE].status != RUNG_S_SKIPPED &&
	    rung_eval_store(r, info, ev, t, o) < 0)
		rung_error_clear(); /* not stored: said in info->store_error */
done:
	rung_compiled_clear(&kc2);
	rung_compiled_clear(&rc2);
	return e;
}

/* ---- the GPU rungs ---- */

int rung_eval_gpu(rung_result *r, rung_eval_info *info, rung_evaluator *ev, const rung_task *t,
		  const rung_eval_opts *o, const rung_compiled *kc, const rung_compiled *rc)
{
	rung_evaluator_env(ev);
	if (!r->base_seed || o->seed_set)
		r->base_seed = o->seed_set ? o->seed : o->batch_seed ? o->batch_seed : rung_seed_fresh();
	rung_job job;
	rung_task_job(&job, t, r->base_seed, true, o->job_flags);
	job.budget_s = o->budget_s > 0 ? o->budget_s : 0;
	job.deadline_s = o->deadline_s > 0 ? o->deadline_s : 0;
	job.ceilings = ev->have_ceilings ? &ev->ceilings : NULL;
	if (!ev->w)
		return rung_error_set(RUNG_EINVAL, "no worker (opened for the compile rung only)");
	if (cancelled(o))
		return rung_error_set(RUNG_ETIMEOUT, "cancelled");
	if (rung_eval_noop(r, ev, t, o, kc) == 1) { /* the same machine code as an earlier version */
		if (info)
			info->noop = true;
		if (rung_eval_store(r, info, ev, t, o) < 0)
			rung_error_clear();
		return rung_eval_sanitize(r, info, ev, t, o, kc, rc);
	}
	int e = rung_evaluate_gpu(r, ev->w, &job, kc, t->reference.src ? rc : NULL, o->progress, o->ud);
	if (e < 0)
		return e;
	if (cancelled(o)) /* its worker was killed for the cancel: that verdict is no result of the version's */
		return rung_error_set(RUNG_ETIMEOUT, "cancelled");
	if (rung_eval_store(r, info, ev, t, o) < 0)
		rung_error_clear(); /* said in info->store_error */
	else
		rung_eval_noop_remember(r, ev, t, o, kc);
	return rung_eval_sanitize(r, info, ev, t, o, kc, rc);
}

/* ---- the whole evaluation ---- */

int rung_app_evaluate(rung_result *r, rung_eval_info *info, rung_evaluator *ev, const rung_task *t,
		      const rung_eval_opts *o, rung_compiled *kc, rung_compiled *rc)
{
	rung_eval_info scratch;
	if (!info)
		info = &scratch;
	memset(info, 0, sizeof(*info));
	rung_result_init(r);
	copy_str(r->label, sizeof(r->label), t->label ? t->label : t->kernel.path);
	copy_str(r->rev, sizeof(r->rev), t->rev[0] ? t->rev : t->kernel.path);
	r->created = (int64_t)time(NULL);
	r->run_dims = t->spec->dims;
	if (o->progress)
		o->progress(o->ud, RUNG_STEP_COMPILE, 0, t->kernel.path);
	/* compiled for the spec's arch, else the device's when known, else sm_90
	 * while the worker starts; a device of another arch gets it again */
	const char *arch = rung_eval_arch(ev, t);
	double t0 = rung_now_s();
	int c = rung_eval_compile(r, kc, rc, t, arch);
	rung_timing_lap("compile (NVRTC, kernel + reference)", t0);
	bool gpu = !(o->flags & RUNG_EVAL_COMPILE_ONLY);
	if (c == 0 && gpu && !(t->spec->arch && *t->spec->arch)) {
		const rung_env *env = rung_evaluator_env(ev);
		if (env && env->arch[0] && strcmp(env->arch, arch) != 0) {
			rung_compiled_clear(kc);
			rung_compiled_clear(rc);
			c = rung_eval_compile(r, kc, rc, t, env->arch);
		}
	}
	if (c < 0)
		return c;
	if (c == 1) {
		const rung_step *run = &r->steps[RUNG_STEP_RUN];
		if (run->status == RUNG_S_FAILED && run->cause == RUNG_CAUSE_REFERENCE) {
			info->reference_failed = true;
			copy_str(info->reference_error, sizeof(info->reference_error), rc->error[0] ? rc->error : run->reason);
		} else if (!gpu && rung_eval_store_compiled(r, ev, t, o) < 0) { /* it does not compile: kept too */
			rung_error_clear();
		}
		return 0;
	}
	if (o->progress)
		o->progress(o->ud, RUNG_STEP_COMPILE, 1, "ok");
	if (!gpu) {
		if (rung_eval_store_compiled(r, ev, t, o) < 0)
			rung_error_clear();
		return 0;
	}
	if (cancelled(o))
		return rung_error_set(RUNG_ETIMEOUT, "cancelled");
	if (rung_eval_lookup(r, ev, t, o) == 1) {
		info->cached = true;
		/* the PTX evidence of this compile (a record stored before the scan has none) */
		if (rung_ptxscan_result(r, kc->ptx, kc->ptx_len) < 0)
			rung_error_clear();
		return rung_eval_sanitize(r, info, ev, t, o, kc, rc);
	}
	return rung_eval_gpu(r, info, ev, t, o, kc, rc);
}

/* The check service (app/check.h). */
#include "app/check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/timing.h"
#include "app/suspects.h"
#include "vcs/store.h"

static void copy_msg(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src ? src : "");
}

static void fail(rung_check_result *c, int e)
{
	c->err = e < 0 ? e : RUNG_EIO;
	copy_msg(c->error, sizeof(c->error), rung_error_last());
}

int rung_check(rung_check_result *c, const rung_check_request *req)
{
	memset(c, 0, sizeof(*c));
	rung_result_init(&c->r);
	c->compile_only = req->compile_only;
	unsigned flags = (req->compile_only ? RUNG_EVAL_COMPILE_ONLY : 0) | (req->force ? RUNG_EVAL_FORCE : 0);
	/* the worker starts first: its CUDA context (the longest lap of a check,
	 * docs/BENCHMARKS.md) is made while the task and the store are read and
	 * the kernel compiles; a warm one has it already */
	rung_evaluator own;
	memset(&own, 0, sizeof(own));
	rung_evaluator *ev = req->warm && !req->compile_only ? req->warm : &own;
	int e = ev == &own ? rung_evaluator_open(&own, NULL, flags) : 0;
	if (e < 0) {
		fail(c, e);
		return c->err;
	}
	double t0 = rung_now_s();
	if ((e = rung_task_resolve(&c->task, req->target, &req->where)) < 0) {
		fail(c, e);
		if (ev == &own)
			rung_evaluator_detach(&own); /* the worker quits on its own */
		return c->err;
	}
	c->loaded = true;
	const rung_task *t = &c->task;
	t0 = rung_timing_lap("task load (spec, sources, git)", t0);
	/* the one evaluation (app/evaluate.h): a version from git goes through
	 * the store (a re-check of the same content on the same GPU is a cache
	 * hit) unless force or a seed; a path target is never stored */
	rung_store *store = NULL;
	if (t->repo && !req->compile_only && rung_store_open_repo(&store, t->repo) < 0) {
		snprintf(c->store_warning, sizeof(c->store_warning), "%s", rung_error_last());
		rung_error_clear();
		store = NULL;
	}
	rung_timing_lap("store open", t0);
	rung_eval_opts eo = {
		.flags = flags,
		.seed = req->seed,
		.seed_set = req->seed_set,
		.budget_s = req->budget_s,
		.deadline_s = req->deadline_s,
		.sanitize_set = req->sanitize_set,
		.sanitize = req->sanitize,
		.progress = req->progress,
		.ud = req->ud,
		.cancel = req->cancel,
	};
	c->sanitize_tools = rung_eval_sanitize_tools(&eo, t);
	rung_evaluator_target(ev, store, t);
	e = rung_app_evaluate(&c->r, &c->info, ev, t, &eo, &c->kc, &c->rc);
	rung_evaluator_target(ev, NULL, NULL); /* the store closes below; a warm evaluator keeps none */
	if (e < 0)
		fail(c, e);
	if (e == 0 && c->info.reference_failed) {
		/* the task itself is broken: said apart (info.reference_error), not as
		 * a rung of the kernel's (also when the kernel failed too, as both do
		 * on the spec's arch or options) */
		c->r.steps[RUNG_STEP_RUN].status = RUNG_S_NONE;
		c->r.steps[RUNG_STEP_RUN].reason[0] = 0;
	}
	c->sanitize_fresh = c->info.sanitize_fresh || !c->info.cached;
	if (ev == &own)
		rung_evaluator_detach(&own); /* the verdict first: the worker's CUDA teardown happens after it, unwaited */
	else if (ev->w && !(req->cancel && *req->cancel))
		rung_worker_prestart(ev->w); /* it died or faulted: a fresh one makes its context before the next check */
	rung_store_close(store);
	return c->err;
}

void rung_check_result_clear(rung_check_result *c)
{
	rung_compiled_clear(&c->kc);
	rung_compiled_clear(&c->rc);
	rung_result_clear(&c->r);
	rung_task_clear(&c->task); /* also what a failed load left */
	memset(c, 0, sizeof(*c));
}

/* ---- the warm evaluator ---- */

int rung_check_warm_open(rung_evaluator *ev)
{
	return rung_evaluator_open(ev, NULL, 0);
}

void rung_check_warm_reset(rung_evaluator *ev)
{
	if (!ev->w)
		return;
	rung_worker_finish(ev->w, 0); /* killed, if it still runs, and reaped */
	rung_error_clear();
	rung_worker_prestart(ev->w);  /* a fresh one makes its CUDA context before the next call */
}

void rung_check_warm_close(rung_evaluator *ev)
{
	rung_evaluator_detach(ev);
}

/* ---- the one JSON form ---- */

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

json_t *rung_check_to_json(const rung_check_result *c)
{
	const rung_result *r = &c->r;
	const rung_task *t = &c->task;
	json_t *o = json_object();
	if (!o || !c->loaded)
		return o;
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
	json_t *sus = json_array(); /* evidence, also with compile_only (docs/CHECKS.md) */
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
	json_object_set_new(o, "kernel", source_json(&t->kernel, &c->kc, kerr));
	if (t->reference.src)
		json_object_set_new(o, "reference", source_json(&t->reference, &c->rc, c->info.reference_error));
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
	return o;
}

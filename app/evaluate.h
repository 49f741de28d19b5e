/* The one evaluation of a version, for every command and the workbench:
 *
 *   lookup (the store: same content on the same device) -> compile (NVRTC, the
 *   kernel and the reference at once) -> worker (run, check, bench, or
 *   profile/trace) -> speed-of-light guard (the datasheet ceilings, raised by
 *   measured ones from the store where those are higher) -> sanitize -> store.
 *
 * rung_app_evaluate() does all of it for one version; the pipeline
 * (app/pipeline.h) calls the same phases with compiles running ahead on other
 * threads. Nothing here prints or exits: progress goes to the caller's
 * callback with the worker protocol's real fraction and message, errors are
 * negative rung_err codes with the message set, and a verdict's cause is typed
 * (rung_step.cause), never read from text. */
#ifndef RUNG_APP_EVALUATE_H
#define RUNG_APP_EVALUATE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/result.h"
#include "gpu/compile.h"
#include "gpu/worker.h"
#include "app/task.h"
#include "vcs/store.h"

/* One worker, the device it reports, and the store results go to: opened once
 * per command or workbench session and used for every version. */
typedef struct {
	rung_worker *w;      /* owned; NULL with RUNG_EVAL_COMPILE_ONLY */
	rung_store *store;   /* borrowed; NULL: nothing looked up or stored */
	bool env_read;
	rung_env env;        /* env.valid false: no GPU (no_gpu says why) */
	char no_gpu[512];
	/* The measured ceilings of env's device (vcs/ceil_store.h), given to
	 * every job for the speed-of-light guard when have_ceilings. */
	rung_ceilings ceilings;
	bool have_ceilings;
	/* A task outside the store's repository (a path target): its ceilings
	 * come from the store of the repository the path is in, when it has one. */
	const rung_task *ceil_task;
} rung_evaluator;

enum {
	RUNG_EVAL_COMPILE_ONLY = 1 << 0, /* the compile rung only: no worker */
	RUNG_EVAL_FORCE = 1 << 1,        /* run again even when the store has the result */
	RUNG_EVAL_NO_STORE = 1 << 2,     /* neither look up nor store */
};

/* Opens the worker (started now, so that its CUDA context is created while the
 * caller compiles) unless flags has RUNG_EVAL_COMPILE_ONLY. store may be NULL.
 * Never fails for a missing GPU: the device is read at the first GPU rung. */
int rung_evaluator_open(rung_evaluator *ev, rung_store *store, unsigned flags);
/* The device (waits for the worker's hello the first time); NULL when there is
 * no GPU, with ev->no_gpu saying why. */
const rung_env *rung_evaluator_env(rung_evaluator *ev);
/* The store (may be NULL) and the path target whose repository gives the
 * measured ceilings (may be NULL) of the next evaluations on an evaluator that
 * is kept between them (app/check.h's warm one): the ceilings are those a
 * fresh evaluator would read for them. A device that could not be read
 * because the worker was lost is read again. */
void rung_evaluator_target(rung_evaluator *ev, rung_store *store, const rung_task *ceil_task);
/* Closes the worker and waits for it. */
void rung_evaluator_close(rung_evaluator *ev);
/* For a process about to exit: the worker is told to quit and not waited for. */
void rung_evaluator_detach(rung_evaluator *ev);

typedef struct {
	unsigned flags;     /* RUNG_EVAL_* */
	unsigned job_flags; /* RUNG_JOB_* (gpu/worker.h): PROFILE, SASS, TRACE, NO_BENCH; these never use the store */
	uint64_t seed;
	bool seed_set;      /* a given seed: run, never from the store */
	/* The batch's seed (rung_evaler_run_all draws one per batch): every
	 * version of the batch is checked on the same inputs; unlike a given
	 * seed it leaves the store and no-op reuse on. 0: a fresh one per version. */
	uint64_t batch_seed;
	double budget_s;    /* bench budget; <= 0 or NAN: the default */
	double deadline_s;  /* the worker's deadline for the job; <= 0: its default (rung_job.deadline_s) */
	bool sanitize_set;  /* else the spec's [check] sanitize */
	unsigned sanitize;  /* RUNG_SAN_BIT mask */
	const char *const *sanitize_wrap; /* rung_job.wrap of the sanitize rung (a pool's local worker) */
	rung_progress_fn progress; /* may be NULL */
	void *ud;
	/* Set by any thread: the evaluation stops before its GPU rungs (after
	 * the compile) with RUNG_ETIMEOUT, "cancelled", and a sanitize rung in
	 * flight has its worker under compute-sanitizer killed (rung_job.cancel).
	 * NULL: never. */
	const volatile int *cancel;
} rung_eval_opts;

/* What happened besides the verdict in the result. */
typedef struct {
	bool cached;          /* the GPU rungs came from the store */
	bool sanitize_fresh;  /* the sanitize rung ran now */
	bool stored;          /* the result was written (or linked to the commit) */
	char store_error[512];/* the result could not be stored: why (not an error of the evaluation) */
	bool noop;            /* the same machine code as an earlier version: its verdict reused (r->noop_of) */
	bool reference_failed;/* the reference does not compile (the task is broken): run FAILED, cause REFERENCE */
	char reference_error[512];
} rung_eval_info;

/* The sanitize tools o asks for on task t (0: none). */
unsigned rung_eval_sanitize_tools(const rung_eval_opts *o, const rung_task *t);

/* The whole evaluation of task t's version into r (initialised here), with kc
 * and rc (filled here, caller frees) for callers that show the compiled code.
 * Returns 0 with a verdict in r (faults, timeouts and no GPU are verdicts:
 * FAILED or SKIPPED rungs), or negative for rung's own failure. */
int rung_app_evaluate(rung_result *r, rung_eval_info *info, rung_evaluator *ev, const rung_task *t,
		      const rung_eval_opts *o, rung_compiled *kc, rung_compiled *rc);

/* ---- the phases, for the pipeline ---- */

/* The target arch: the spec's, else the device's when it is known, else sm_90. */
const char *rung_eval_arch(const rung_evaluator *ev, const rung_task *t);

/* Compiles the kernel and the reference (on two threads) into r's compile
 * rung, with the PTX evidence (suspects). Thread-safe; needs no worker.
 * Returns 0 when both compiled, 1 when r holds the verdict (the kernel does
 * not compile: compile FAILED; the reference does not: run FAILED with cause
 * RUNG_CAUSE_REFERENCE), negative on rung's own errors. */
int rung_eval_compile(rung_result *r, rung_compiled *kc, rung_compiled *rc, const rung_task *t, const char *arch);

/* The stored result of t's content on ev's device into r (replacing it; the
 * commit is linked to it): 1 found (r->cached), 0 not (or not looked up: no
 * store, no GPU, RUNG_EVAL_FORCE, a seed, profile/trace flags). */
int rung_eval_lookup(rung_result *r, rung_evaluator *ev, const rung_task *t, const rung_eval_opts *o);

/* A no-op version (docs/CHECKS.md "No-op versions"): when an earlier commit
 * of the task with the same machine code (every section of the CUBIN that
 * runs, gpu/cubin.h), launch geometry as written, spec, options and reference
 * has a live result on ev's device, r (holding the compile rung) becomes that
 * result under r's own identity and compile rung, with r->noop_of naming the
 * commit: 1. 0 otherwise, and never with RUNG_EVAL_FORCE, a seed, a profiling
 * run or a path target (no store). */
int rung_eval_noop(rung_result *r, rung_evaluator *ev, const rung_task *t, const rung_eval_opts *o,
		   const rung_compiled *kc);

/* The no-op key of t's compiled version (the content hash with the kernel's
 * text replaced by its machine code and launch geometry): 0 and out set, 1
 * when it has none (a path target, no CUBIN). */
int rung_eval_noop_key(char out[65], const rung_task *t, const rung_compiled *kc);
/* r (holding this version's compile rung) becomes prev, the result of the
 * earlier commit rev with the same machine code, under r's own identity,
 * compile rung and worker; prev is moved (left empty). */
void rung_eval_noop_apply(rung_result *r, rung_result *prev, const char *rev);
/* After a live result r of t is stored: its no-op key points at it unless an
 * earlier version holds the key already. */
void rung_eval_noop_remember(const rung_result *r, rung_evaluator *ev, const rung_task *t, const rung_eval_opts *o,
			     const rung_compiled *kc);

/* The GPU rungs of a compiled version (r holds the compile rung), unless it
 * is a no-op version (rung_eval_noop), then the sanitize rung and the store. Returns 0 or negative (rung's own failure). */
int rung_eval_gpu(rung_result *r, rung_eval_info *info, rung_evaluator *ev, const rung_task *t,
		  const rung_eval_opts *o, const rung_compiled *kc, const rung_compiled *rc);

/* The sanitize rung of r (fresh or from the store) when o asks for tools r
 * does not cover yet; kc/rc NULL: compiled here. A result of a live GPU is
 * stored again with the rung. 0 or negative. */
int rung_eval_sanitize(rung_result *r, rung_eval_info *info, rung_evaluator *ev, const rung_task *t,
		       const rung_eval_opts *o, const rung_compiled *kc, const rung_compiled *rc);

/* Stores r (a live GPU result) under t's content on ev's device and links t's
 * commit. 1 stored, 0 nothing to store (no store, no GPU, skipped, profile
 * run), negative on a store error (also in info->store_error when info). */
int rung_eval_store(rung_result *r, rung_eval_info *info, rung_evaluator *ev, const rung_task *t,
		    const rung_eval_opts *o);

/* Keeps the verdict of a compile rung run with no GPU (none here, or
 * RUNG_EVAL_COMPILE_ONLY) so that log, brief and the workbench show it on the
 * next run instead of "not evaluated" (#28 D-16): stored apart from live
 * results, as a recorded one with no device under the key of t's content and
 * "compile-only", its note saying what it is ("compiled here (sm_90,
 * 2026-12-02), no GPU: run, check and bench need one"). Never over a recorded
 * result from a GPU or beside a live one for the same content; a GPU
 * evaluation later measures the version as if it had none. 1 stored, 0
 * nothing to keep, negative on a store error. */
int rung_eval_store_compiled(rung_result *r, rung_evaluator *ev, const rung_task *t, const rung_eval_opts *o);

/* The one job builder: a worker job for task t's version (its kernel and the
 * headers it includes at the same revision, the reference and its headers),
 * the seed and RUNG_JOB_* flags. */
void rung_task_job(rung_job *job, const rung_task *t, uint64_t seed, bool seed_set, unsigned flags);

/* True when r's sanitize rung ran with every tool of `tools` (ok or FAILED). */
bool rung_sanitize_covers(const rung_result *r, unsigned tools);

#endif

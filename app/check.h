/* The check service: one version of a task through the whole ladder, for
 * every front end (`rung check`, the MCP server's check tool, the tests). The
 * request names the task as the one resolver takes it (-C / dir, --task /
 * task, --spec-rev / spec_rev, and TASKDIR|FILE|REV / rev) with the options;
 * the result holds the loaded task, the verdict, the compiled code and what
 * happened besides. Nothing here prints or exits, and nothing depends on who
 * asks: the front ends differ only in the evaluator they lend (a one-shot one,
 * or the MCP server's warm one, whose worker keeps its CUDA context between
 * calls) and in how they show the result (cli/check_view.h: the rung lines,
 * the exit code; rung_check_to_json: the one JSON form, for `rung check
 * --json` and MCP's structuredContent alike). */
#ifndef RUNG_APP_CHECK_H
#define RUNG_APP_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "app/evaluate.h"
#include "app/task.h"

typedef struct {
	rung_task_where where;  /* -C DIR, --task DIR, --spec-rev REV (each may be NULL) */
	const char *target;     /* TASKDIR, FILE or REV; NULL: the task's working tree */
	bool compile_only;      /* the compile rung only: no worker, no GPU */
	bool force;             /* run the GPU rungs even when the store has this content's result */
	bool seed_set;
	uint64_t seed;          /* with seed_set: this base seed (a REV: run, never from the store) */
	double budget_s;        /* bench budget; <= 0 or NAN: the default */
	double deadline_s;      /* the worker's deadline for the job; <= 0: its default */
	bool sanitize_set;      /* else the spec's [check] sanitize */
	unsigned sanitize;      /* RUNG_SAN_BIT mask */
	rung_progress_fn progress; /* may be NULL */
	void *ud;
	/* Set (by any thread) when the caller no longer wants the answer: the
	 * check stops at the next phase (after the compile, before the GPU rungs)
	 * with err RUNG_ETIMEOUT, "cancelled". NULL: never. */
	const volatile int *cancel;
	/* A warm evaluator (rung_check_warm_open), borrowed: its worker and device
	 * are used and kept. NULL: one is opened for this check (the worker starts
	 * before the task loads, so that its CUDA context is made meanwhile) and
	 * detached at the end. Never used for compile_only: a compile-only check
	 * compiles for the spec's arch or sm_90 whoever asks. After a check whose
	 * worker died or faulted (a sticky CUDA error ends it), a fresh worker is
	 * started at once, unless the check was cancelled. */
	rung_evaluator *warm;
} rung_check_request;

typedef struct {
	/* 0: the check ran and r holds its verdict. Negative: it did not run to a
	 * verdict; loaded says whether the task was read (false: the target, the
	 * task or its files were refused, RUNG_EUSAGE/RUNG_ESPEC/...; true:
	 * rung's own failure during the evaluation). error: the message. */
	int err;
	bool loaded;
	char error[1024];
	rung_task task;         /* valid when loaded */
	rung_result r;          /* the verdict (a reference that does not compile: no run rung, info.reference_failed) */
	rung_compiled kc, rc;   /* the kernel's and the reference's compiled code */
	rung_eval_info info;
	bool compile_only;
	unsigned sanitize_tools; /* the tools the sanitize rung was asked for (0: none) */
	bool sanitize_fresh;    /* the sanitize rung ran now (not from the store) */
	char store_warning[512]; /* the store could not be opened: why ("" when it was, or none was needed) */
} rung_check_result;

/* Runs the check req describes into *out (initialised here; clear it with
 * rung_check_result_clear whatever it returns). Returns out->err. */
int rung_check(rung_check_result *out, const rung_check_request *req);
void rung_check_result_clear(rung_check_result *c);

/* The result as the one JSON object (docs/RESULT-JSON.md, docs/schema/
 * check.schema.json): task, dir, arch, rev, cached, status, steps, suspects,
 * result, seed, kernel, reference, launch. Only for a result with loaded set
 * and err 0 or a failure during the evaluation. Caller decrefs; NULL: out of memory. */
json_t *rung_check_to_json(const rung_check_result *c);

/* A warm evaluator for a long-lived front end (rung mcp): its worker is
 * started now, without waiting for its hello; the device is read at the first
 * check that needs it. 0 or negative (out of memory). */
int rung_check_warm_open(rung_evaluator *ev);
/* After a check that was cancelled (its worker killed), or whose worker died
 * or faulted: the worker is reaped and a fresh one started, so that the next
 * check finds a live worker with its CUDA context. */
void rung_check_warm_reset(rung_evaluator *ev);
/* The end: the worker is told to quit and not waited for (gpu/children.h reaps it). */
void rung_check_warm_close(rung_evaluator *ev);

#endif

/* `rung compare` as a service (#26 item 1): two versions of one task timed
 * against each other in one worker, interleaved, every launch verified
 * (gpu/worker/compare.c), with a verdict; without a GPU, what their compiles
 * tell (registers, spills, shared memory, the SASS instruction mix and diff).
 * The CLI prints the line or the static table (cli/cmd_compare.c), `--json`
 * and the MCP compare tool the one JSON form (rung_compare_to_json). Prints
 * nothing. */
#ifndef RUNG_APP_COMPARE_H
#define RUNG_APP_COMPARE_H

#include <stdbool.h>

#include "core/sass.h"
#include "core/stats.h"
#include "app/sanitize_gate.h"
#include "app/session.h"
#include "app/task.h"
#include "app/textdiff.h"
#include "gpu/worker.h"

struct json_t;

typedef struct {
	const rung_task *a, *b; /* loaded (rung_task_load_target); A's spec judges both */
	double budget;          /* seconds of interleaved rounds */
	bool allow_shared;      /* the timing verdict even when another process was on the GPU (else SHARED) */
	bool raw_sass;          /* without a GPU: the SASS diff line by line with nvdisasm's names */
	/* told before the side called faster is sanitized ("A" or "B"): the
	 * front end says the run is going on (may be NULL) */
	void (*on_sanitize)(void *ud, const char *side);
	void *ud;
} rung_compare_req;

typedef enum {
	RUNG_COMPARE_SAME,     /* identical machine code: not timed */
	RUNG_COMPARE_FAILED,   /* a version does not compile, the run failed, too few samples (reason) */
	RUNG_COMPARE_SKIPPED,  /* no GPU: the static comparison (a, b, diff) and why (reason) */
	RUNG_COMPARE_DISAGREE, /* a verified launch did not match (ab.reason): no timing verdict */
	RUNG_COMPARE_TIMED,    /* cmp's verdict, or SHARED (held) */
	RUNG_COMPARE_OTHER_GPU, /* stored: A and B were timed on different GPU models (other says which) */
} rung_compare_kind;

/* One side of the comparison that needs no GPU. */
typedef struct {
	char name[160];     /* "a1b2c3d sgemm: tile it" or the kernel's path */
	const rung_kinfo *k;
	char *sass;         /* nvdisasm's listing, NULL when unavailable */
	rung_sass_mix mix;
	char sass_err[256]; /* why there is no SASS */
} rung_compare_side;

typedef struct {
	rung_compare_kind kind;
	char reason[1024];
	rung_ab ab;           /* the rounds */
	rung_compare cmp;     /* RUNG_COMPARE_TIMED: the ratio of medians with its interval */
	char shared[512];     /* the other processes on the GPU ("" none) */
	bool held;            /* shared and not allow_shared: SHARED, the timing not trusted */
	/* rung_compare_stored: the stored results' bench samples compared */
	bool stored;
	bool other_gpu;       /* timed on different GPU models (compared with any_gpu) */
	char other[512];      /* which models */
	char gpu_a[128], gpu_b[128];
	int n_a, n_b;         /* their sample counts */
	/* RUNG_COMPARE_TIMED, FASTER or SLOWER: the side called faster is
	 * sanitized before the verdict stands (app/sanitize_gate.h, rung_gate_task,
	 * stored with its result where there is a store) */
	const char *gate_side;   /* "A", "B", or NULL: no side was called faster */
	rung_gate_state gate_state;
	char gate_detail[800];   /* the `sanitize B: ...` line's words */
	char gate_error[512];    /* rung's own failure of the run ("" none; then UNSANITIZED) */
	/* RUNG_COMPARE_SKIPPED */
	rung_compare_side a, b;
	rung_sbs diff;        /* the SASS diff a -> b */
	char diff_err[256];   /* why there is none ("" there is) */
	bool raw;
	char error[1024];
	/* owned */
	rung_compiled ka, kb;
} rung_compare_result;

/* Compares req->a and req->b. 0 with out->kind set, or RUNG_EIO: rung's own
 * failure (the worker), out->error saying what ("" when the worker could
 * not be started: nothing more to say). Clear with rung_compare_result_clear
 * either way. */
int rung_compare_run(rung_compare_result *out, const rung_compare_req *req);
void rung_compare_result_clear(rung_compare_result *r);

/* --stored: the verdict from the stored results of revisions a and b of c's
 * task (c opened with RUNG_VCTX_TASK and a store), their bench samples
 * compared as the workbench's compare screen does; nothing runs. A result
 * missing or without timing is FAILED (reason); results timed on different
 * GPU models are OTHER_GPU unless any_gpu; another process on the GPU during
 * either is SHARED (held) unless allow_shared. 0 with out->kind set, or a
 * negative rung_err with the message set: a revision that is not a version
 * of the task (RUNG_EINVAL and git's codes), the rows not read (RUNG_EIO). */
int rung_compare_stored(rung_compare_result *out, rung_vctx *c, const char *a, const char *b, bool allow_shared,
			bool any_gpu);
/* "SAME", "FAILED", "SKIPPED", "DISAGREE", "SHARED" or cmp's verdict (FASTER,
 * SLOWER, ...). A side called faster that fails the sanitizer keeps the
 * timing's verdict; its gate_state says FAILED (exit 1 in the CLI). */
const char *rung_compare_verdict(const rung_compare_result *r);
/* {"verdict", ...}: the one JSON form of `rung compare --json` and the MCP
 * compare tool (its reals to 6 significant digits as --json prints them),
 * with "sanitize": {"version": "a"|"b", "state", "detail"} when a side was
 * called faster. */
struct json_t *rung_compare_to_json(const rung_compare_result *r);

#endif

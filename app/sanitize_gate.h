/* The sanitize gate (#25, docs/CHECKS.md "No version is recommended before
 * it passed the sanitizer"): a version that would become best, be called
 * FASTER by `rung compare`, or be shown to the agent as the one to build on
 * (`rung brief`, the MCP brief) first passes a sanitize run with the gate's
 * tools (memcheck, racecheck, synccheck; initcheck when the spec's [check]
 * sanitize lists it), once per distinct machine code, stored with its
 * result. Until it has passed, it is not best; a failed run makes it not
 * best, with the reason; where the run cannot happen (no compute-sanitizer,
 * no GPU) the best is provisional and every view says so.
 *
 * Typed and silent like the rest of app/: the state of a result, whether it
 * needs the run, the run for one version (for the workbench's background
 * job too), the recommended version of a list of rows, and the batch step
 * that `rung eval` runs after its versions. */
#ifndef RUNG_APP_SANITIZE_GATE_H
#define RUNG_APP_SANITIZE_GATE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"
#include "core/spec.h"
#include "app/pipeline.h"
#include "app/session.h"

/* The gate's tools on top of the spec's: memcheck, racecheck, synccheck. */
#define RUNG_GATE_BASE_TOOLS \
	(RUNG_SAN_BIT(RUNG_SAN_MEMCHECK) | RUNG_SAN_BIT(RUNG_SAN_RACECHECK) | RUNG_SAN_BIT(RUNG_SAN_SYNCCHECK))
/* Versions the batch step sanitizes at most, one after another, while each
 * one fails and the next fastest becomes the candidate. */
#define RUNG_GATE_MAX_TRIES 4

/* The gate states: id, name (JSON `sanitize_state`; the views' words come
 * from rung_gate_describe). */
#define RUNG_GATE_LIST(_) \
	_(NA, "none")                    /* not a candidate: not passed, or not timed */ \
	_(NOT_SANITIZED, "not-sanitized") /* passed, no run with every gate tool yet */ \
	_(SANITIZING, "sanitizing")       /* the run is going on (a front end's background job) */ \
	_(SANITIZED, "sanitized")         /* passed the run with every gate tool */ \
	_(FAILED, "failed")               /* the run found something: not best */ \
	_(UNSANITIZED, "unsanitized")     /* the run cannot happen here (no compute-sanitizer, no GPU) */

typedef enum {
#define RUNG_GATE_ENUM(id, name) RUNG_GATE_##id,
	RUNG_GATE_LIST(RUNG_GATE_ENUM)
#undef RUNG_GATE_ENUM
	RUNG_NGATE
} rung_gate_state;

const char *rung_gate_name(rung_gate_state s);

/* The tools of the gate for a task with this spec (RUNG_SAN_BIT mask). */
unsigned rung_gate_tools(const rung_spec *spec);

/* The state of a stored result r under the gate's tools: FAILED when its
 * sanitize rung FAILED, SANITIZED when it ran OK with every tool, NA when it
 * did not pass the other rungs or has no timing, else NOT_SANITIZED. */
rung_gate_state rung_gate_of(const rung_result *r, unsigned tools);

/* True when r is a candidate the gate has not judged yet (NOT_SANITIZED). */
bool rung_gate_needs(const rung_result *r, unsigned tools);

/* Why the gate cannot run on this machine, into buf ("no compute-sanitizer"),
 * or false when it can as far as is known without starting a worker (a GPU
 * is found out only by the run: it then says "no GPU"). */
bool rung_gate_unavailable(char *buf, size_t len);

/* One phrase for the views: "sanitized (memcheck, racecheck, synccheck;
 * benchmark shape covered)", "sanitized (...; racecheck over the 60 s limit
 * at the benchmark shape)", "sanitize failed: racecheck: race ...", "not
 * sanitized", "unsanitized (no compute-sanitizer)". why: the reason of an
 * UNSANITIZED state (NULL: looked up with rung_gate_unavailable). */
void rung_gate_describe(char *buf, size_t len, const rung_result *r, unsigned tools, const char *why);

/* The benchmark-shape coverage of r's sanitize rung, for a line: "" when
 * every tool covered it, else "racecheck: over the 60 s limit at the
 * benchmark shape (not covered there)" (tools joined with "; "). */
void rung_gate_bench_note(char *buf, size_t len, const rung_result *r);

/* The recommended version of rows (newest first, as rung_vctx_rows gives
 * them), under the gate:
 * - candidate: the fastest passing version (rung_vrows_best), which a failed
 *   sanitize run has already left out;
 * - best: the candidate when it is SANITIZED; else the fastest SANITIZED
 *   version when there is one (the candidate is then `pending`); else the
 *   candidate, provisional (nothing has passed the gate yet).
 * -1 where none. */
typedef struct {
	int best, candidate;
	rung_gate_state best_state, candidate_state;
	bool provisional; /* best is not SANITIZED */
	bool pending;     /* candidate != best: faster, but not sanitized yet */
} rung_gate_pick;
void rung_gate_pick_rows(rung_gate_pick *out, const rung_vrow *rows, int n, unsigned tools);

/* The run for one version v of e's task whose stored result is *r (updated
 * in place and stored again, under its own key): the gate tools r lacks. A
 * result of the same machine code (a no-op version and the commit it
 * copies, found among rows when rows is not NULL) that has the run already
 * gives it without running; after a run, those results get it too.
 * progress: the sanitize rung's. *reused: taken from such a result (may be
 * NULL). Returns the new state (UNSANITIZED with
 * why set when it cannot run) or negative (rung's own failure). */
int rung_gate_run(rung_result *r, rung_evaler *e, const rung_version *v, const rung_vrow *rows, int nrows,
		  rung_progress_fn progress, void *ud, char *why, size_t whylen, bool *reused);

/* The gate for one task version outside a batch (`rung compare`'s FASTER
 * side): its stored result in ev's store when there is one (then the run is
 * stored with it), else a result holding only its compile rung; the gate's
 * tools it lacks run now (ev's device; the task compiled here). *state: the
 * state after it (UNSANITIZED with why: it cannot run here). r is
 * initialised here; the caller clears it. Returns 0 or negative. */
int rung_gate_task(rung_result *r, rung_gate_state *state, rung_evaluator *ev, const rung_task *t,
		   rung_progress_fn progress, void *ud, char *why, size_t whylen);

/* The recommended version of c's task under the gate as JSON, for the MCP
 * brief's structured content: {"version", "short", "state", "provisional",
 * "detail", "pending": {"version", "short", "state", "detail"} or null};
 * null when no version has passed. A new reference (json_t *). */
void *rung_gate_best_json(rung_vctx *c);

/* What the batch step did, for the caller to show. */
typedef enum { RUNG_GATE_EV_START, RUNG_GATE_EV_DONE } rung_gate_event_kind;
typedef struct {
	rung_gate_event_kind kind;
	const rung_version *v;
	const rung_result *r;   /* DONE: the result with its sanitize rung */
	rung_gate_state state;  /* DONE */
	double median_ms;       /* the candidate's */
	bool reused;            /* DONE: taken from a result of the same machine code */
	const char *why;        /* DONE, UNSANITIZED: why */
	unsigned tools;         /* the gate's tools (rung_gate_tools) */
} rung_gate_event;
typedef void (*rung_gate_event_fn)(void *ud, const rung_gate_event *ev);

typedef struct {
	int ran, failed;           /* versions sanitized now, and of those failed */
	rung_gate_pick pick;       /* after the step */
	char best_id[41];          /* rows[pick.best]'s commit ("" none) */
	char best_short[16];
	char why[512];             /* UNSANITIZED: why the run could not happen */
} rung_gate_report;

/* The batch step (`rung eval`, after its versions): while the candidate of
 * e's task (rung_gate_pick_rows over every version) is NOT_SANITIZED, run
 * the gate for it (rung_gate_run); when it fails, the next fastest becomes
 * the candidate, up to RUNG_GATE_MAX_TRIES versions. Nothing runs without a
 * GPU or without compute-sanitizer: the report says why and the best stays
 * provisional. on_event (may be NULL) hears of each version; progress gets
 * the sanitize rung's progress. Returns 0 or negative. */
int rung_gate_batch(rung_gate_report *rep, rung_evaler *e, rung_gate_event_fn on_event, rung_progress_fn progress,
		    void *ud);

#endif

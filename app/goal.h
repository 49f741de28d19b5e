/* The outer loop's stop rule (docs/CLI.md, "The stop rule"): from the task's
 * [goal] (core/spec.h), its stored results and the person's task-wide `done`
 * verdict, whether the ladder should go on or stop, and why. Computed here
 * only; `rung brief`, `rung log`, the MCP brief and check tools and the
 * workbench's title bar and plot read it. Prints nothing. */
#ifndef RUNG_APP_GOAL_H
#define RUNG_APP_GOAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/result.h"
#include "core/roofline_fit.h"
#include "core/spec.h"
#include "app/session.h"

/* _(ID, name): the states, stop ones after CONTINUE. */
#define RUNG_STOP_LIST(_) \
	_(CONTINUE, "continue") \
	_(GOAL_MET, "goal met") \
	_(PLATEAU, "plateau") \
	_(BUDGET, "budget spent") \
	_(DONE, "done by the person")

typedef enum {
#define RUNG_STOP_ENUM(id, name) RUNG_STOP_##id,
	RUNG_STOP_LIST(RUNG_STOP_ENUM)
#undef RUNG_STOP_ENUM
	RUNG_NSTOPS
} rung_stop_state;

const char *rung_stop_name(rung_stop_state s); /* "goal met" */

/* One version as the rule reads it (the caller's array, oldest first). */
typedef struct {
	const rung_result *r;  /* NULL: not evaluated */
	char short_id[12];     /* "7ab6146" */
	bool baseline;         /* the person's `baseline` verdict */
	bool rejected;         /* the person's `reject` verdict: never the best */
} rung_goal_version;

/* The person's task-wide `done` verdict (rung note --task-wide --done), when
 * one is in force (not reopened). */
typedef struct {
	bool in_force;
	char reason[256];
	char who[128];
	int64_t time;
	char id[RUNG_DIRECTIVE_ID_LEN + 1];
	char version[12]; /* the version its note is on */
} rung_goal_done;

/* How a version reads in the rule and on the plot. */
typedef enum {
	RUNG_GP_NONE = 0, /* not evaluated */
	RUNG_GP_FAILED,   /* a rung failed */
	RUNG_GP_IGNORED,  /* passed, but suspect, timed beside another process, or not timed */
	RUNG_GP_COUNTED,  /* counts toward the goals */
} rung_goal_point_kind;

typedef struct {
	rung_goal_point_kind kind;
	double ms;       /* its median (NAN: not timed) */
	double best_ms;  /* the fastest counted median up to here (NAN: none yet) */
	double roof_pct; /* its percent of the roof that fits it (NAN: unknown) */
	bool gain;       /* counted, and faster than the best so far beyond the noise */
} rung_goal_point;

typedef struct rung_goal_status {
	rung_stop_state state;
	const char *which;   /* what stopped it: "roof", "speedup", "plateau", "versions", "done"; "" */
	bool has_goal;       /* the spec has a [goal] */
	rung_goal_spec goal;
	bool recorded;       /* computed on recorded results (no live result at all) */
	int evaluated;       /* versions with a result (the budget counts these) */
	int counted;         /* versions that count */
	int since_gain;      /* counted versions since the last gain */
	int best;            /* index of the fastest counted version (-1: none) */
	int baseline;        /* index of the baseline (-1: none) */
	int roof_best;       /* index of the counted version nearest its roof (-1: none) */
	double roof_pct, roof_lo, roof_hi; /* of roof_best, and its ~95% interval */
	rung_fit_roof roof;  /* the roof of roof_best */
	double speedup, speedup_lo, speedup_hi; /* of best over the baseline (NAN: unknown) */
	int met_by;          /* index of the version that met the goal (-1) */
	rung_goal_done done;
	int n;
	rung_goal_point *points; /* one per version, oldest first (owned) */
	const rung_goal_version *v; /* the caller's array (valid while it is) */
	rung_goal_version *own_v;   /* rung_goal_of_rows: its array and recorded results (owned) */
	rung_result **own_rec;
	int nown;
	char line[512];      /* "STOP: goal met: 86% of the FP32 roof (target 80%) by 53c0aa4 ..." or "CONTINUE: ..." */
} rung_goal_status;

/* The rule on versions v[0..n) (oldest first): dt is the data type that picks
 * the tensor roof (rung_goal_dtype), measured the device's measured ceilings
 * (may be NULL), done the person's verdict (may be NULL). g may be NULL or
 * hold no goal: the state is CONTINUE (or DONE) with the figures. 0 or
 * RUNG_ENOMEM. Free with rung_goal_status_clear. */
int rung_goal_compute(rung_goal_status *out, const rung_goal_spec *g, rung_dtype dt, const rung_goal_version *v, int n,
		      const rung_goal_done *done, const rung_ceilings *measured);
void rung_goal_status_clear(rung_goal_status *s);
/* Marks s as computed on recorded results (no live one), its line saying so. */
void rung_goal_set_recorded(rung_goal_status *s, bool recorded);
/* The title bar's short form: "STOP: goal met (82% of the DRAM roof)",
 * "CONTINUE: 19% of the TF32 tensor roof, goal 80%". */
void rung_goal_short(char *buf, size_t len, const rung_goal_status *s);

/* The state as JSON (the MCP brief and check tools, rung log --json):
 * {"state": "goal met", "stop": true, "which": "roof", "line": "STOP: ...",
 * "goal": {roof, speedup, plateau, versions: absent when not set},
 * "evaluated", "counted", "since_gain", "recorded", "best", "baseline",
 * "roof": {"pct", "lo", "hi", "name", "bound", "version"}, "speedup": {"x", "lo", "hi"},
 * "met_by", "done": {"reason", "who", "id"}}; versions as short ids, absent
 * figures null. NULL on ENOMEM. */
struct json_t;
struct json_t *rung_goal_to_json(const rung_goal_status *s);

/* The data type of a task for its roof: its first output's (f32 when none). */
rung_dtype rung_goal_dtype(const rung_spec *spec);

/* The done verdict in force among these notes: the newest task-wide `done`
 * directive that the person has not closed (reopened). */
void rung_goal_done_of_notes(rung_goal_done *out, const rung_note *const *notes, int n);

/* The task's state (c opened with a task and a store), from rows (newest
 * first, as rung_vctx_rows gives them: all of the task's versions): their
 * live results, or, when none has one, their recorded ones; the done verdict
 * from their notes; the spec's [goal]. The status owns what its v points to.
 * 0 or a negative rung_err. */
int rung_goal_of_rows(rung_goal_status *out, rung_vctx *c, const rung_vrow *rows, int n);
/* The same, reading every version of c's task. */
int rung_goal_load(rung_goal_status *out, rung_vctx *c);

#endif

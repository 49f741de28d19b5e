/* `rung log`'s rows as a service (#26 item 1): the versions of a task, newest
 * first, each with its live result, its recorded one where it has none, and
 * the baselines the deltas are taken against. The CLI turns a rung_log into
 * the table, CSV or JSON lines (cli/cmd_log.c); the MCP server's log tool into
 * structured content and the same table (cli/cmd_mcp.c). Prints nothing. */
#ifndef RUNG_APP_LOG_H
#define RUNG_APP_LOG_H

#include "app/sanitize_gate.h"
#include "app/session.h"

struct json_t;

typedef struct {
	const char *range; /* only these versions (a git range, A..B); NULL: all */
	int max;           /* the newest max versions only; 0: all */
	bool goal;         /* the stop rule's line over every version of the task (the table's last line) */
} rung_log_req;

typedef struct {
	rung_vrow *rows; /* the rows asked for, newest first */
	int n;
	rung_result **rec;        /* per row: its recorded result when it has no live one, else NULL */
	const rung_result *base;  /* the task's baseline's live result (in every version, not only those shown); NULL */
	int base_shown;           /* the baseline's index in rows, -1 when not among them */
	const rung_result *base_rec; /* the baseline of recorded results (never mixed with live ones); NULL */
	int base_rec_shown;       /* its index in rows, -1 */
	const rung_vrow *base_row; /* the baseline's row (live, else recorded), among every version; NULL */
	bool any_recorded;        /* a row shows a recorded result (--csv's recorded column) */
	bool has_goal;            /* goal_line is set (asked for, rows shown, the state computed) */
	char goal_line[512];      /* "STOP: ..." or "CONTINUE: ..." (app/goal.h) */
	/* the recommended version under the sanitize gate (app/sanitize_gate.h),
	 * over every version: gate.best and gate.candidate index all */
	unsigned gate_tools;      /* the gate's tools for the task's spec */
	bool gate_unavailable;    /* the run cannot happen here: gate_why says why */
	char gate_why[128];
	rung_gate_pick gate;
	int gate_best_shown;      /* gate.best's index in rows, -1 when none or not shown */
	/* owned: every version (== rows when the request takes them all) and their recorded results */
	rung_vrow *all;
	int nall;
	rung_result **recall;
} rung_log;

/* The rows of c's task (c opened with RUNG_VCTX_TASK | RUNG_VCTX_STORE_READ).
 * 0 or a negative rung_err with the message set: a bad range is the
 * request's (RUNG_EUSAGE or the history's code); git or a damaged store met
 * after the rows were read is RUNG_EIO. Clear with rung_log_clear either way. */
int rung_log_load(rung_log *out, rung_vctx *c, const rung_log_req *req);
void rung_log_clear(rung_log *l);

/* r timed on another GPU model than base (a mixed pool, another machine's
 * results; rung_results_other_gpu): no speedup, no change (rung compare
 * --stored says OTHER_GPU), and --json's "other_gpu" names r's model. */
bool rung_log_other_gpu(const rung_result *r, const rung_result *base);
/* The speedup over the baseline (t_base / t, core/stats.h) and the relative
 * delta of the median: NAN when either is not timed or r is on another GPU model. */
double rung_log_speedup(const rung_result *r, const rung_result *base);
double rung_log_delta(const rung_result *r, const rung_result *base);
/* The first line of a row's note: its newest directive (with status, "[done] ..."
 * when it is no longer open), else its remark's first line ("" none). */
const char *rung_log_note_line(const rung_vrow *r, char *buf, size_t len, bool status);

/* Row i's sanitize gate state for JSON (rung_gate_name): "not-sanitized"
 * becomes "unsanitized" where the run cannot happen here. */
const char *rung_log_gate_state(const rung_log *l, int i);

/* Row i as JSON, the one serializer of `rung log --json` (a line each) and
 * the MCP log tool's rows: rev, short, subject, steps, sanitize_state and
 * best (the gate's recommended version), the metrics of the metric table, median_ms, deltas (other_gpu where
 * the row was timed on another GPU model than the baseline), verdict, note, the whole result and, for a
 * row with no live one, its recorded result. NULL on ENOMEM. */
struct json_t *rung_log_row_to_json(const rung_log *l, int i);

#endif

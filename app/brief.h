/* `rung brief` as a service (#26 item 1): what the agent's brief of a task
 * says, gathered once: the versions with their results, the stop rule's
 * line, best and baseline, the roofline floor, the best version's stall
 * samples, the recorded results, and the person's notes with what is new
 * since the last marked brief. The CLI writes it as markdown
 * (cli/cmd_brief.c); the MCP server's brief tool sends the same markdown.
 * Prints nothing. */
#ifndef RUNG_APP_BRIEF_H
#define RUNG_APP_BRIEF_H

#include <stdint.h>

#include "core/stall.h"
#include "app/sanitize_gate.h"
#include "app/session.h"

typedef struct {
	/* With mark (the agent's --mark), what is new is remembered as seen and
	 * the time of this brief kept; without it, a brief changes nothing. */
	bool mark;
	int64_t now; /* the time of this brief (the marks') */
} rung_brief_req;

/* One item of "From the person since": a verdict (k -1) or directive k of
 * notes[note] (answer -1), or the person's reopen of directive k (its
 * answers[answer], rung note --reopen ID), new since the last marked brief. */
typedef struct {
	int note, k, answer;
} rung_brief_new;

typedef struct {
	rung_vrow *rows; /* every version of the task, newest first */
	int n, evaluated;
	int best, base;  /* the best under the sanitize gate (gate.best), rung_vrows_baseline: -1 none */
	unsigned gate_tools; /* the sanitize gate's tools for the task's spec */
	rung_gate_pick gate; /* the gate's pick over rows (app/sanitize_gate.h) */
	bool has_goal;
	char goal_line[512]; /* the stop rule's line (app/goal.h) */
	double floor_ms;     /* the first stored floor among the rows (NAN: none) */
	const char *floor_from; /* its GPU */
	bool best_sampled;   /* best_stall holds the best version's stored samples */
	rung_stall best_stall;
	/* recorded results (rung import) of versions with no live one */
	int nrec, rec_best;  /* how many; the fastest passing one's row (-1) */
	rung_result *rec_best_r;
	/* the compile rung's verdicts kept here with no GPU (#28 D-16;
	 * rung_result_compile_verdict): not measurements, so not in nrec. Per
	 * row: its kept verdict, else NULL (n entries; NULL when none) */
	int ncomp;
	rung_result **compiled;
	/* The person's notes on the task's versions (notes[0..nnotes) of the
	 * store's list, in its order), each one's "abc1234 \"subject\"" */
	bool notes_read;     /* notes, marks and last_brief were read (else the sections are left out, error set) */
	bool since_read;     /* the "since" header can be written (the last brief's time was read) */
	rung_note *notes;
	int nnotes, nall;
	char (*subjects)[320];
	bool have_last;
	int64_t last_brief;
	rung_brief_new *fresh; /* in order */
	int nfresh;
	/* reading a mark failed after fresh[0..nfresh): nothing after "since"'s items (error set) */
	bool seen_failed;
	/* with mark: the mark that could not be kept ("" when it was), and
	 * whether the store is read-only (a warning then, else an error) */
	bool mark_kept_not;  /* with mark: a mark could not be kept (mark_failed says why) */
	char mark_failed[700];
	bool mark_readonly;
	char err[1024]; /* the message of notes_read false / seen_failed */
} rung_brief;

/* The brief of c's task (c opened with RUNG_VCTX_TASK | RUNG_VCTX_STORE_READ).
 * 0, or a negative rung_err when the versions could not be read (nothing
 * to show). A failure to read the notes or marks comes later, in the
 * result (notes_read, seen_failed), with what could be read before it.
 * Clear with rung_brief_clear either way. */
int rung_brief_load(rung_brief *out, rung_vctx *c, const rung_brief_req *req);
void rung_brief_clear(rung_brief *b);

#endif

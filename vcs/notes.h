/* Steering notes: refs/notes/rung, one note per commit, in a readable text form
 * that `git notes --ref=rung show REV` shows as is:
 *
 *   verdict: baseline
 *   * 2026-11-29 21:50 Ada Lovelace: the naive version, kept as the yardstick
 *   - 2026-11-29 22:05 Ada Lovelace: try 2-D register blocking
 *   x 2026-11-29 22:40 Ada Lovelace: use float4 loads
 *
 *   - 2026-11-29 22:50 Ada Lovelace: [task-wide] never loosen tolerances
 *   x 2026-11-29 23:00 Ada Lovelace: try 64x64 tiles
 *     > declined 2026-11-30 09:12 [3c452f7a] claude: smem would exceed 48 KiB at this occupancy
 *
 * Each dated line is an entry. "- " is a directive for the agent, open; "x " a
 * directive closed (`rung note --done`, an answer); "* " a remark: a comment on
 * the version (why a verdict, what was seen) that asks nothing of the agent, so
 * it is never open and never closed. A directive whose text starts with
 * "[task-wide] " is aimed at the task as a whole, not at the next version.
 * An indented "  > " line under a directive is its answer: done, declined (by
 * the agent: `rung note --ack/--decline`, `rung mcp`'s ack_directive) or closed
 * (by the person: `rung note --close`), with the time, the version that
 * answered it in brackets (optional), who, and the reason. Lines of any other
 * form are kept verbatim (other), so notes written before answers existed read
 * as they did, and older rung versions keep the answer lines as text.
 * Adding an entry appends a line; a verdict replaces the old one. */
#ifndef RUNG_VCS_NOTES_H
#define RUNG_VCS_NOTES_H

#include <stdbool.h>
#include <stdint.h>

#include "vcs/repo.h"

#define RUNG_NOTES_REF "refs/notes/rung"

/* Same order and names as tui/model/model.h's rung_verdict (a cast converts). */
typedef enum {
	RUNG_NOTE_NONE = 0,
	RUNG_NOTE_KEEP,
	RUNG_NOTE_REJECT,
	RUNG_NOTE_BASELINE,
	RUNG_NOTE_BEST,
} rung_note_verdict;

const char *rung_note_verdict_name(rung_note_verdict v); /* "keep", "" for NONE */
int rung_note_verdict_parse(rung_note_verdict *out, const char *s); /* RUNG_EINVAL if unknown */

/* What an entry is, as rung_note_add_entry writes it. */
typedef enum {
	RUNG_ENTRY_DIRECTIVE = 0, /* "- ": a directive, open */
	RUNG_ENTRY_DONE,          /* "x ": a directive, closed */
	RUNG_ENTRY_REMARK,        /* "* ": a remark, not a directive */
} rung_entry_kind;

typedef struct rung_note rung_note;

/* How a directive was answered ("  > WORD ..." under it). */
typedef enum {
	RUNG_ANSWER_NONE = 0,
	RUNG_ANSWER_DONE,     /* the agent did it */
	RUNG_ANSWER_DECLINED, /* the agent declined it, with its reason */
	RUNG_ANSWER_CLOSED,   /* the person closed it */
	RUNG_ANSWER_REOPENED, /* the person reopened it (after a close or an answer): open again */
} rung_answer_kind;
/* "done", "declined", "closed", "reopened"; "" for NONE */
const char *rung_answer_name(rung_answer_kind k);
int rung_answer_parse(rung_answer_kind *out, const char *s); /* RUNG_EINVAL if unknown */
/* Whether an answer of this kind is the person's (closed, reopened), not the agent's. */
bool rung_answer_by_person(rung_answer_kind k);

/* One answer line ("  > KIND DATE [VERSION] AUTHOR: reason"). */
typedef struct {
	rung_answer_kind kind;
	int64_t time;
	char author[128];
	char version[41];
	char *text; /* owned, may be NULL */
} rung_answer_rec;

/* An entry of a note (directives and remarks alike, in the note's order). */
typedef struct {
	int64_t time;      /* unix seconds (minute resolution, local time as written) */
	char author[128];
	char *text;        /* owned; without the "[task-wide] " marker */
	bool done;         /* a directive closed ("x " line); never set on a remark */
	bool remark;       /* a remark ("* " line): not a directive */
	bool task_wide;    /* "[task-wide] ": aimed at the task, not at the next version */
	/* "[task-wide] [done] ": the person's verdict that the task is done (the
	 * stop rule, app/goal.h), in force until the person closes it (reopens
	 * the task); text is the reason */
	bool task_done;
	/* the answer, when there is one */
	rung_answer_kind answer;
	int64_t answer_time;
	char answer_author[128];
	char answer_version[41]; /* the commit that answered it ("" not said) */
	char *answer_text;       /* the reason (owned, may be NULL) */
	/* Every answer line, oldest first (docs/CLI.md, "Directive status"): the
	 * one above is the standing answer, the person's last close where that is
	 * the person's last word (an agent's later answer is kept beside it, never
	 * in its place), else the last answer; after the person's reopen with no
	 * later answer it is the reopen itself, and the directive is open.
	 * Owned; nanswers 0 for a directive never answered. */
	rung_answer_rec *answers;
	int nanswers;
} rung_directive;

/* Where a directive's status is: open, or its answer (done without an answer
 * line reads as done: `rung note --done` and older notes). */
typedef enum { RUNG_DSTATUS_OPEN = 0, RUNG_DSTATUS_DONE, RUNG_DSTATUS_DECLINED, RUNG_DSTATUS_CLOSED } rung_dstatus;
rung_dstatus rung_directive_status(const rung_directive *d);
/* The index in d->answers of the standing answer (the person's last answer
 * when it is a close, else the last answer); -1 when there is no history. */
int rung_directive_standing(const rung_directive *d);
const char *rung_dstatus_name(rung_dstatus s); /* "open", "done", "declined", "closed" */

/* A directive's id: 8 hex digits of sha256 over the note's commit, the entry's
 * time, author and text (and its rank among identical entries of the note), so
 * it stays the same across re-reads, answers and other writers' edits.
 * n->commit must be set (rung_note_read and rung_notes_list set it). */
#define RUNG_DIRECTIVE_ID_LEN 8
void rung_directive_id(char out[RUNG_DIRECTIVE_ID_LEN + 1], const rung_note *n, int k);

struct rung_note {
	char commit[41];
	rung_note_verdict verdict;
	int ndirectives;   /* entries: directives and remarks (see remark) */
	rung_directive *directives;
	char *other;       /* lines rung does not understand, kept verbatim (owned, may be NULL) */
};

/* Parses / formats the text form. Parsing never fails on odd lines: they go to other. */
int rung_note_parse(rung_note *out, const char *text);
char *rung_note_format(const rung_note *n); /* caller frees */
void rung_note_clear(rung_note *n);

/* Reads the note of commit REV; RUNG_ENOTFOUND if it has none. */
int rung_note_read(rung_note *out, rung_repo *r, const char *rev);

/* Appends a directive (text may be NULL or "") and/or sets the verdict
 * (RUNG_NOTE_NONE keeps the current one) on REV's note. `now` is the
 * directive's time (0: the current time). Author and committer come from
 * git config (user.name/user.email), else "rung <rung@localhost>". */
int rung_note_add(rung_repo *r, const char *rev, rung_note_verdict verdict, const char *text, int64_t now);
/* The same, with the entry's kind: a directive (what rung_note_add writes), a
 * directive already closed, or a remark. */
int rung_note_add_entry(rung_repo *r, const char *rev, rung_note_verdict verdict, rung_entry_kind kind,
			const char *text, int64_t now);

/* Whether entry d is a directive that is still open (not done, not a remark). */
bool rung_directive_open(const rung_directive *d);

/* Answers the directive `id` (rung_directive_id) of REV's note: closes it
 * (RUNG_ANSWER_REOPENED: opens it again) and writes its answer line (kind,
 * now, the signature's name, the answering version `version` (may be NULL or
 * ""), the reason (may be NULL)). The same answer as the last one writes
 * nothing. RUNG_ENOTFOUND: no such directive on REV; RUNG_EINVAL: id names a
 * remark; RUNG_EUSAGE: a reopen of a directive that is open. */
int rung_note_answer(rung_repo *r, const char *rev, const char *id, rung_answer_kind kind, const char *version,
		     const char *reason, int64_t now);

/* The text of a directive aimed at the task as a whole starts with this (stripped when read). */
#define RUNG_TASK_WIDE_MARK "[task-wide] "
/* After it, the person's task-wide `done` verdict starts with this (stripped when read: task_done). */
#define RUNG_TASK_DONE_MARK "[done] "

/* Marks every open directive of REV's note done (remarks are left as they are). */
int rung_note_close_all(rung_repo *r, const char *rev);
/* Sets REV's verdict to exactly `verdict`; RUNG_NOTE_NONE clears it (a note left
 * with nothing in it is removed). Directives are kept. */
int rung_note_set_verdict(rung_repo *r, const char *rev, rung_note_verdict verdict);

/* Every note under refs/notes/rung (order unspecified). */
int rung_notes_list(rung_note **out, int *n, rung_repo *r);
void rung_notes_free(rung_note *v, int n);

#endif

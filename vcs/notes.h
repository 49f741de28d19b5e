/* Steering notes: refs/notes/rung, one note per commit, in a readable text form
 * that `git notes --ref=rung show REV` shows as is:
 *
 *   verdict: baseline
 *   * 2026-11-29 21:50 Ada Lovelace: the naive version, kept as the yardstick
 *   - 2026-11-29 22:05 Ada Lovelace: try 2-D register blocking
 *   x 2026-11-29 22:40 Ada Lovelace: use float4 loads
 *
 * Each dated line is an entry. "- " is a directive for the agent, open; "x " a
 * directive closed (`rung note --done`); "* " a remark: a comment on the
 * version (why a verdict, what was seen) that asks nothing of the agent, so it
 * is never open and never closed. Lines of any other form are kept verbatim
 * (other). Adding an entry appends a line; a verdict replaces the old one. */
#ifndef RUNG_VCS_NOTES_H
#define RUNG_VCS_NOTES_H

#include <stdbool.h>
#include <stdint.h>

#include "vcs/repo.h"

#define RUNG_NOTES_REF "refs/notes/rung"

/* Same order and names as tui/model.h's rung_verdict (a cast converts). */
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

/* An entry of a note (directives and remarks alike, in the note's order). */
typedef struct {
	int64_t time;      /* unix seconds (minute resolution, local time as written) */
	char author[128];
	char *text;        /* owned */
	bool done;         /* a directive closed ("x " line); never set on a remark */
	bool remark;       /* a remark ("* " line): not a directive */
} rung_directive;

typedef struct {
	char commit[41];
	rung_note_verdict verdict;
	int ndirectives;   /* entries: directives and remarks (see remark) */
	rung_directive *directives;
	char *other;       /* lines rung does not understand, kept verbatim (owned, may be NULL) */
} rung_note;

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

/* Marks every open directive of REV's note done (remarks are left as they are). */
int rung_note_close_all(rung_repo *r, const char *rev);
/* Sets REV's verdict to exactly `verdict`; RUNG_NOTE_NONE clears it (a note left
 * with nothing in it is removed). Directives are kept. */
int rung_note_set_verdict(rung_repo *r, const char *rev, rung_note_verdict verdict);

/* Every note under refs/notes/rung (order unspecified). */
int rung_notes_list(rung_note **out, int *n, rung_repo *r);
void rung_notes_free(rung_note *v, int n);

#endif

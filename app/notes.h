/* `rung notes` as a service (#26 item 1): every steering note
 * (refs/notes/rung), newest commit first, each with its version; with a
 * task, those on that task's versions only. The CLI prints them
 * (cli/cmd_notes.c). Prints nothing. */
#ifndef RUNG_APP_NOTES_H
#define RUNG_APP_NOTES_H

#include "app/session.h"

typedef struct {
	const rung_note *note; /* in rung_notes_view.notes */
	rung_version v;        /* its commit (id and short id only when git does not know it) */
} rung_notes_item;

typedef struct {
	rung_note *notes;
	int nnotes;
	rung_notes_item *items; /* newest commit first */
	int n;
} rung_notes_view;

/* The notes of c's repository, or of c's task's versions when task_only (c
 * opened with RUNG_VCTX_TASK). 0 or a negative rung_err (git). Clear with
 * rung_notes_view_clear either way. */
int rung_notes_view_load(rung_notes_view *out, rung_vctx *c, bool task_only);
void rung_notes_view_clear(rung_notes_view *v);

#endif

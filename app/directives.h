/* The person's directives on a task, with their status (vcs/notes.h): the
 * list `rung brief`, `rung note --ack` and `rung mcp`'s directives and
 * ack_directive tools share, and answering one by its id. Prints nothing. */
#ifndef RUNG_APP_DIRECTIVES_H
#define RUNG_APP_DIRECTIVES_H

#include "app/session.h"

typedef struct {
	const rung_note *note;  /* the note that holds it (in rung_directives.notes) */
	int k;                  /* its index in note->directives */
	const rung_directive *d;
	char id[RUNG_DIRECTIVE_ID_LEN + 1];
	char short_id[12];      /* the version it is on */
	char subject[256];
	int64_t version_time;
} rung_directive_item;

typedef struct {
	rung_note *notes;
	int nnotes;
	rung_directive_item *items; /* directives only (no remarks): the task's versions newest first, each note in order */
	int n;
} rung_directives;

/* The directives in the notes of c's task's versions (c opened with a task),
 * or of every note when c has none. 0 or a negative rung_err. */
int rung_directives_load(rung_directives *out, rung_vctx *c);
void rung_directives_clear(rung_directives *d);

/* The item with this id (or a unique prefix of 4 or more hex digits): its
 * index, or RUNG_ENOTFOUND / RUNG_EUSAGE (malformed or ambiguous: exit 2) with the message set. */
int rung_directives_find(const rung_directives *d, const char *id);

/* Answers directive `id` of c's task: done or declined (the agent) or closed
 * (the person), with the reason, stored in its note. The answering version is
 * the task's newest version at `version` (a revision; NULL: HEAD); its commit
 * goes to answered_by when not NULL. RUNG_ENOTFOUND: no such directive;
 * RUNG_EUSAGE: malformed or ambiguous id. Every answer is kept (vcs/notes.h rung_directive
 * answers); the same answer again writes nothing and returns 0. */
int rung_directive_answer(rung_vctx *c, const char *id, rung_answer_kind kind, const char *version,
			  const char *reason, char answered_by[41]);

/* The same for the directive whose full id is `id` on commit's note, without
 * listing the task's directives (the workbench, which knows the version):
 * RUNG_ENOTFOUND when that note has no such directive (now). */
int rung_directive_answer_on(rung_vctx *c, const char *commit, const char *id, rung_answer_kind kind,
			     const char *version, const char *reason, char answered_by[41]);

#endif

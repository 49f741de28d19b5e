#include "app/directives.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "vcs/history.h"

static int by_commit(const void *a, const void *b)
{
	return strcmp(((const rung_note *)a)->commit, ((const rung_note *)b)->commit);
}

void rung_directives_clear(rung_directives *d)
{
	rung_notes_free(d->notes, d->nnotes);
	free(d->items);
	memset(d, 0, sizeof(*d));
}

static int push_items(rung_directives *out, int *cap, const rung_note *nt, const rung_version *v)
{
	for (int k = 0; k < nt->ndirectives; k++) {
		if (nt->directives[k].remark)
			continue;
		if (out->n == *cap) {
			int nc = *cap ? *cap * 2 : 16;
			rung_directive_item *ni = realloc(out->items, (size_t)nc * sizeof(*ni));
			if (!ni)
				return rung_error_set(RUNG_ENOMEM, "out of memory");
			out->items = ni;
			*cap = nc;
		}
		rung_directive_item *it = &out->items[out->n++];
		memset(it, 0, sizeof(*it));
		it->note = nt;
		it->k = k;
		it->d = &nt->directives[k];
		rung_directive_id(it->id, nt, k);
		snprintf(it->short_id, sizeof(it->short_id), "%.7s", nt->commit);
		if (v) {
			snprintf(it->subject, sizeof(it->subject), "%s", v->subject);
			it->version_time = v->time;
		}
	}
	return 0;
}

int rung_directives_load(rung_directives *out, rung_vctx *c)
{
	memset(out, 0, sizeof(*out));
	int e = rung_notes_list(&out->notes, &out->nnotes, c->repo);
	if (e < 0)
		return e;
	if (out->nnotes == 0)
		return 0;
	qsort(out->notes, (size_t)out->nnotes, sizeof(*out->notes), by_commit);
	int cap = 0;
	if (!c->task.kernel_path) { /* no task: every note, by commit */
		for (int i = 0; i < out->nnotes && e == 0; i++)
			e = push_items(out, &cap, &out->notes[i], NULL);
		if (e < 0)
			rung_directives_clear(out);
		return e;
	}
	rung_history_opts ho = {.kernel_path = c->task.kernel_path};
	rung_history *h = NULL;
	if ((e = rung_history_open(&h, c->repo, &ho)) < 0) {
		rung_directives_clear(out);
		return e;
	}
	rung_version v;
	while ((e = rung_history_next(&v, h)) == 0) {
		rung_note key;
		memset(&key, 0, sizeof(key));
		snprintf(key.commit, sizeof(key.commit), "%s", v.id);
		const rung_note *nt = bsearch(&key, out->notes, (size_t)out->nnotes, sizeof(*out->notes), by_commit);
		if (nt && (e = push_items(out, &cap, nt, &v)) < 0)
			break;
	}
	rung_history_free(h);
	if (e < 0) {
		rung_directives_clear(out);
		return e;
	}
	return 0;
}

int rung_directives_find(const rung_directives *d, const char *id)
{
	size_t len = strlen(id);
	if (len < 4 || len > RUNG_DIRECTIVE_ID_LEN || strspn(id, "0123456789abcdef") != len)
		return rung_error_set(RUNG_EUSAGE, "'%s': a directive id is %d hex digits (a prefix of 4 or more works)", id,
				      RUNG_DIRECTIVE_ID_LEN);
	int found = -1;
	for (int i = 0; i < d->n; i++) {
		if (strncmp(d->items[i].id, id, len))
			continue;
		if (found >= 0 && strcmp(d->items[found].id, d->items[i].id))
			return rung_error_set(RUNG_EUSAGE, "directive id %s is ambiguous (%s, %s): give more digits", id,
					      d->items[found].id, d->items[i].id);
		found = i;
	}
	if (found < 0)
		return rung_error_set(RUNG_ENOTFOUND, "no directive %s on this task (`rung brief` lists them with their ids)", id);
	return found;
}

/* The answering version: the task's newest at `version` (NULL: HEAD), or
 * `version` itself without a task; "" for the work tree. */
static int answering_version(char by[41], rung_vctx *c, const char *version)
{
	by[0] = 0;
	if (c->task.kernel_path) {
		rung_history_opts ho = {.kernel_path = c->task.kernel_path, .range = version};
		rung_history *h = NULL;
		rung_version v;
		int e = rung_history_open(&h, c->repo, &ho);
		int got = e < 0 ? e : rung_history_next(&v, h);
		rung_history_free(h);
		if (got < 0)
			return got;
		if (got == 0 && !v.worktree)
			snprintf(by, 41, "%s", v.id);
	} else if (version) {
		char rid[41];
		int e = rung_repo_resolve(rid, c->repo, version);
		if (e < 0)
			return e;
		if (strcmp(rid, "WORKTREE"))
			snprintf(by, 41, "%s", rid);
	}
	return 0;
}

/* The same answer again is kept once (vcs/notes.c): a retry is not an error. */
static int answer_checked(rung_vctx *c, const char *commit, const char *full, rung_answer_kind kind,
			  const char *version, const char *reason, char answered_by[41])
{
	char by[41];
	int e = answering_version(by, c, version);
	if (e < 0)
		return e;
	e = rung_note_answer(c->repo, commit, full, kind, by, reason, 0);
	if (e == 0 && answered_by)
		snprintf(answered_by, 41, "%s", by);
	return e;
}

int rung_directive_answer(rung_vctx *c, const char *id, rung_answer_kind kind, const char *version,
			  const char *reason, char answered_by[41])
{
	if (answered_by)
		answered_by[0] = 0;
	rung_directives ds;
	int e = rung_directives_load(&ds, c);
	if (e < 0)
		return e;
	int i = rung_directives_find(&ds, id);
	if (i < 0) {
		rung_directives_clear(&ds);
		return i;
	}
	const rung_directive_item *it = &ds.items[i];
	char full[RUNG_DIRECTIVE_ID_LEN + 1], commit[41];
	snprintf(full, sizeof(full), "%s", it->id);
	snprintf(commit, sizeof(commit), "%s", it->note->commit);
	rung_directives_clear(&ds);
	return answer_checked(c, commit, full, kind, version, reason, answered_by);
}

int rung_directive_answer_on(rung_vctx *c, const char *commit, const char *id, rung_answer_kind kind,
			     const char *version, const char *reason, char answered_by[41])
{
	if (answered_by)
		answered_by[0] = 0;
	rung_note nt;
	int e = rung_note_read(&nt, c->repo, commit);
	if (e == RUNG_ENOTFOUND)
		return rung_error_set(RUNG_ENOTFOUND, "no directive %s on %.7s: it has no note", id, commit);
	if (e < 0)
		return e;
	int found = -1;
	for (int k = 0; k < nt.ndirectives && found < 0; k++) {
		char kid[RUNG_DIRECTIVE_ID_LEN + 1];
		rung_directive_id(kid, &nt, k);
		if (!nt.directives[k].remark && !strcmp(kid, id))
			found = k;
	}
	if (found < 0) {
		rung_note_clear(&nt);
		return rung_error_set(RUNG_ENOTFOUND, "no directive %s on %.7s (another writer changed it? R reloads)", id,
				      commit);
	}
	char full[41];
	snprintf(full, sizeof(full), "%s", nt.commit);
	rung_note_clear(&nt);
	return answer_checked(c, full, id, kind, version, reason, answered_by);
}

/* rung notes' list (app/notes.h). */
#include "app/notes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"

static int by_time(const void *a, const void *b)
{
	const rung_notes_item *x = a, *y = b;
	return x->v.time < y->v.time ? 1 : x->v.time > y->v.time ? -1 : strcmp(x->v.id, y->v.id);
}

int rung_notes_view_load(rung_notes_view *out, rung_vctx *c, bool task_only)
{
	memset(out, 0, sizeof(*out));
	char **ids = NULL;
	int nids = 0;
	int e = task_only ? rung_vctx_version_ids(&ids, &nids, c) : 0;
	if (e < 0 || (e = rung_notes_list(&out->notes, &out->nnotes, c->repo)) < 0) {
		rung_strv_free(ids, nids);
		return e;
	}
	out->items = calloc((size_t)out->nnotes + 1, sizeof(*out->items));
	for (int j = 0; out->items && j < out->nnotes; j++) {
		if (task_only && !rung_version_ids_has(ids, nids, out->notes[j].commit))
			continue; /* another task's version */
		rung_notes_item *it = &out->items[out->n++];
		it->note = &out->notes[j];
		if (rung_version_at(&it->v, c->repo, out->notes[j].commit, "") < 0 && !it->v.id[0]) {
			snprintf(it->v.id, sizeof(it->v.id), "%s", out->notes[j].commit);
			snprintf(it->v.short_id, sizeof(it->v.short_id), "%.7s", out->notes[j].commit);
		}
		rung_error_clear();
	}
	if (out->items)
		qsort(out->items, (size_t)out->n, sizeof(*out->items), by_time);
	rung_strv_free(ids, nids);
	return 0;
}

void rung_notes_view_clear(rung_notes_view *v)
{
	free(v->items);
	rung_notes_free(v->notes, v->nnotes);
	memset(v, 0, sizeof(*v));
}

/* rung notes [-C DIR] [--task DIR] [--spec-rev REV]: every steering note
 * (refs/notes/rung), newest commit first; with --task, those on that task's
 * versions only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/err.h"
#include "cli/cli.h"
#include "app/session.h"

typedef struct {
	rung_note *n;
	rung_version v;
} item;

static int by_time(const void *a, const void *b)
{
	const item *x = a, *y = b;
	return x->v.time < y->v.time ? 1 : x->v.time > y->v.time ? -1 : strcmp(x->v.id, y->v.id);
}

typedef struct {
	rung_vctx_opts where;
} notes_opts;

static const rung_opt_spec notes_specs[] = {{RUNG_OPT_SUBTABLE(notes_opts, where, rung_vctx_opt_specs)}, {0}};
const rung_opt_table rung_opts_notes = {.cmd = "notes", .args = "", .max_args = 0, .opts = notes_specs};

int rung_cmd_notes(int argc, char **argv)
{
	notes_opts no = {0};
	int rc, nargs;
	if (rung_opts_parse(&rc, &rung_opts_notes, &no, argc, argv, &nargs))
		return rc;
	rung_vctx c;
	rc = rung_cli_vctx_open(&c, "notes", &no.where, no.where.task ? RUNG_VCTX_TASK : 0);
	if (rc)
		return rc;
	rung_note *notes;
	int n, nall;
	char **ids = NULL;
	int nids = 0;
	if ((no.where.task && rung_vctx_version_ids(&ids, &nids, &c) < 0) || rung_notes_list(&notes, &nall, c.repo) < 0) {
		fprintf(stderr, "rung notes: %s\n", rung_error_last());
		rung_strv_free(ids, nids);
		rung_vctx_close(&c);
		return RUNG_EXIT_INTERNAL;
	}
	item *it = calloc((size_t)nall + 1, sizeof(*it));
	n = 0;
	for (int j = 0; it && j < nall; j++) {
		if (no.where.task && !rung_version_ids_has(ids, nids, notes[j].commit))
			continue; /* another task's version */
		int i = n++;
		it[i].n = &notes[j];
		if (rung_version_at(&it[i].v, c.repo, notes[j].commit, "") < 0 && !it[i].v.id[0]) {
			snprintf(it[i].v.id, sizeof(it[i].v.id), "%s", notes[j].commit);
			snprintf(it[i].v.short_id, sizeof(it[i].v.short_id), "%.7s", notes[j].commit);
		}
		rung_error_clear();
	}
	if (it)
		qsort(it, (size_t)n, sizeof(*it), by_time);
	if (n == 0)
		printf("no notes (add one with: rung note REV --verdict keep \"text\")\n");
	for (int i = 0; it && i < n; i++) {
		char date[32] = "";
		time_t t = (time_t)it[i].v.time;
		struct tm tm;
		if (t && localtime_r(&t, &tm))
			strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm);
		printf("%s %s %s\n", it[i].v.short_id, date, it[i].v.subject);
		char *f = rung_note_format(it[i].n);
		for (char *line = f, *nl; line && *line; line = nl + 1) {
			nl = strchr(line, '\n');
			if (!nl)
				nl = line + strlen(line) - 1;
			printf("    %.*s\n", (int)(nl - line + (*nl != '\n')), line);
		}
		free(f);
	}
	free(it);
	rung_strv_free(ids, nids);
	rung_notes_free(notes, nall);
	rung_vctx_close(&c);
	return RUNG_EXIT_OK;
}

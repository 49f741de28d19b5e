/* rung notes [-C DIR] [--task DIR] [--spec-rev REV]: every steering note
 * (refs/notes/rung), newest commit first; with --task, those on that task's
 * versions only. The list is app/notes.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/err.h"
#include "cli/cli.h"
#include "app/notes.h"
#include "app/session.h"

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
	rung_notes_view nv;
	if (rung_notes_view_load(&nv, &c, no.where.task != NULL) < 0) {
		fprintf(stderr, "rung notes: %s\n", rung_error_last());
		rung_notes_view_clear(&nv);
		rung_vctx_close(&c);
		return RUNG_EXIT_INTERNAL;
	}
	if (nv.n == 0)
		printf("no notes (add one with: rung note REV --verdict keep \"text\")\n");
	for (int i = 0; i < nv.n; i++) {
		const rung_notes_item *it = &nv.items[i];
		char date[32] = "";
		time_t t = (time_t)it->v.time;
		struct tm tm;
		if (t && localtime_r(&t, &tm))
			strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm);
		printf("%s %s %s\n", it->v.short_id, date, it->v.subject);
		char *f = rung_note_format(it->note);
		for (char *line = f, *nl; line && *line; line = nl + 1) {
			nl = strchr(line, '\n');
			if (!nl)
				nl = line + strlen(line) - 1;
			printf("    %.*s\n", (int)(nl - line + (*nl != '\n')), line);
		}
		free(f);
	}
	rung_notes_view_clear(&nv);
	rung_vctx_close(&c);
	return RUNG_EXIT_OK;
}

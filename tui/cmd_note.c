/* rung note REV [--verdict keep|reject|baseline|best] [--done] TEXT:
 * steering notes for the agent, stored in refs/notes/rung. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "tui/cli.h"
#include "tui/vcs_ctx.h"

int rung_cmd_note(int argc, char **argv)
{
	rung_vctx_opts o = {0};
	const char *rev = NULL;
	rung_note_verdict verdict = RUNG_NOTE_NONE;
	bool done = false, clear_verdict = false;
	size_t tlen = 1;
	for (int i = 1; i < argc; i++)
		tlen += strlen(argv[i]) + 1;
	char *text = calloc(1, tlen);
	if (!text)
		return RUNG_EXIT_INTERNAL;
	int rc = RUNG_EXIT_OK;
	bool only_text = false;
	for (int i = 1; i < argc && rc == RUNG_EXIT_OK; i++) {
		int k = only_text ? 0 : rung_vctx_opt(&o, "note", argc, argv, &i);
		if (k < 0) {
			rc = RUNG_EXIT_USAGE;
		} else if (k > 0) {
			continue;
		} else if (!only_text && !strcmp(argv[i], "--")) {
			only_text = true;
		} else if (!only_text && !strcmp(argv[i], "--verdict")) {
			if (i + 1 < argc && !strcmp(argv[i + 1], "none")) {
				clear_verdict = true; /* --verdict none clears it */
			} else if (i + 1 >= argc || rung_note_verdict_parse(&verdict, argv[i + 1]) < 0) {
				fprintf(stderr, "rung note: --verdict: %s\n",
					i + 1 >= argc ? "needs keep, reject, baseline, best or none" : rung_error_last());
				rc = RUNG_EXIT_USAGE;
			}
			i++;
		} else if (!only_text && !strcmp(argv[i], "--done")) {
			done = true;
		} else if (!only_text && argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "rung note: unknown option '%s'\n", argv[i]);
			rc = RUNG_EXIT_USAGE;
		} else if (!rev) {
			rev = argv[i];
		} else {
			if (text[0])
				strcat(text, " ");
			strcat(text, argv[i]);
		}
	}
	if (rc == RUNG_EXIT_OK && (!rev || (!text[0] && verdict == RUNG_NOTE_NONE && !done && !clear_verdict))) {
		rc = rung_cli_usage("note", 1);
	}
	rung_vctx c;
	if (rc == RUNG_EXIT_OK && (rc = rung_vctx_open(&c, "note", &o, 0)) == RUNG_EXIT_OK) {
		int e = 0;
		if (done)
			e = rung_note_close_all(c.repo, rev);
		if (e == 0 && (text[0] || verdict != RUNG_NOTE_NONE))
			e = rung_note_add(c.repo, rev, verdict, text, 0);
		if (e == 0 && clear_verdict)
			e = rung_note_set_verdict(c.repo, rev, RUNG_NOTE_NONE);
		rung_note n;
		if (e == 0) {
			e = rung_note_read(&n, c.repo, rev);
			if (e == RUNG_ENOTFOUND && clear_verdict) {
				printf("%s: no note left\n", rev);
				e = 0;
			} else if (e == 0) {
				char *f = rung_note_format(&n);
				printf("%.10s:\n%s", n.commit, f ? f : "");
				free(f);
				rung_note_clear(&n);
			}
		}
		if (e < 0) {
			fprintf(stderr, "rung note: %s\n", rung_error_last());
			rc = e == RUNG_ENOTFOUND || e == RUNG_EINVAL ? RUNG_EXIT_USAGE : RUNG_EXIT_INTERNAL;
		}
		rung_vctx_close(&c);
	}
	free(text);
	return rc;
}

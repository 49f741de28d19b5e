/* rung note REV [--verdict keep|reject|baseline|best] [--done] [--remark] TEXT:
 * steering notes for the agent, stored in refs/notes/rung. TEXT is a
 * directive (open until --done or an answer) unless --remark makes it a remark.
 * rung note --task-wide TEXT: a directive for the task as a whole, on its
 * newest version. rung note --ack|--decline|--close ID REASON: answers the
 * directive ID (as `rung brief` lists it): done or declined (the agent), or
 * closed (the person), the reason kept in the note; rung note --reopen ID
 * [REASON]: the person opens an answered directive again. rung note --task-wide
 * --done REASON: the person's verdict that the task is done (the stop rule,
 * app/goal.h); --task-wide --reopen REASON closes it again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "cli/cli.h"
#include "app/directives.h"
#include "app/session.h"
#include "vcs/history.h"

typedef struct {
	const char *verdict;
	bool done;
	bool remark;
	bool task_wide;
	bool reopen;
	const char *ack, *decline, *close, *at;
	rung_vctx_opts where;
} note_opts;

static const rung_opt_spec note_specs[] = {
	{RUNG_OPT_STR(note_opts, verdict), .name = "verdict", .value = "VERDICT",
	 .choices = "keep reject baseline best none", .help = "the version's verdict (none clears it)"},
	{RUNG_OPT_BOOL(note_opts, done), .name = "done",
	 .help = "close the version's open directives; with --task-wide: the task is done, TEXT the reason (every reader says STOP)"},
	{RUNG_OPT_BOOL(note_opts, reopen), .name = "reopen",
	 .help = "the person reopens directive ID (the first argument, the rest the reason: rung note --reopen ID "
		 "[REASON]); with --task-wide: reopen a task marked done, TEXT the reason"},
	{RUNG_OPT_BOOL(note_opts, remark), .name = "remark",
	 .help = "TEXT is a remark on the version, not a directive: never open, listed under the brief's Remarks"},
	{RUNG_OPT_BOOL(note_opts, task_wide), .name = "task-wide",
	 .help = "TEXT is a directive for the task as a whole (every version), not for the next one; no REV: it goes "
		 "on the task's newest version"},
	{RUNG_OPT_STR(note_opts, ack), .name = "ack", .value = "ID",
	 .help = "the agent did directive ID; the arguments are the reason (no REV)"},
	{RUNG_OPT_STR(note_opts, decline), .name = "decline", .value = "ID",
	 .help = "the agent declines directive ID; the arguments are the reason (no REV)"},
	{RUNG_OPT_STR(note_opts, close), .name = "close", .value = "ID",
	 .help = "the person closes directive ID; the arguments are the reason (no REV)"},
	{RUNG_OPT_STR(note_opts, at), .name = "at", .value = "REV",
	 .help = "with --ack/--decline/--close/--reopen: the version that answered it (default: the task's newest)"},
	{RUNG_OPT_SUBTABLE(note_opts, where, rung_vctx_opt_specs)},
	{0}};
const rung_opt_table rung_opts_note = {.cmd = "note", .args = "REV [TEXT...]", .min_args = 0, .max_args = -1,
				       .opts = note_specs};

/* Inside a task (its directory, --task, or a repository of one task), REV
 * names one of that task's versions: a symbolic REV (HEAD, HEAD~2, a branch)
 * is taken to the task's newest version at it, and said so on stderr; a commit
 * id that is not a version of the task is refused (a note there would steer
 * another task). out gets the commit to note. */
static int task_version(char out[41], rung_vctx *c, const char *rev)
{
	snprintf(out, 41, "%s", rev);
	if (!c->task.kernel_path)
		return RUNG_EXIT_OK;
	char id[41];
	if (rung_repo_resolve(id, c->repo, rev) < 0) {
		fprintf(stderr, "rung note: %s\n", rung_error_last());
		return RUNG_EXIT_USAGE;
	}
	if (!strcmp(id, "WORKTREE"))
		return RUNG_EXIT_OK; /* not a commit: rung_note_add says so */
	rung_history_opts ho = {.kernel_path = c->task.kernel_path, .range = rev};
	rung_history *h = NULL;
	rung_version v;
	int e = rung_history_open(&h, c->repo, &ho);
	int got = e < 0 ? e : rung_history_next(&v, h);
	rung_history_free(h);
	const char *task = c->task.dir && c->task.dir[0] ? c->task.dir : c->task.kernel_path;
	if (got < 0) {
		fprintf(stderr, "rung note: %s\n", rung_error_last());
		return RUNG_EXIT_INTERNAL;
	}
	if (got == 0 && !strcmp(v.id, id))
		return RUNG_EXIT_OK;
	bool hex = strspn(rev, "0123456789abcdefABCDEF") == strlen(rev) && strlen(rev) >= 4;
	if (got == 1 || hex) {
		if (got == 1)
			fprintf(stderr, "rung note: %s is not a version of %s (no commit up to it changes %s)\n", rev, task,
				c->task.kernel_path);
		else
			fprintf(stderr, "rung note: %s is not a version of %s (it does not change %s); its newest version before it is %s \"%s\"\n",
				rev, task, c->task.kernel_path, v.short_id, v.subject);
		return RUNG_EXIT_USAGE;
	}
	fprintf(stderr, "rung note: %s is not a version of %s; noting its newest version, %s \"%s\"\n", rev, task,
		v.short_id, v.subject);
	snprintf(out, 41, "%s", v.id);
	return RUNG_EXIT_OK;
}

/* The words argv[from..nargs], joined by spaces (caller frees; NULL: no memory). */
static char *join_words(char **argv, int from, int nargs)
{
	size_t tlen = 1;
	for (int i = from; i <= nargs; i++)
		tlen += strlen(argv[i]) + 1;
	char *text = calloc(1, tlen);
	for (int i = from; text && i <= nargs; i++) {
		if (text[0])
			strcat(text, " ");
		strcat(text, argv[i]);
	}
	return text;
}

static void print_note(rung_vctx *c, const char *rev)
{
	rung_note n;
	if (rung_note_read(&n, c->repo, rev) == 0) {
		char *f = rung_note_format(&n);
		printf("%.10s:\n%s", n.commit, f ? f : "");
		free(f);
		rung_note_clear(&n);
	}
	rung_error_clear();
}

/* --ack/--decline/--close ID REASON..., --reopen ID [REASON...] */
static int answer(const note_opts *no, char **argv, int nargs)
{
	int given = !!no->ack + !!no->decline + !!no->close + !!no->reopen;
	if (given > 1 || no->verdict || no->done || no->remark || no->task_wide) {
		fprintf(stderr, "rung note: --ack, --decline, --close and --reopen go alone (with the reason)\n");
		return rung_cli_usage("note", 1);
	}
	if (no->reopen && nargs < 1) {
		fprintf(stderr, "rung note: --reopen needs the directive's id: rung note --reopen ID [REASON...]\n");
		return RUNG_EXIT_USAGE;
	}
	const char *id = no->ack ? no->ack : no->decline ? no->decline : no->close ? no->close : argv[1];
	rung_answer_kind kind = no->ack ? RUNG_ANSWER_DONE : no->decline ? RUNG_ANSWER_DECLINED
				: no->close ? RUNG_ANSWER_CLOSED : RUNG_ANSWER_REOPENED;
	if (nargs < 1) { /* the arguments are the reason: no REV (a REV would be stored as its first word) */
		fprintf(stderr, "rung note: --%s %s needs the reason: rung note --%s %s REASON...\n",
			no->ack ? "ack" : no->decline ? "decline" : "close", id, no->ack ? "ack" : no->decline ? "decline" : "close", id);
		return RUNG_EXIT_USAGE;
	}
	char *reason = join_words(argv, no->reopen ? 2 : 1, nargs);
	if (!reason)
		return RUNG_EXIT_INTERNAL;
	rung_vctx c;
	rung_vctx_opts o = no->where;
	int rc = rung_cli_vctx_open(&c, "note", &o, RUNG_VCTX_TASK_IF_ONE);
	if (rc == RUNG_EXIT_OK) {
		char by[41];
		int e = rung_directive_answer(&c, id, kind, no->at, reason, by);
		if (e < 0) {
			rc = rung_cli_fail("note", e);
		} else {
			rung_directives ds;
			if (rung_directives_load(&ds, &c) == 0) {
				int i = rung_directives_find(&ds, id);
				if (i >= 0) {
					printf("directive %s %s%s%.7s\n", ds.items[i].id, rung_answer_name(kind),
					       by[0] && kind != RUNG_ANSWER_REOPENED ? " by " : "", kind != RUNG_ANSWER_REOPENED ? by : "");
					print_note(&c, ds.items[i].note->commit);
				}
				rung_directives_clear(&ds);
			}
			rung_error_clear();
		}
		rung_vctx_close(&c);
	}
	free(reason);
	return rc;
}

/* --task-wide --done REASON: the task is done, a task-wide directive marked
 * [done] on its newest version; --task-wide --reopen REASON: the person closes
 * every done verdict in force, with the reason. */
static int task_done(const note_opts *no, char **argv, int nargs)
{
	if (no->remark || no->verdict || (no->done && no->reopen)) {
		fprintf(stderr, "rung note: --task-wide --done and --task-wide --reopen take the reason alone\n");
		return rung_cli_usage("note", 1);
	}
	char *reason = join_words(argv, 1, nargs);
	if (!reason)
		return RUNG_EXIT_INTERNAL;
	if (!reason[0]) {
		fprintf(stderr, "rung note: --task-wide --%s needs a REASON\n", no->done ? "done" : "reopen");
		free(reason);
		return rung_cli_usage("note", 1);
	}
	rung_vctx c;
	rung_vctx_opts o = no->where;
	int rc = rung_cli_vctx_open(&c, "note", &o, RUNG_VCTX_TASK_IF_ONE);
	char id[41];
	if (rc == RUNG_EXIT_OK && (rc = task_version(id, &c, "HEAD")) != RUNG_EXIT_OK)
		rung_vctx_close(&c);
	if (rc != RUNG_EXIT_OK) {
		free(reason);
		return rc;
	}
	int e = 0;
	if (no->done) {
		size_t len = strlen(RUNG_TASK_WIDE_MARK) + strlen(RUNG_TASK_DONE_MARK) + strlen(reason) + 1;
		char *text = malloc(len);
		e = text ? 0 : rung_error_set(RUNG_ENOMEM, "out of memory");
		if (text) {
			snprintf(text, len, "%s%s%s", RUNG_TASK_WIDE_MARK, RUNG_TASK_DONE_MARK, reason);
			e = rung_note_add_entry(c.repo, id, RUNG_NOTE_NONE, RUNG_ENTRY_DIRECTIVE, text, 0);
			free(text);
		}
		if (e == 0) {
			printf("task done: %s\n", reason);
			print_note(&c, id);
		}
	} else {
		rung_directives ds;
		int closed = 0;
		e = rung_directives_load(&ds, &c);
		bool loaded = e == 0;
		for (int i = 0; e == 0 && i < ds.n; i++) {
			const rung_directive *d = ds.items[i].d;
			if (!d->task_done || rung_directive_status(d) == RUNG_DSTATUS_CLOSED)
				continue;
			e = rung_note_answer(c.repo, ds.items[i].note->commit, ds.items[i].id, RUNG_ANSWER_CLOSED, id, reason, 0);
			if (e == 0) {
				printf("reopened: done verdict %s closed: %s\n", ds.items[i].id, reason);
				closed++;
			}
		}
		if (e == 0 && !closed)
			e = rung_error_set(RUNG_EINVAL, "the task is not marked done (nothing to reopen)");
		if (loaded)
			rung_directives_clear(&ds);
	}
	if (e < 0) {
		fprintf(stderr, "rung note: %s\n", rung_error_last());
		rc = e == RUNG_ENOTFOUND || e == RUNG_EINVAL ? RUNG_EXIT_USAGE : RUNG_EXIT_INTERNAL;
	}
	rung_vctx_close(&c);
	free(reason);
	return rc;
}

int rung_cmd_note(int argc, char **argv)
{
	note_opts no = {0};
	int rc, nargs;
	if (rung_opts_parse(&rc, &rung_opts_note, &no, argc, argv, &nargs))
		return rc;
	if (no.ack || no.decline || no.close || (no.reopen && !no.task_wide))
		return answer(&no, argv, nargs);
	if (no.at) {
		fprintf(stderr, "rung note: --at goes with --ack, --decline, --close or --reopen\n");
		return rung_cli_usage("note", 1);
	}
	if (no.task_wide && (no.done || no.reopen))
		return task_done(&no, argv, nargs);
	if (no.task_wide && (no.remark || no.verdict)) {
		fprintf(stderr, "rung note: --task-wide takes TEXT alone (no --remark or --verdict)\n");
		return rung_cli_usage("note", 1);
	}
	if (nargs < 1) { /* the parser's own words, as when min_args said it */
		fprintf(stderr, "rung note: expected REV [TEXT...], found nothing\n");
		return rung_cli_usage("note", 1);
	}
	rung_vctx_opts o = no.where;
	const char *rev = no.task_wide ? "HEAD" : argv[1];
	rung_note_verdict verdict = RUNG_NOTE_NONE;
	bool done = no.done, clear_verdict = no.verdict && !strcmp(no.verdict, "none");
	if (no.verdict && !clear_verdict && rung_note_verdict_parse(&verdict, no.verdict) < 0) {
		fprintf(stderr, "rung note: --verdict: %s\n", rung_error_last());
		return RUNG_EXIT_USAGE;
	}
	/* the words of TEXT, joined by spaces, with the task-wide marker in front */
	char *words = join_words(argv, no.task_wide ? 1 : 2, nargs);
	char *text = words && no.task_wide ? malloc(strlen(RUNG_TASK_WIDE_MARK) + strlen(words) + 1) : words;
	if (!text) {
		free(words);
		return RUNG_EXIT_INTERNAL;
	}
	if (no.task_wide) {
		sprintf(text, "%s%s", RUNG_TASK_WIDE_MARK, words);
		free(words);
	}
	if (no.remark && !text[0]) {
		fprintf(stderr, "rung note: --remark needs TEXT\n");
		free(text);
		return rung_cli_usage("note", 1);
	}
	if (!text[0] && verdict == RUNG_NOTE_NONE && !done && !clear_verdict) {
		fprintf(stderr, "rung note: nothing to note: give TEXT, --verdict or --done\n");
		free(text);
		return rung_cli_usage("note", 1);
	}
	rung_vctx c;
	char id[41];
	if (rc == RUNG_EXIT_OK && (rc = rung_cli_vctx_open(&c, "note", &o, RUNG_VCTX_TASK_IF_ONE)) == RUNG_EXIT_OK &&
	    (rc = task_version(id, &c, rev)) != RUNG_EXIT_OK)
		rung_vctx_close(&c);
	else if (rc == RUNG_EXIT_OK)
		rev = id;
	if (rc == RUNG_EXIT_OK) {
		int e = 0;
		if (done)
			e = rung_note_close_all(c.repo, rev);
		if (e == 0 && (text[0] || verdict != RUNG_NOTE_NONE))
			e = rung_note_add_entry(c.repo, rev, verdict, no.remark ? RUNG_ENTRY_REMARK : RUNG_ENTRY_DIRECTIVE,
						text, 0);
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

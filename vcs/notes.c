#include "vcs/notes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <git2.h>

#include "core/err.h"

static const char *const verdict_names[] = {"", "keep", "reject", "baseline", "best"};

const char *rung_note_verdict_name(rung_note_verdict v)
{
	return (unsigned)v < sizeof(verdict_names) / sizeof(verdict_names[0]) ? verdict_names[v] : "";
}

int rung_note_verdict_parse(rung_note_verdict *out, const char *s)
{
	for (int i = 1; i < (int)(sizeof(verdict_names) / sizeof(verdict_names[0])); i++) {
		if (!strcmp(s, verdict_names[i])) {
			*out = (rung_note_verdict)i;
			return 0;
		}
	}
	return rung_error_set(RUNG_EINVAL, "unknown verdict '%s' (keep, reject, baseline or best)", s);
}

void rung_note_clear(rung_note *n)
{
	for (int i = 0; i < n->ndirectives; i++)
		free(n->directives[i].text);
	free(n->directives);
	free(n->other);
	memset(n, 0, sizeof(*n));
}

static int append_other(rung_note *n, const char *line, size_t len)
{
	size_t old = n->other ? strlen(n->other) : 0;
	char *o = realloc(n->other, old + len + 2);
	if (!o)
		return RUNG_ENOMEM;
	memcpy(o + old, line, len);
	o[old + len] = '\n';
	o[old + len + 1] = 0;
	n->other = o;
	return 0;
}

static int push_directive(rung_note *n, int64_t t, const char *author, const char *text, bool done)
{
	rung_directive *d = realloc(n->directives, (size_t)(n->ndirectives + 1) * sizeof(*d));
	if (!d)
		return RUNG_ENOMEM;
	n->directives = d;
	d = &d[n->ndirectives];
	memset(d, 0, sizeof(*d));
	d->time = t;
	snprintf(d->author, sizeof(d->author), "%s", author);
	d->text = strdup(text);
	d->done = done;
	if (!d->text)
		return RUNG_ENOMEM;
	n->ndirectives++;
	return 0;
}

/* "- 2026-11-29 22:05 Ada Lovelace: text" */
static int parse_directive(rung_note *n, const char *line)
{
	bool done = line[0] == 'x';
	const char *p = line + 2;
	struct tm tm = {0};
	int used = 0;
	if (sscanf(p, "%4d-%2d-%2d %2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &used) != 5 ||
	    p[used] != ' ')
		return 1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	tm.tm_isdst = -1;
	int64_t t = (int64_t)mktime(&tm);
	p += used + 1;
	const char *colon = strstr(p, ": ");
	if (!colon)
		return 1;
	char author[128];
	snprintf(author, sizeof(author), "%.*s", (int)(colon - p), p);
	return push_directive(n, t, author, colon + 2, done) < 0 ? RUNG_ENOMEM : 0;
}

int rung_note_parse(rung_note *out, const char *text)
{
	memset(out, 0, sizeof(*out));
	const char *p = text;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *line = strndup(p, len);
		if (!line)
			goto oom;
		while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
			line[--len] = 0;
		int e = 1;
		if (!strncmp(line, "verdict:", 8)) {
			const char *v = line + 8;
			while (*v == ' ')
				v++;
			rung_note_verdict vd = RUNG_NOTE_NONE;
			if (rung_note_verdict_parse(&vd, v) == 0) {
				out->verdict = vd;
				e = 0;
			}
			rung_error_clear();
		} else if ((line[0] == '-' || line[0] == 'x') && line[1] == ' ') {
			e = parse_directive(out, line);
		} else if (len == 0) {
			e = 0;
		}
		if (e == 1)
			e = append_other(out, line, len);
		free(line);
		if (e < 0)
			goto oom;
		p = eol ? eol + 1 : p + len;
	}
	return 0;
oom:
	rung_note_clear(out);
	return rung_error_set(RUNG_ENOMEM, "out of memory");
}

char *rung_note_format(const rung_note *n)
{
	size_t cap = 256 + (n->other ? strlen(n->other) : 0);
	for (int i = 0; i < n->ndirectives; i++)
		cap += strlen(n->directives[i].text) + strlen(n->directives[i].author) + 40;
	char *b = malloc(cap);
	if (!b)
		return NULL;
	size_t o = 0;
	if (n->verdict != RUNG_NOTE_NONE)
		o += (size_t)snprintf(b + o, cap - o, "verdict: %s\n", rung_note_verdict_name(n->verdict));
	for (int i = 0; i < n->ndirectives; i++) {
		const rung_directive *d = &n->directives[i];
		time_t t = (time_t)d->time;
		struct tm tm;
		localtime_r(&t, &tm);
		char date[32];
		strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm);
		o += (size_t)snprintf(b + o, cap - o, "%c %s %s: %s\n", d->done ? 'x' : '-', date, d->author, d->text);
	}
	if (n->other)
		o += (size_t)snprintf(b + o, cap - o, "%s", n->other);
	b[o] = 0;
	return b;
}

static int resolve_oid(git_oid *oid, rung_repo *r, const char *rev)
{
	char id[41];
	int e = rung_repo_resolve(id, r, rev);
	if (e < 0)
		return e;
	if (!strcmp(id, "WORKTREE"))
		return rung_error_set(RUNG_EINVAL, "WORKTREE: notes need a commit (commit the change first)");
	git_oid_fromstr(oid, id);
	return 0;
}

static int read_oid(rung_note *out, rung_repo *r, const git_oid *oid)
{
	memset(out, 0, sizeof(*out));
	git_note *note = NULL;
	int e = git_note_read(&note, rung_repo_git(r), RUNG_NOTES_REF, oid);
	if (e == GIT_ENOTFOUND)
		return RUNG_ENOTFOUND;
	if (e < 0)
		return rung_git_error(e, "reading note");
	e = rung_note_parse(out, git_note_message(note));
	git_note_free(note);
	if (e == 0)
		git_oid_tostr(out->commit, sizeof(out->commit), oid);
	return e;
}

int rung_note_read(rung_note *out, rung_repo *r, const char *rev)
{
	memset(out, 0, sizeof(*out));
	git_oid oid;
	int e = resolve_oid(&oid, r, rev);
	if (e < 0)
		return e;
	e = read_oid(out, r, &oid);
	if (e == RUNG_ENOTFOUND)
		return rung_error_set(RUNG_ENOTFOUND, "%s: no note", rev);
	return e;
}

static int signature(git_signature **sig, rung_repo *r)
{
	if (git_signature_default(sig, rung_repo_git(r)) == 0)
		return 0;
	int e = git_signature_now(sig, "rung", "rung@localhost");
	return e < 0 ? rung_git_error(e, "signature") : 0;
}

static int write_note(rung_repo *r, const git_oid *oid, const rung_note *n)
{
	char *text = rung_note_format(n);
	if (!text)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	git_signature *sig = NULL;
	int e = signature(&sig, r);
	if (e == 0) {
		git_oid note_oid;
		e = git_note_create(&note_oid, rung_repo_git(r), RUNG_NOTES_REF, sig, sig, oid, text, 1);
		if (e < 0)
			e = rung_git_error(e, "writing note");
	}
	git_signature_free(sig);
	free(text);
	return e;
}

int rung_note_add(rung_repo *r, const char *rev, rung_note_verdict verdict, const char *text, int64_t now)
{
	git_oid oid;
	int e = resolve_oid(&oid, r, rev);
	if (e < 0)
		return e;
	rung_note n;
	e = read_oid(&n, r, &oid);
	if (e == RUNG_ENOTFOUND) {
		memset(&n, 0, sizeof(n));
		e = 0;
	} else if (e < 0) {
		return e;
	}
	if (verdict != RUNG_NOTE_NONE)
		n.verdict = verdict;
	if (text && *text) {
		/* one line per directive: newlines would break the format */
		char *flat = strdup(text);
		if (!flat) {
			rung_note_clear(&n);
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		}
		for (char *p = flat; *p; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
		git_signature *sig = NULL;
		e = signature(&sig, r);
		if (e == 0) {
			int64_t t = now ? now : (int64_t)time(NULL);
			e = push_directive(&n, t - t % 60, sig->name, flat, false);
			if (e < 0)
				e = rung_error_set(RUNG_ENOMEM, "out of memory");
		}
		git_signature_free(sig);
		free(flat);
	}
	if (e == 0)
		e = write_note(r, &oid, &n);
	rung_note_clear(&n);
	return e;
}

int rung_note_set_verdict(rung_repo *r, const char *rev, rung_note_verdict verdict)
{
	git_oid oid;
	int e = resolve_oid(&oid, r, rev);
	if (e < 0)
		return e;
	rung_note n;
	e = read_oid(&n, r, &oid);
	if (e == RUNG_ENOTFOUND) {
		if (verdict == RUNG_NOTE_NONE)
			return 0; /* nothing to clear */
		memset(&n, 0, sizeof(n));
	} else if (e < 0) {
		return e;
	}
	n.verdict = verdict;
	if (n.verdict == RUNG_NOTE_NONE && n.ndirectives == 0 && !(n.other && *n.other)) {
		/* nothing left: the note goes, rather than an empty one */
		git_signature *sig = NULL;
		e = signature(&sig, r);
		if (e == 0) {
			e = git_note_remove(rung_repo_git(r), RUNG_NOTES_REF, sig, sig, &oid);
			if (e < 0)
				e = rung_git_error(e, "removing note");
		}
		git_signature_free(sig);
	} else {
		e = write_note(r, &oid, &n);
	}
	rung_note_clear(&n);
	return e;
}

int rung_note_close_all(rung_repo *r, const char *rev)
{
	git_oid oid;
	int e = resolve_oid(&oid, r, rev);
	if (e < 0)
		return e;
	rung_note n;
	if ((e = read_oid(&n, r, &oid)) < 0)
		return e == RUNG_ENOTFOUND ? rung_error_set(RUNG_ENOTFOUND, "%s: no note", rev) : e;
	for (int i = 0; i < n.ndirectives; i++)
		n.directives[i].done = true;
	e = write_note(r, &oid, &n);
	rung_note_clear(&n);
	return e;
}

typedef struct {
	rung_repo *r;
	rung_note *v;
	int n, cap;
	int err;
} list_ctx;

static int list_cb(const git_oid *blob_id, const git_oid *annotated, void *payload)
{
	list_ctx *x = payload;
	(void)blob_id;
	if (x->n == x->cap) {
		int nc = x->cap ? x->cap * 2 : 16;
		rung_note *nv = realloc(x->v, (size_t)nc * sizeof(*nv));
		if (!nv) {
			x->err = rung_error_set(RUNG_ENOMEM, "out of memory");
			return -1;
		}
		x->v = nv;
		x->cap = nc;
	}
	int e = read_oid(&x->v[x->n], x->r, annotated);
	if (e < 0) {
		x->err = e;
		return -1;
	}
	x->n++;
	return 0;
}

int rung_notes_list(rung_note **out, int *n, rung_repo *r)
{
	*out = NULL;
	*n = 0;
	list_ctx x = {r, NULL, 0, 0, 0};
	int e = git_note_foreach(rung_repo_git(r), RUNG_NOTES_REF, list_cb, &x);
	if (e == GIT_ENOTFOUND)
		return 0; /* no notes ref yet */
	if (e < 0) {
		rung_notes_free(x.v, x.n);
		return x.err ? x.err : rung_git_error(e, "listing notes");
	}
	*out = x.v;
	*n = x.n;
	return 0;
}

void rung_notes_free(rung_note *v, int n)
{
	for (int i = 0; i < n; i++)
		rung_note_clear(&v[i]);
	free(v);
}

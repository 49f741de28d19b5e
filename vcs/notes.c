#include "vcs/notes.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>

#include <git2.h>

#include "core/err.h"
#include "core/sha256.h"

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

static const char *const answer_names[] = {"", "done", "declined", "closed", "reopened"};

const char *rung_answer_name(rung_answer_kind k)
{
	return (unsigned)k < sizeof(answer_names) / sizeof(answer_names[0]) ? answer_names[k] : "";
}

int rung_answer_parse(rung_answer_kind *out, const char *s)
{
	for (int i = 1; i < (int)(sizeof(answer_names) / sizeof(answer_names[0])); i++) {
		if (!strcmp(s, answer_names[i])) {
			*out = (rung_answer_kind)i;
			return 0;
		}
	}
	return rung_error_set(RUNG_EINVAL, "unknown answer '%s' (done, declined, closed or reopened)", s);
}

bool rung_answer_by_person(rung_answer_kind k)
{
	return k == RUNG_ANSWER_CLOSED || k == RUNG_ANSWER_REOPENED;
}

rung_dstatus rung_directive_status(const rung_directive *d)
{
	if (!d->done || d->remark)
		return RUNG_DSTATUS_OPEN;
	return d->answer == RUNG_ANSWER_DECLINED ? RUNG_DSTATUS_DECLINED
	       : d->answer == RUNG_ANSWER_CLOSED ? RUNG_DSTATUS_CLOSED
						 : RUNG_DSTATUS_DONE;
}

const char *rung_dstatus_name(rung_dstatus s)
{
	static const char *const names[] = {"open", "done", "declined", "closed"};
	return (unsigned)s < 4 ? names[s] : "open";
}

static void entry_id(char out[RUNG_DIRECTIVE_ID_LEN + 1], const char *commit, const rung_directive *d, int rank)
{
	char head[256];
	snprintf(head, sizeof(head), "%s\n%" PRId64 " %s: ", commit, d->time, d->author);
	rung_sha256_ctx c;
	rung_sha256_init(&c);
	rung_sha256_update(&c, head, strlen(head));
	rung_sha256_update(&c, d->text, strlen(d->text));
	if (rank > 0) {
		snprintf(head, sizeof(head), "\n#%d", rank);
		rung_sha256_update(&c, head, strlen(head));
	}
	char hex[65];
	rung_sha256_final_hex(&c, hex);
	snprintf(out, RUNG_DIRECTIVE_ID_LEN + 1, "%.*s", RUNG_DIRECTIVE_ID_LEN, hex);
}

void rung_directive_id(char out[RUNG_DIRECTIVE_ID_LEN + 1], const rung_note *n, int k)
{
	const rung_directive *d = &n->directives[k];
	int rank = 0; /* identical entries earlier in the note (same minute, author and text) */
	for (int i = 0; i < k; i++) {
		const rung_directive *e = &n->directives[i];
		rank += e->time == d->time && !strcmp(e->author, d->author) && !strcmp(e->text, d->text);
	}
	entry_id(out, n->commit, d, rank);
}

static void answers_clear(rung_directive *d)
{
	for (int k = 0; k < d->nanswers; k++)
		free(d->answers[k].text);
	free(d->answers);
	d->answers = NULL;
	d->nanswers = 0;
}

void rung_note_clear(rung_note *n)
{
	for (int i = 0; i < n->ndirectives; i++) {
		free(n->directives[i].text);
		free(n->directives[i].answer_text);
		answers_clear(&n->directives[i]);
	}
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

bool rung_directive_open(const rung_directive *d)
{
	return !d->done && !d->remark;
}

static int push_directive(rung_note *n, int64_t t, const char *author, const char *text, rung_entry_kind kind)
{
	rung_directive *d = realloc(n->directives, (size_t)(n->ndirectives + 1) * sizeof(*d));
	if (!d)
		return RUNG_ENOMEM;
	n->directives = d;
	d = &d[n->ndirectives];
	memset(d, 0, sizeof(*d));
	d->time = t;
	snprintf(d->author, sizeof(d->author), "%s", author);
	size_t mark = strlen(RUNG_TASK_WIDE_MARK);
	if (kind != RUNG_ENTRY_REMARK && !strncmp(text, RUNG_TASK_WIDE_MARK, mark)) {
		d->task_wide = true;
		text += mark;
		if (!strncmp(text, RUNG_TASK_DONE_MARK, strlen(RUNG_TASK_DONE_MARK))) {
			d->task_done = true;
			text += strlen(RUNG_TASK_DONE_MARK);
		}
	}
	d->text = strdup(text);
	d->done = kind == RUNG_ENTRY_DONE;
	d->remark = kind == RUNG_ENTRY_REMARK;
	if (!d->text)
		return RUNG_ENOMEM;
	n->ndirectives++;
	return 0;
}

/* "- 2026-11-29 22:05 Ada Lovelace: text" ("x " done, "* " a remark) */
static int parse_directive(rung_note *n, const char *line)
{
	rung_entry_kind kind = line[0] == 'x' ? RUNG_ENTRY_DONE : line[0] == '*' ? RUNG_ENTRY_REMARK : RUNG_ENTRY_DIRECTIVE;
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
	return push_directive(n, t, author, colon + 2, kind) < 0 ? RUNG_ENOMEM : 0;
}

/* "  > declined 2026-11-30 09:12 [3c452f7a] claude: reason" under the
 * directive it answers (the last entry, a directive with no answer yet).
 * 0 attached, 1 not an answer line (kept as other), RUNG_ENOMEM. */
int rung_directive_standing(const rung_directive *d)
{
	for (int i = d->nanswers - 1; i >= 0; i--)
		if (rung_answer_by_person(d->answers[i].kind)) /* the person's last word */
			return d->answers[i].kind == RUNG_ANSWER_CLOSED ? i : d->nanswers - 1;
	return d->nanswers - 1;
}

/* The standing answer from d->answers made d's answer. */
static int set_standing(rung_directive *d)
{
	int k = rung_directive_standing(d);
	if (k < 0)
		return 0;
	const rung_answer_rec *a = &d->answers[k];
	free(d->answer_text);
	d->answer_text = NULL;
	d->answer = a->kind;
	d->answer_time = a->time;
	snprintf(d->answer_author, sizeof(d->answer_author), "%s", a->author);
	snprintf(d->answer_version, sizeof(d->answer_version), "%s", a->version);
	if (a->text && !(d->answer_text = strdup(a->text)))
		return RUNG_ENOMEM;
	return 0;
}

/* Appends an answer line to d's history and makes the standing one current. */
static int push_answer(rung_directive *d, rung_answer_kind kind, int64_t time, const char *author, const char *version,
		       const char *text)
{
	rung_answer_rec *more = realloc(d->answers, (size_t)(d->nanswers + 1) * sizeof(*more));
	if (!more)
		return RUNG_ENOMEM;
	d->answers = more;
	rung_answer_rec *a = &d->answers[d->nanswers];
	memset(a, 0, sizeof(*a));
	a->kind = kind;
	a->time = time;
	snprintf(a->author, sizeof(a->author), "%s", author);
	snprintf(a->version, sizeof(a->version), "%s", version ? version : "");
	if (text && *text && !(a->text = strdup(text)))
		return RUNG_ENOMEM;
	d->nanswers++;
	return set_standing(d);
}

static int parse_answer(rung_note *n, const char *line)
{
	if (strncmp(line, "  > ", 4) || !n->ndirectives)
		return 1;
	rung_directive *d = &n->directives[n->ndirectives - 1];
	if (d->remark)
		return 1;
	const char *p = line + 4;
	char word[16];
	int used = 0;
	rung_answer_kind kind = RUNG_ANSWER_NONE;
	if (sscanf(p, "%15[a-z]%n", word, &used) != 1 || p[used] != ' ' || rung_answer_parse(&kind, word) < 0) {
		rung_error_clear();
		return 1;
	}
	p += used + 1;
	struct tm tm = {0};
	if (sscanf(p, "%4d-%2d-%2d %2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &used) != 5 ||
	    p[used] != ' ')
		return 1;
	p += used + 1;
	char version[41] = "";
	if (*p == '[') {
		size_t h = strspn(p + 1, "0123456789abcdef");
		if (h < 4 || h > 40 || p[1 + h] != ']' || p[2 + h] != ' ')
			return 1;
		snprintf(version, sizeof(version), "%.*s", (int)h, p + 1);
		p += h + 3;
	}
	const char *colon = strstr(p, ": ");
	const char *end = colon ? colon : p + strlen(p);
	if (end == p)
		return 1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	tm.tm_isdst = -1;
	char author[128];
	snprintf(author, sizeof(author), "%.*s", (int)(end - p), p);
	return push_answer(d, kind, (int64_t)mktime(&tm), author, version, colon && colon[2] ? colon + 2 : NULL);
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
		if (!strncmp(line, "  > ", 4)) {
			e = parse_answer(out, line);
		} else if (!strncmp(line, "verdict:", 8)) {
			const char *v = line + 8;
			while (*v == ' ')
				v++;
			rung_note_verdict vd = RUNG_NOTE_NONE;
			if (rung_note_verdict_parse(&vd, v) == 0) {
				out->verdict = vd;
				e = 0;
			}
			rung_error_clear();
		} else if ((line[0] == '-' || line[0] == 'x' || line[0] == '*') && line[1] == ' ') {
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
	for (int i = 0; i < n->ndirectives; i++) {
		cap += strlen(n->directives[i].text) + strlen(n->directives[i].author) + 60 +
		       strlen(n->directives[i].answer_author) + 64 +
		       (n->directives[i].answer_text ? strlen(n->directives[i].answer_text) : 0);
		for (int k = 0; k < n->directives[i].nanswers; k++)
			cap += strlen(n->directives[i].answers[k].author) + 128 +
			       (n->directives[i].answers[k].text ? strlen(n->directives[i].answers[k].text) : 0);
	}
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
		o += (size_t)snprintf(b + o, cap - o, "%c %s %s: %s%s%s\n", d->remark ? '*' : d->done ? 'x' : '-', date, d->author,
				      d->task_wide && !d->remark ? RUNG_TASK_WIDE_MARK : "",
				      d->task_wide && d->task_done && !d->remark ? RUNG_TASK_DONE_MARK : "", d->text);
		/* every answer line, in order (without a history: the one answer) */
		rung_answer_rec one = {d->answer, d->answer_time, "", "", d->answer_text};
		snprintf(one.author, sizeof(one.author), "%s", d->answer_author);
		snprintf(one.version, sizeof(one.version), "%s", d->answer_version);
		const rung_answer_rec *as = d->nanswers ? d->answers : &one;
		int na = d->remark ? 0 : d->nanswers ? d->nanswers : d->answer != RUNG_ANSWER_NONE;
		for (int k = 0; k < na; k++) {
			const rung_answer_rec *a = &as[k];
			t = (time_t)a->time;
			localtime_r(&t, &tm);
			strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm);
			o += (size_t)snprintf(b + o, cap - o, "  > %s %s %s%s%s%s%s%s\n", rung_answer_name(a->kind), date,
					      a->version[0] ? "[" : "", a->version, a->version[0] ? "] " : "", a->author,
					      a->text && a->text[0] ? ": " : "", a->text ? a->text : "");
		}
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

/* ---- updating: read, edit, compare-and-swap the ref, retry ----------------
 *
 * git_note_create reads the notes ref and then moves it with force: two
 * writers at once both start from the same notes commit and the later one
 * drops the earlier one's note. Here each update builds its notes commit on
 * the tip it read (git_note_commit_create) and moves the ref only if it still
 * points there (git_reference_create_matching, checked under the ref's lock);
 * when another writer got there first (the ref moved, or is locked), the note
 * is read again, edited again and written again. */

/* How an edit leaves the note: written, removed, or as it was. */
enum { NOTE_WRITE = 0, NOTE_REMOVE = 1, NOTE_KEEP = 2 };
typedef int (*note_edit_fn)(rung_note *n, bool exists, const git_signature *sig, void *ud);

enum { NOTE_TRIES = 200 };

/* A short random wait, growing with the attempt (about 1 ms to 30 ms), so
 * that writers that collided do not collide again in step. */
static void backoff(int attempt, uint64_t *seed)
{
	*seed ^= *seed << 13;
	*seed ^= *seed >> 7;
	*seed ^= *seed << 17;
	int cap = attempt < 5 ? 1 << attempt : 32;
	struct timespec ts = {0, (long)(1 + *seed % (uint64_t)cap) * 1000000L};
	nanosleep(&ts, NULL);
}

static bool retryable(int ge)
{
	return ge == GIT_EMODIFIED || ge == GIT_ELOCKED || ge == GIT_EEXISTS;
}

/* One attempt: 0 done, 1 lost a race (try again), < 0 an error. */
static int update_once(rung_repo *r, const git_oid *oid, note_edit_fn edit, void *ud, const git_signature *sig)
{
	git_repository *g = rung_repo_git(r);
	git_oid tip_id, new_id;
	git_commit *tip = NULL;
	git_note *note = NULL;
	git_reference *ref = NULL;
	rung_note n;
	memset(&n, 0, sizeof(n));
	bool have_tip = false, exists = false;
	int e = git_reference_name_to_id(&tip_id, g, RUNG_NOTES_REF);
	if (e == 0) {
		have_tip = true;
		if ((e = git_commit_lookup(&tip, g, &tip_id)) < 0)
			return rung_git_error(e, RUNG_NOTES_REF);
		e = git_note_commit_read(&note, g, tip, oid);
		if (e == 0) {
			exists = true;
			e = rung_note_parse(&n, git_note_message(note));
			git_note_free(note);
			if (e < 0)
				goto out;
		} else if (e != GIT_ENOTFOUND) {
			e = rung_git_error(e, "reading note");
			goto out;
		}
	} else if (e != GIT_ENOTFOUND) {
		return rung_git_error(e, RUNG_NOTES_REF);
	}
	git_oid_tostr(n.commit, sizeof(n.commit), oid); /* the ids of its directives need it */
	int how = edit(&n, exists, sig, ud);
	if (how < 0 || how == NOTE_KEEP || (how == NOTE_REMOVE && !exists)) {
		e = how < 0 ? how : 0;
		goto out;
	}
	if (how == NOTE_REMOVE) {
		e = git_note_commit_remove(&new_id, g, tip, sig, sig, oid);
	} else {
		char *text = rung_note_format(&n);
		if (!text) {
			e = rung_error_set(RUNG_ENOMEM, "out of memory");
			goto out;
		}
		e = git_note_commit_create(&new_id, NULL, g, tip, sig, sig, oid, text, 1);
		free(text);
	}
	if (e < 0) {
		e = rung_git_error(e, how == NOTE_REMOVE ? "removing note" : "writing note");
		goto out;
	}
	/* the ref moves only from the tip this note was built on */
	if (have_tip)
		e = git_reference_create_matching(&ref, g, RUNG_NOTES_REF, &new_id, 1, &tip_id, "rung: note");
	else
		e = git_reference_create(&ref, g, RUNG_NOTES_REF, &new_id, 0, "rung: note");
	git_reference_free(ref);
	if (retryable(e))
		e = 1;
	else if (e < 0)
		e = rung_git_error(e, "updating " RUNG_NOTES_REF);
out:
	git_commit_free(tip);
	rung_note_clear(&n);
	return e;
}

/* rung's writers also take an exclusive flock on the git directory for the
 * whole read-edit-swap. The compare-and-swap alone is not enough: when the
 * notes ref does not exist yet, libgit2 (1.5) checks that it does not exist
 * before it takes the ref's lock, so two processes writing a repository's
 * first note could both "create" it and one note was lost
 * (tests/test_notes.c test_first_note_race). The flock goes with the process
 * (no stale lock after a SIGKILL) and leaves no file; writers from outside
 * (git notes) are still caught by the swap. Where flock is refused (some
 * network file systems) the swap alone guards. Returns the fd to close, -1
 * when unlocked, or an error after about 10 s of another writer holding it. */
enum { NOTE_LOCK_WAIT_MS = 10000 };
static int lock_notes(rung_repo *r, uint64_t *seed)
{
	int fd = open(rung_repo_gitdir(r), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int attempt = 0;; attempt++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return fd;
		if (errno != EWOULDBLOCK && errno != EINTR) {
			close(fd);
			return -1;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 > NOTE_LOCK_WAIT_MS) {
			close(fd);
			return rung_error_set(RUNG_EVCS,
					      "another rung process has been writing notes in %s for %d s; the note was "
					      "not written (try again)",
					      rung_repo_gitdir(r), NOTE_LOCK_WAIT_MS / 1000);
		}
		backoff(attempt, seed);
	}
}

static int update_note(rung_repo *r, const git_oid *oid, note_edit_fn edit, void *ud)
{
	git_signature *sig = NULL;
	int e = signature(&sig, r);
	if (e < 0)
		return e;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	uint64_t seed = (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL ^ (uint64_t)now.tv_nsec;
	if (!seed)
		seed = 1;
	int lock = lock_notes(r, &seed);
	if (lock < -1) {
		git_signature_free(sig);
		return lock;
	}
	for (int attempt = 0; attempt < NOTE_TRIES; attempt++) {
		if ((e = update_once(r, oid, edit, ud, sig)) != 1)
			break;
		backoff(attempt, &seed);
	}
	if (lock >= 0)
		close(lock); /* releases the flock */
	git_signature_free(sig);
	if (e == 1) {
		const git_error *ge = git_error_last();
		e = rung_error_set(RUNG_EVCS,
				   "%s kept changing under this note (another writer?); gave up after %d tries, the note "
				   "was not written: %s",
				   RUNG_NOTES_REF, NOTE_TRIES, ge && ge->message ? ge->message : "ref changed");
	}
	return e;
}

typedef struct {
	rung_note_verdict verdict;
	const char *text; /* one line, or NULL */
	int64_t time;
	rung_entry_kind kind;
} add_edit;

static int edit_add(rung_note *n, bool exists, const git_signature *sig, void *ud)
{
	const add_edit *a = ud;
	(void)exists;
	if (a->verdict != RUNG_NOTE_NONE)
		n->verdict = a->verdict;
	if (a->text && push_directive(n, a->time, sig->name, a->text, a->kind) < 0)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	return NOTE_WRITE;
}

int rung_note_add(rung_repo *r, const char *rev, rung_note_verdict verdict, const char *text, int64_t now)
{
	return rung_note_add_entry(r, rev, verdict, RUNG_ENTRY_DIRECTIVE, text, now);
}

int rung_note_add_entry(rung_repo *r, const char *rev, rung_note_verdict verdict, rung_entry_kind kind,
			const char *text, int64_t now)
{
	git_oid oid;
	int e = resolve_oid(&oid, r, rev);
	if (e < 0)
		return e;
	char *flat = NULL;
	if (text && *text) {
		/* one line per directive: newlines would break the format */
		if (!(flat = strdup(text)))
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		for (char *p = flat; *p; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
	}
	int64_t t = now ? now : (int64_t)time(NULL);
	add_edit a = {verdict, flat, t - t % 60, kind};
	e = update_note(r, &oid, edit_add, &a);
	free(flat);
	return e;
}

static int edit_verdict(rung_note *n, bool exists, const git_signature *sig, void *ud)
{
	rung_note_verdict v = *(const rung_note_verdict *)ud;
	(void)sig;
	if (!exists && v == RUNG_NOTE_NONE)
		return NOTE_KEEP; /* nothing to clear */
	n->verdict = v;
	/* nothing left: the note goes, rather than an empty one */
	if (n->verdict == RUNG_NOTE_NONE && n->ndirectives == 0 && !(n->other && *n->other))
		return NOTE_REMOVE;
	return NOTE_WRITE;
}

int rung_note_set_verdict(rung_repo *r, const char *rev, rung_note_verdict verdict)
{
	git_oid oid;
	int e = resolve_oid(&oid, r, rev);
	if (e < 0)
		return e;
	return update_note(r, &oid, edit_verdict, &verdict);
}

static int edit_close_all(rung_note *n, bool exists, const git_signature *sig, void *ud)
{
	(void)sig;
	if (!exists)
		return rung_error_set(RUNG_ENOTFOUND, "%s: no note", (const char *)ud);
	for (int i = 0; i < n->ndirectives; i++)
		if (!n->directives[i].remark)
			n->directives[i].done = true;
	return NOTE_WRITE;
}

typedef struct {
	const char *rev, *id, *version, *reason;
	rung_answer_kind kind;
	int64_t time;
} answer_edit;

static int edit_answer(rung_note *n, bool exists, const git_signature *sig, void *ud)
{
	const answer_edit *a = ud;
	if (!exists)
		return rung_error_set(RUNG_ENOTFOUND, "%s: no note, so no directive %s", a->rev, a->id);
	for (int k = 0; k < n->ndirectives; k++) {
		char id[RUNG_DIRECTIVE_ID_LEN + 1];
		rung_directive_id(id, n, k);
		if (strcmp(id, a->id))
			continue;
		rung_directive *d = &n->directives[k];
		if (d->remark)
			return rung_error_set(RUNG_EINVAL, "%s is a remark, not a directive: there is nothing to answer", a->id);
		/* the same answer again (a retry): nothing to write */
		const rung_answer_rec *last = d->nanswers ? &d->answers[d->nanswers - 1] : NULL;
		const char *why = a->reason ? a->reason : "";
		if (last && last->kind == a->kind && !strcmp(last->text ? last->text : "", why) &&
		    !strcmp(last->version, a->version ? a->version : ""))
			return NOTE_KEEP;
		if (a->kind == RUNG_ANSWER_REOPENED && rung_directive_status(d) == RUNG_DSTATUS_OPEN)
			return rung_error_set(RUNG_EUSAGE, "directive %s is open: there is nothing to reopen", a->id);
		if (!d->nanswers && d->answer != RUNG_ANSWER_NONE &&
		    push_answer(d, d->answer, d->answer_time, d->answer_author, d->answer_version, d->answer_text) < 0)
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		if (push_answer(d, a->kind, a->time, sig->name && *sig->name ? sig->name : "rung", a->version, a->reason) < 0)
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		/* closed ("x ") unless the standing answer is the person's reopen; an
		 * agent's answer after the person's close leaves it closed */
		d->done = d->answer != RUNG_ANSWER_REOPENED;
		return NOTE_WRITE;
	}
	return rung_error_set(RUNG_ENOTFOUND, "%s: no directive %s in its note", a->rev, a->id);
}

int rung_note_answer(rung_repo *r, const char *rev, const char *id, rung_answer_kind kind, const char *version,
		     const char *reason, int64_t now)
{
	git_oid oid;
	int e = resolve_oid(&oid, r, rev);
	if (e < 0)
		return e;
	if (kind == RUNG_ANSWER_NONE)
		return rung_error_set(RUNG_EINVAL, "an answer is done, declined, closed or reopened");
	if (version && *version && (strspn(version, "0123456789abcdef") != strlen(version) || strlen(version) > 40))
		return rung_error_set(RUNG_EINVAL, "%s: the answering version must be a commit id", version);
	char *flat = NULL;
	if (reason && *reason) { /* one line: a newline would end the answer */
		if (!(flat = strdup(reason)))
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		for (char *p = flat; *p; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
	}
	int64_t t = now ? now : (int64_t)time(NULL);
	answer_edit a = {rev, id, version, flat, kind, t - t % 60};
	e = update_note(r, &oid, edit_answer, &a);
	free(flat);
	return e;
}

int rung_note_close_all(rung_repo *r, const char *rev)
{
	git_oid oid;
	int e = resolve_oid(&oid, r, rev);
	if (e < 0)
		return e;
	return update_note(r, &oid, edit_close_all, (void *)rev);
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

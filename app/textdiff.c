#include "app/textdiff.h"

#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "core/err.h"

static int push(rung_sbs *d, rung_diff_kind k, const char *l, int ll, const char *r, int rl, int lno, int rno)
{
	if (d->n == d->cap) {
		int cap = d->cap ? d->cap * 2 : 256;
		rung_diff_row *v = realloc(d->rows, (size_t)cap * sizeof(*v));
		if (!v)
			return RUNG_ENOMEM;
		d->rows = v;
		d->cap = cap;
	}
	rung_diff_row *row = &d->rows[d->n++];
	row->kind = k;
	row->left = l ? strndup(l, (size_t)ll) : NULL;
	row->right = r ? strndup(r, (size_t)rl) : NULL;
	row->lno = lno;
	row->rno = rno;
	return 0;
}

/* Pending deletions, paired with the additions that follow them. */
typedef struct {
	rung_sbs *d;
	int first_pending; /* index in d->rows of the first unpaired DEL row, -1 none */
	int err;
} diff_state;

static int strip_len(const char *s, size_t n)
{
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	return (int)n;
}

static int on_hunk(const git_diff_delta *delta, const git_diff_hunk *hunk, void *payload)
{
	diff_state *st = payload;
	(void)delta;
	st->first_pending = -1;
	st->d->nhunks++;
	st->err = push(st->d, RUNG_DIFF_HUNK, hunk->header, strip_len(hunk->header, hunk->header_len), NULL, 0, 0, 0);
	return st->err;
}

static int on_line(const git_diff_delta *delta, const git_diff_hunk *hunk, const git_diff_line *line, void *payload)
{
	diff_state *st = payload;
	rung_sbs *d = st->d;
	(void)delta, (void)hunk;
	int len = strip_len(line->content, line->content_len);
	switch (line->origin) {
	case GIT_DIFF_LINE_CONTEXT:
		st->first_pending = -1;
		st->err = push(d, RUNG_DIFF_SAME, line->content, len, line->content, len, line->old_lineno, line->new_lineno);
		break;
	case GIT_DIFF_LINE_DELETION:
		d->dels++;
		if (st->first_pending < 0)
			st->first_pending = d->n;
		st->err = push(d, RUNG_DIFF_DEL, line->content, len, NULL, 0, line->old_lineno, 0);
		break;
	case GIT_DIFF_LINE_ADDITION:
		d->adds++;
		if (st->first_pending >= 0 && st->first_pending < d->n && d->rows[st->first_pending].kind == RUNG_DIFF_DEL) {
			rung_diff_row *row = &d->rows[st->first_pending++];
			row->kind = RUNG_DIFF_CHANGE;
			row->right = strndup(line->content, (size_t)len);
			row->rno = line->new_lineno;
			if (st->first_pending >= d->n)
				st->first_pending = -1;
		} else {
			st->first_pending = -1;
			st->err = push(d, RUNG_DIFF_ADD, NULL, 0, line->content, len, 0, line->new_lineno);
		}
		break;
	default: /* end-of-file newline markers */
		break;
	}
	return st->err;
}

int rung_textdiff(rung_sbs *out, const char *a, const char *b, int context)
{
	memset(out, 0, sizeof(*out));
	static int inited;
	if (!inited) {
		git_libgit2_init();
		inited = 1;
	}
	git_diff_options opts;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.flags = GIT_DIFF_PATIENCE | GIT_DIFF_FORCE_TEXT;
	opts.context_lines = (uint32_t)(context < 0 ? 3 : context);
	diff_state st = {out, -1, 0};
	int gerr = git_diff_buffers(a, strlen(a), "a", b, strlen(b), "b", &opts, NULL, NULL, on_hunk, on_line, &st);
	if (st.err < 0) {
		rung_sbs_clear(out);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	if (gerr < 0) {
		const git_error *e = git_error_last();
		rung_sbs_clear(out);
		return rung_error_set(RUNG_EVCS, "diff: %s", e && e->message ? e->message : "failed");
	}
	return 0;
}

void rung_sbs_clear(rung_sbs *d)
{
	for (int i = 0; i < d->n; i++) {
		free(d->rows[i].left);
		free(d->rows[i].right);
	}
	free(d->rows);
	memset(d, 0, sizeof(*d));
}

int rung_sass_prepare(char **text, rung_sass_mix *mix, const char *listing)
{
	rung_sass s;
	*text = NULL;
	int err = rung_sass_normalize(&s, listing, RUNG_SASS_RENAME_REGS);
	if (err < 0)
		return err;
	if (mix)
		rung_sass_count(mix, &s, -1);
	*text = rung_sass_text(&s, -1);
	rung_sass_clear(&s);
	return *text ? 0 : rung_error_set(RUNG_ENOMEM, "out of memory");
}

#include "app/textdiff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "core/err.h"
#include "core/sass_diff.h"

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

/* A line of a normalized listing as rung_sass_text writes it. */
static char *line_text(const rung_sass *s, int i)
{
	if (i < 0)
		return NULL;
	const rung_sass_line *l = &s->lines[i];
	size_t n = strlen(l->text);
	char *t = malloc(n + 3);
	if (!t)
		return NULL;
	if (l->kind == RUNG_SASS_INST) {
		t[0] = t[1] = ' ';
		memcpy(t + 2, l->text, n + 1);
	} else {
		memcpy(t, l->text, n);
		t[n] = ':';
		t[n + 1] = 0;
	}
	return t;
}

static int push_row(rung_sbs *d, rung_diff_kind k, char *l, char *r, int lno, int rno)
{
	if (d->n == d->cap) {
		int cap = d->cap ? d->cap * 2 : 256;
		rung_diff_row *v = realloc(d->rows, (size_t)cap * sizeof(*v));
		if (!v) {
			free(l);
			free(r);
			return RUNG_ENOMEM;
		}
		d->rows = v;
		d->cap = cap;
	}
	d->rows[d->n++] = (rung_diff_row){k, l, r, lno, rno};
	return 0;
}

int rung_sass_blockdiff(rung_sbs *out, const rung_sass *a, const rung_sass *b, int context)
{
	memset(out, 0, sizeof(*out));
	rung_sass_diff sd;
	int rc = rung_sass_diff_build(&sd, a, b, context);
	if (rc < 0)
		return rc;
	for (int h = 0; h < sd.nhunks && rc == 0; h++) {
		const rung_sd_hunk *hk = &sd.hunks[h];
		/* the function and the block of the first change, from a (b where a has no line) */
		const rung_sass *s = hk->block_a >= 0 ? a : b;
		int head = hk->block_a >= 0 ? hk->block_a : hk->block_b;
		char where[192] = "";
		if (head >= 0) {
			const rung_sass_line *l = &s->lines[head];
			const char *fn = l->func >= 0 && l->func < s->nfuncs ? s->funcs[l->func] : "";
			if (l->kind == RUNG_SASS_LABEL)
				snprintf(where, sizeof(where), " %.120s %.40s", fn, l->text);
			else
				snprintf(where, sizeof(where), " %.120s", fn);
		}
		char hdr[256];
		snprintf(hdr, sizeof(hdr), "@@ -%d,%d +%d,%d @@%s", hk->a0, hk->na, hk->b0, hk->nb, where);
		char *t = strdup(hdr);
		if (!t || (rc = push_row(out, RUNG_DIFF_HUNK, t, NULL, 0, 0)) < 0) {
			rc = RUNG_ENOMEM;
			break;
		}
		out->nhunks++;
		for (int i = hk->r0; i < hk->r1; i++) {
			const rung_sd_row *r = &sd.rows[i];
			static const rung_diff_kind kinds[] = {
			    [RUNG_SD_SAME] = RUNG_DIFF_SAME,
			    [RUNG_SD_CHANGE] = RUNG_DIFF_CHANGE,
			    [RUNG_SD_DEL] = RUNG_DIFF_DEL,
			    [RUNG_SD_ADD] = RUNG_DIFF_ADD,
			};
			char *l = line_text(a, r->a), *rt = line_text(b, r->b);
			if ((r->a >= 0 && !l) || (r->b >= 0 && !rt)) {
				free(l);
				free(rt);
				rc = RUNG_ENOMEM;
				break;
			}
			if ((rc = push_row(out, kinds[r->op], l, rt, r->a + 1, r->b + 1)) < 0)
				break;
		}
	}
	out->adds = sd.adds;
	out->dels = sd.dels;
	rung_sass_diff_clear(&sd);
	if (rc < 0) {
		rung_sbs_clear(out);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	return 0;
}

int rung_sass_diff_listings(rung_sbs *out, rung_sass_mix *ma, rung_sass_mix *mb, const char *la, const char *lb,
			    bool raw, int context)
{
	memset(out, 0, sizeof(*out));
	rung_sass a, b;
	int rc = rung_sass_normalize_pair(&a, &b, la, lb, raw ? 0 : RUNG_SASS_RENAME_REGS);
	if (rc < 0)
		return rc;
	if (ma)
		rung_sass_count(ma, &a, -1);
	if (mb)
		rung_sass_count(mb, &b, -1);
	if (raw) {
		char *ta = rung_sass_text(&a, -1), *tb = rung_sass_text(&b, -1);
		rc = ta && tb ? rung_textdiff(out, ta, tb, context) : rung_error_set(RUNG_ENOMEM, "out of memory");
		free(ta);
		free(tb);
	} else {
		rc = rung_sass_blockdiff(out, &a, &b, context);
	}
	rung_sass_clear(&a);
	rung_sass_clear(&b);
	return rc;
}

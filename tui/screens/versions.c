/* Versions: one row per version with its rung glyphs, error, time, delta
 * against the baseline, roofline share, registers, verdict and note, and on a
 * wide window its TFLOP/s or TB/s, SM clock and date. The mark column has
 * three cells: the compare mark (a, b), the best or baseline glyph, and a
 * suspect version's flag (docs/CHECKS.md, "Evidence: suspects"); a suspect
 * version has "suspect" as its verdict until the person gives one. */
#define _GNU_SOURCE /* strcasestr */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/err.h"
#include "core/roofline_guard.h"
#include "app/session.h"
#include "tui/draw.h"
#include "tui/model/rowmetrics.h"
#include "tui/view.h"

#define NSORTS 4
static const char *const sort_names[NSORTS] = {"commit order", "fastest first", "smallest error first", "highest roofline % first"};

typedef struct {
	int *idx; /* display order -> model row */
	int n;
	rung_row_metrics *mx; /* per model row */
	int nmx;
	int subject_want; /* display width of the longest subject */
	bool median_us;   /* every median under 1 ms: the column in us, else in ms */
} versions_priv;

/* Columns, in display order. When the window is narrow they are dropped,
 * highest `drop` first, until the subject has SUBJECT_MIN columns: the
 * verdict and the time stay longest. The extra columns (perf: TFLOP/s or
 * TB/s, whichever is nearer its roof; the SM clock during the bench; the
 * commit date) appear only where the subject keeps SUBJECT_ROOM columns (or
 * its longest text) beside them; the subject never takes more than its
 * longest text. */
enum { C_MARK, C_HASH, C_DATE, C_SUBJECT, C_STEPS, C_MAXREL, C_MEDIAN, C_DELTA, C_PERF, C_ROOF, C_CLOCK, C_REGS, C_VERDICT,
       C_NOTE, NCOLS };
#define SUBJECT_MIN 22
#define SUBJECT_ROOM 50
#define DROP_MAX 15
static const struct {
	const char *title;
	int width, drop;
	bool right, extra;
} cols[NCOLS] = {
	[C_MARK] = {"", 3, 0, false, false},	    [C_HASH] = {"hash", 7, 0, false, false},
	[C_DATE] = {"date", 11, 15, false, true},    [C_SUBJECT] = {"subject", 0, 0, false, false},
	[C_STEPS] = {"CRKB", 4, 3, false, false},    [C_MAXREL] = {"max_rel", 9, 8, true, false},
	[C_MEDIAN] = {"median", 9, 4, true, false},  [C_DELTA] = {"vs base", 12, 7, true, false},
	[C_PERF] = {"perf", 13, 13, true, true},     [C_ROOF] = {"roof", 5, 9, true, false},
	[C_CLOCK] = {"clock", 7, 14, true, true},    [C_REGS] = {"regs/sp", 7, 10, true, false},
	[C_VERDICT] = {"verdict", 8, 5, false, false}, [C_NOTE] = {"", 1, 6, false, false},
};

/* CRKB, and CRKBS while a version has the sanitize rung (it runs on request
 * only); the hash column is 8 wide while the WORKTREE row (uncommitted edits)
 * is listed, so that its name is not cut. Set by each draw (the UI is single
 * threaded). */
static bool steps_wide, hash_wide;

static bool is_worktree(const rung_model_row *r)
{
	return !strcmp(r->hash, "WORKTREE");
}

static int col_width(int c)
{
	if (c == C_HASH && hash_wide)
		return 8;
	return c == C_STEPS && steps_wide ? 5 : cols[c].width;
}

static const char *col_title(int c)
{
	return c == C_STEPS && steps_wide ? "CRKBS" : cols[c].title;
}

static const char *row_text(const rung_model_row *r, char *buf, int len)
{
	snprintf(buf, (size_t)len, "%.12s %s %s %s %s", r->hash, r->subject, r->author, rung_verdict_name(r->verdict), r->note);
	return buf;
}

static int cmp_double(double a, double b, bool asc)
{
	if (isnan(a) && isnan(b))
		return 0;
	if (isnan(a))
		return 1;
	if (isnan(b))
		return -1;
	if (a == b)
		return 0;
	return (a < b) == asc ? -1 : 1;
}

static versions_priv *sort_priv; /* qsort has no user pointer; the UI is single threaded */
static const rung_model *sort_model;
static int sort_mode;
static int by_sort(const void *pa, const void *pb)
{
	int a = *(const int *)pa, b = *(const int *)pb;
	const rung_row_metrics *ma = &sort_priv->mx[a], *mb = &sort_priv->mx[b];
	int c = 0;
	if (sort_mode == 1)
		c = cmp_double(ma->median_ms, mb->median_ms, true);
	else if (sort_mode == 2) { /* smallest error first: a failed check after every passing one, whatever its error */
		bool fa = sort_model->rows[a].step[RUNG_STEP_CHECK] == RUNG_S_FAILED;
		bool fb = sort_model->rows[b].step[RUNG_STEP_CHECK] == RUNG_S_FAILED;
		c = fa != fb ? (fa ? 1 : -1) : cmp_double(ma->max_rel, mb->max_rel, true);
	}
	else if (sort_mode == 3)
		c = cmp_double(ma->roof_pct, mb->roof_pct, false);
	return c ? c : a - b;
}

static int versions_open(rung_view *v)
{
	rung_tui *t = v->tui;
	rung_model *m = t->model;
	versions_priv *p = v->priv;
	if (!p) {
		p = v->priv = calloc(1, sizeof(*p));
		if (!p)
			return -1;
	}
	free(p->idx);
	free(p->mx);
	p->idx = malloc(sizeof(int) * (size_t)(m->nrows + 1));
	p->mx = malloc(sizeof(*p->mx) * (size_t)(m->nrows + 1));
	p->n = 0;
	if (!p->idx || !p->mx)
		return -1;
	int base = rung_model_baseline(m);
	char buf[1024];
	p->subject_want = 0;
	bool any_median = false, all_us = true;
	for (int i = 0; i < m->nrows; i++) {
		const rung_result *ri = m->rows[i].result;
		if (ri && ri->bench.valid && !isnan(ri->bench.tflops)) /* the roof that fits its instruction mix */
			rung_model_row_mma(m, i);
		rung_row_metrics_get(&p->mx[i], m, i, base);
		if (!isnan(p->mx[i].median_ms)) {
			any_median = true;
			all_us &= p->mx[i].median_ms < 1;
		}
		int sw = rung_tui_sanitize(buf, sizeof(buf), m->rows[i].subject, -1, 0);
		if (sw > p->subject_want)
			p->subject_want = sw;
		if (t->filter && t->search[0] && !strcasestr(row_text(&m->rows[i], buf, sizeof(buf)), t->search))
			continue;
		p->idx[p->n++] = i;
	}
	p->median_us = any_median && all_us;
	if (t->sort) {
		sort_priv = p;
		sort_model = m;
		sort_mode = t->sort;
		qsort(p->idx, (size_t)p->n, sizeof(int), by_sort);
	}
	v->top = 2;
	v->nlines = p->n;
	/* keep the selected version under the cursor */
	int sel = rung_tui_selected_row(t);
	for (int i = 0; i < p->n; i++)
		if (p->idx[i] == sel) {
			v->cursor = i;
			break;
		}
	rung_view_clamp(v);
	if (v->cursor >= 0 && v->cursor < p->n)
		rung_tui_select_row(t, p->idx[v->cursor]);
	return 0;
}

/* Which columns fit in width and the subject's width; subject_want: the widest subject. */
static void compute_layout(int width, int subject_want, bool show[NCOLS], int *subject_w)
{
	for (int c = 0; c < NCOLS; c++)
		show[c] = true;
	if (subject_want < (int)strlen(cols[C_SUBJECT].title))
		subject_want = (int)strlen(cols[C_SUBJECT].title);
	int need_min = subject_want < SUBJECT_MIN ? subject_want : SUBJECT_MIN;
	int need_room = subject_want < SUBJECT_ROOM ? subject_want : SUBJECT_ROOM;
	if (need_room < need_min)
		need_room = need_min;
	for (int drop = DROP_MAX; drop >= 0; drop--) {
		int used = 0;
		bool extras = false;
		for (int c = 0; c < NCOLS; c++)
			if (show[c] && c != C_SUBJECT) {
				used += col_width(c) + 1;
				extras |= cols[c].extra;
			}
		int sw = width - used;
		if (sw >= (extras ? need_room : need_min) || drop == 0) {
			if (sw > subject_want)
				sw = subject_want;
			*subject_w = sw > 0 ? sw : 0;
			return;
		}
		for (int c = 0; c < NCOLS; c++)
			if (cols[c].drop == drop)
				show[c] = false;
	}
}

static rung_role verdict_role(rung_verdict v)
{
	switch (v) {
	case RUNG_VERDICT_KEEP:
		return RUNG_ROLE_OK;
	case RUNG_VERDICT_REJECT:
		return RUNG_ROLE_FAILED;
	case RUNG_VERDICT_BASELINE:
		return RUNG_ROLE_BASELINE;
	case RUNG_VERDICT_BEST:
		return RUNG_ROLE_BEST;
	default:
		return RUNG_ROLE_DEFAULT;
	}
}

static void draw_row(rung_view *v, int y, int mrow, bool cursor, const bool show[NCOLS], int subject_w)
{
	rung_tui *t = v->tui;
	rung_model *m = t->model;
	versions_priv *p = v->priv;
	const rung_model_row *r = &m->rows[mrow];
	const rung_row_metrics *mx = &p->mx[mrow];
	/* a compile rung's verdict kept with no GPU ran here: its compile rung
	 * is drawn as such, not as recorded elsewhere (#28 D-16) */
	bool compiled_here = rung_model_row_is_recorded(r) && rung_result_compile_verdict(r->result);
	bool recorded = rung_model_row_is_recorded(r) && !compiled_here;
	WINDOW *w = v->win;
	int x = 0;
	if (cursor)
		rung_tui_fill(w, y, 0, v->width, RUNG_ROLE_CURSOR);
#define ROLE(rl) (cursor ? RUNG_ROLE_CURSOR : (rl))
	char buf[256];
	for (int c = 0; c < NCOLS && x < v->width; c++) {
		if (!show[c])
			continue;
		int cw = c == C_SUBJECT ? subject_w : col_width(c);
		int room = v->width - x;
		if (cw > room)
			cw = room;
		if (r->pending && c != C_MARK && c != C_HASH && c != C_DATE && c != C_SUBJECT && c != C_VERDICT &&
		    c != C_NOTE) {
			/* its results are being read (m->filling): unknown, not absent */
			const char *dots = rung_tui_utf8 ? "\u2026" : "...";
			if (c == C_STEPS)
				rung_tui_draw(w, y, x, cw, ROLE(RUNG_ROLE_DIM), dots);
			else
				rung_tui_draw_right(w, y, x, cw, ROLE(RUNG_ROLE_DIM), dots);
			x += cw + 1;
			continue;
		}
		switch (c) {
		case C_MARK: {
			/* three cells: the compare mark (a or b), the best or baseline glyph,
			 * and a suspect version's flag; each says one thing, none hides another */
			const char *ab = !strcmp(t->mark_a, r->hash) ? "a" : !strcmp(t->mark_b, r->hash) ? "b" : NULL;
			if (ab)
				rung_tui_draw(w, y, x, 1, ROLE(RUNG_ROLE_MARK), ab);
			const char *mk = NULL;
			rung_role rl = RUNG_ROLE_DEFAULT;
			if (r->baseline)
				mk = rung_glyph(RUNG_G_BASELINE), rl = RUNG_ROLE_BASELINE;
			else if (r->best) /* hollow while nothing passed the sanitize gate */
				mk = rung_glyph(m->gate_provisional ? RUNG_G_BEST_PROV : RUNG_G_BEST), rl = RUNG_ROLE_BEST;
			if (mk && cw > 1)
				rung_tui_draw(w, y, x + 1, 1, ROLE(rl), mk);
			if (mx->suspect && cw > 2)
				rung_tui_draw(w, y, x + 2, 1, ROLE(RUNG_ROLE_SUSPECT), rung_glyph(RUNG_G_SUSPECT));
			break;
		}
		case C_HASH:
			rung_tui_drawf(w, y, x, cw, ROLE(RUNG_ROLE_DIM), "%.*s", rung_tui_id_len(r->hash), r->hash);
			break;
		case C_DATE:
			if (r->date) {
				time_t tt = (time_t)r->date;
				struct tm tm;
				if (localtime_r(&tt, &tm) && strftime(buf, sizeof(buf), "%m-%d %H:%M", &tm))
					rung_tui_draw(w, y, x, cw, ROLE(RUNG_ROLE_DIM), buf);
			}
			break;
		case C_SUBJECT:
			rung_tui_draw(w, y, x, cw, ROLE(RUNG_ROLE_DEFAULT), r->subject);
			break;
		case C_PERF:
			if (isnan(mx->median_ms))
				snprintf(buf, sizeof(buf), "-");
			else
				rung_result_perf(buf, sizeof(buf), r->result);
			rung_tui_draw_right(w, y, x, cw, ROLE(recorded ? RUNG_ROLE_RECORDED : RUNG_ROLE_DEFAULT), buf);
			break;
		case C_CLOCK:
			if (!isnan(mx->median_ms) && r->result && isfinite(r->result->bench.clock_mhz) && r->result->bench.clock_mhz > 0)
				snprintf(buf, sizeof(buf), "%.0fMHz", r->result->bench.clock_mhz);
			else
				snprintf(buf, sizeof(buf), "-");
			rung_tui_draw_right(w, y, x, cw, ROLE(RUNG_ROLE_DIM), buf);
			break;
		case C_STEPS: {
			/* being evaluated here: the steps it has passed are live ticks */
			bool inflight = false;
			for (int s = 0; s < RUNG_NSTEPS; s++)
				inflight |= r->step[s] == RUNG_S_PENDING || r->step[s] == RUNG_S_RUNNING;
			bool after_fail = false; /* the rungs after a failed one did not run: '-' (#28 D-20) */
			for (int k = 0; k < (steps_wide ? 5 : 4) && k < cw; k++) {
				int s = k < 4 ? k : RUNG_STEP_SANITIZE; /* the profile rung has no glyph */
				rung_role rl;
				rung_status st = after_fail && k < 4 && r->step[s] == RUNG_S_NONE ? RUNG_S_SKIPPED : r->step[s];
				after_fail |= r->step[s] == RUNG_S_FAILED;
				/* recorded on another machine: its own glyph and role, never a live tick */
				const char *gs = rung_step_glyph(st, r->cached && !inflight && !compiled_here,
								 recorded && !inflight, &rl);
				rung_tui_draw(w, y, x + k, 1, ROLE(rl), gs);
			}
			break;
		}
		case C_MAXREL:
			rung_fmt_max_rel(buf, sizeof(buf), mx->max_rel);
			rung_tui_draw_right(w, y, x, cw, ROLE(r->step[RUNG_STEP_CHECK] == RUNG_S_FAILED ? RUNG_ROLE_FAILED : RUNG_ROLE_DEFAULT), buf);
			break;
		case C_MEDIAN:
			rung_fmt_ms_unit(buf, sizeof(buf), mx->median_ms, p->median_us);
			if (mx->shared) { /* timed beside another process on the GPU: "~" (the detail names it) */
				memmove(buf + 1, buf, strlen(buf) + 1);
				buf[0] = '~';
			}
			rung_tui_draw_right(w, y, x, cw, ROLE(recorded ? RUNG_ROLE_RECORDED : mx->shared ? RUNG_ROLE_SLOWER : RUNG_ROLE_DEFAULT), buf);
			break;
		case C_DELTA: {
			rung_role rl = RUNG_ROLE_SAME;
			if (r->baseline && !isnan(mx->median_ms)) {
				snprintf(buf, sizeof(buf), "baseline");
				rl = RUNG_ROLE_BASELINE;
			} else if (mx->has_delta) {
				/* "202× ±0.6": the speedup over the baseline (core/stats.h) */
				const char *mark = mx->delta_shared ? "~" : !mx->env_differs ? "" : rung_tui_utf8 ? "\u2260" : "!=";
				int o = snprintf(buf, sizeof(buf), "%s", mark);
				rung_fmt_speedup_pm(buf + o, sizeof(buf) - (size_t)o, mx->speedup, mx->noise, rung_tui_utf8);
				rl = mx->cmp == RUNG_CMP_FASTER ? RUNG_ROLE_FASTER : mx->cmp == RUNG_CMP_SLOWER ? RUNG_ROLE_SLOWER : RUNG_ROLE_SAME;
			} else {
				snprintf(buf, sizeof(buf), "-");
			}
			rung_tui_draw_right(w, y, x, cw, ROLE(rl), buf);
			break;
		}
		case C_ROOF:
			if (mx->impossible)
				rung_tui_draw_right(w, y, x, cw, ROLE(RUNG_ROLE_IMPOSSIBLE), "!!");
			else {
				if (isnan(mx->roof_pct))
					snprintf(buf, sizeof(buf), "-");
				else
					snprintf(buf, sizeof(buf), "%.0f%%", mx->roof_pct);
				rung_tui_draw_right(w, y, x, cw, ROLE(RUNG_ROLE_DEFAULT), buf);
			}
			break;
		case C_REGS:
			if (mx->has_regs)
				snprintf(buf, sizeof(buf), "%d/%lld", mx->regs, (long long)mx->spills);
			else
				snprintf(buf, sizeof(buf), "-");
			rung_tui_draw_right(w, y, x, cw, ROLE(mx->spills > 0 ? RUNG_ROLE_WARNING : RUNG_ROLE_DEFAULT), buf);
			break;
		case C_VERDICT:
			/* no verdict from the person yet: a suspect version says so */
			if (r->verdict == RUNG_VERDICT_NONE && mx->suspect)
				rung_tui_draw(w, y, x, cw, ROLE(RUNG_ROLE_SUSPECT), "suspect");
			else if (r->verdict == RUNG_VERDICT_NONE && r->result && r->result->noop_of[0])
				rung_tui_draw(w, y, x, cw, ROLE(RUNG_ROLE_DIM), "no-op"); /* its edit changed nothing that runs */
			else
				rung_tui_draw(w, y, x, cw, ROLE(verdict_role(r->verdict)), rung_verdict_name(r->verdict));
			break;
		case C_NOTE:
			if (r->note[0])
				rung_tui_draw(w, y, x, cw, ROLE(RUNG_ROLE_NOTE), rung_glyph(RUNG_G_NOTE));
			break;
		}
		x += cw + 1;
	}
#undef ROLE
}

static void versions_draw(rung_view *v)
{
	rung_tui *t = v->tui;
	rung_model *m = t->model;
	versions_priv *p = v->priv;
	int evaluated, recorded;
	rung_model_count(m, &evaluated, &recorded);
	char task[64] = "", rec[64] = "";
	if (m->ntasks > 1)
		snprintf(task, sizeof(task), " (task %d/%d, T switches)", m->task + 1, m->ntasks);
	int compiled = 0; /* kept from a compile rung with no GPU: counted apart (#28 D-16) */
	for (int i = 0; i < m->nrows; i++)
		compiled += rung_model_row_is_recorded(&m->rows[i]) && rung_result_compile_verdict(m->rows[i].result);
	recorded -= compiled;
	int o = 0;
	if (recorded)
		o = snprintf(rec, sizeof(rec), ", %d recorded", recorded);
	if (compiled && o >= 0 && o < (int)sizeof(rec))
		snprintf(rec + o, sizeof(rec) - (size_t)o, ", %d compiled only", compiled);
	if (m->filling || m->fill_failed) /* the results of the rows shown are being read: no counts yet */
		rung_view_draw_title(v, "rung %s%s: %s%d version%s, %s", m->title, task, m->loading ? "loading... " : "",
				     m->nrows, m->nrows == 1 ? "" : "s",
				     m->filling ? "reading their results..." : "their results could not be read");
	else if (t->filter && t->search[0])
		rung_view_draw_title(v, "rung %s%s: %d of %d version%s%s match '%s'", m->title, task, p->n, m->nrows,
				     m->nrows == 1 ? "" : "s", m->loading ? " loaded so far" : "", t->search);
	else
		rung_view_draw_title(v, "rung %s%s: %s%d version%s, %d evaluated%s%s%s", m->title, task,
				     m->loading ? "loading... " : "", m->nrows, m->nrows == 1 ? "" : "s", evaluated, rec, t->sort ? ", " : "",
				     t->sort ? sort_names[t->sort] : "");
	if (v->height < 2)
		return;
	steps_wide = hash_wide = false;
	for (int i = 0; i < m->nrows; i++) {
		steps_wide |= m->rows[i].step[RUNG_STEP_SANITIZE] != RUNG_S_NONE;
		hash_wide |= is_worktree(&m->rows[i]);
	}
	bool show[NCOLS];
	int sw;
	compute_layout(v->width, p->subject_want, show, &sw);
	int x = 0;
	rung_tui_fill(v->win, 1, 0, v->width, RUNG_ROLE_HEADER);
	for (int c = 0; c < NCOLS && x < v->width; c++) {
		if (!show[c])
			continue;
		int cw = c == C_SUBJECT ? sw : col_width(c);
		if (cw > v->width - x)
			cw = v->width - x;
		if (cols[c].right)
			rung_tui_draw_right(v->win, 1, x, cw, RUNG_ROLE_HEADER, col_title(c));
		else
			rung_tui_draw(v->win, 1, x, cw, RUNG_ROLE_HEADER, col_title(c));
		x += cw + 1;
	}
	int rows = rung_view_rows(v);
	for (int i = 0; i < rows && v->offset + i < p->n; i++) {
		int line = v->offset + i;
		draw_row(v, v->top + i, p->idx[line], line == v->cursor, show, sw);
	}
	if (!p->n)
		rung_tui_draw(v->win, v->top < v->height ? v->top : 0, 1, v->width - 1, RUNG_ROLE_DIM,
			      m->nrows ? "no version matches the search (F shows all)" : "no versions yet: commit a kernel");
}

static void versions_select(rung_view *v)
{
	versions_priv *p = v->priv;
	if (v->cursor >= 0 && v->cursor < p->n)
		rung_tui_select_row(v->tui, p->idx[v->cursor]);
}

static int versions_request(rung_view *v, rung_request req)
{
	rung_tui *t = v->tui;
	switch (req) {
	case RUNG_REQ_SORT:
		t->sort = (t->sort + 1) % NSORTS;
		rung_tui_message(t, false, "sorted: %s", sort_names[t->sort]);
		return RUNG_R_REOPEN;
	case RUNG_REQ_NEXT_TASK: {
		rung_model *m = t->model;
		if (m->ntasks < 2) {
			rung_tui_message(t, false, "one task in this repository");
			return RUNG_R_NONE;
		}
		int cur = m->task, next = (m->task + 1) % m->ntasks;
		if (rung_model_set_task(m, next) < 0) {
			rung_tui_message(t, true, "task %s: %s", m->tasks[next], rung_error_last());
			return RUNG_R_REDRAW;
		}
		/* each task keeps its own selection and compare marks */
		rung_tui_switch_marks(t, cur, next);
		v->cursor = v->offset = 0;
		rung_tui_message(t, false, "task %s (%d of %d)", m->title, m->task + 1, m->ntasks);
		return RUNG_R_REOPEN;
	}
	case RUNG_REQ_FILTER:
		if (!t->search[0]) {
			rung_tui_message(t, true, "no search to filter by (press / first)");
			return RUNG_R_NONE;
		}
		t->filter = !t->filter;
		rung_tui_message(t, false, t->filter ? "showing versions matching '%s'" : "showing all versions%s",
				 t->filter ? t->search : "");
		return RUNG_R_REOPEN;
	default:
		return RUNG_R_UNHANDLED;
	}
}

static void versions_done(rung_view *v)
{
	versions_priv *p = v->priv;
	if (p) {
		free(p->idx);
		free(p->mx);
		free(p);
	}
	v->priv = NULL;
}

static const char *versions_line_text(rung_view *v, int i, char *buf, int len)
{
	versions_priv *p = v->priv;
	if (i < 0 || i >= p->n)
		return NULL;
	return row_text(&v->tui->model->rows[p->idx[i]], buf, len);
}

/* Where a search matched row i when the table does not show it: the subject
 * past its cut, the author, the note (the table shows only a mark for it). */
static const char *versions_match_where(rung_view *v, int i, const char *needle)
{
	versions_priv *p = v->priv;
	if (i < 0 || i >= p->n)
		return "";
	const rung_model_row *r = &v->tui->model->rows[p->idx[i]];
	char hash[16];
	snprintf(hash, sizeof(hash), "%.7s", r->hash);
	if (strcasestr(hash, needle))
		return "";
	bool show[NCOLS];
	int sw = 0;
	compute_layout(v->width, p->subject_want, show, &sw);
	const char *m = strcasestr(r->subject, needle);
	if (m) {
		/* shown when it ends within the subject's columns (bytes: a bound for UTF-8) */
		char pre[sizeof(r->subject)];
		snprintf(pre, sizeof(pre), "%.*s", (int)(m - r->subject) + (int)strlen(needle), r->subject);
		if (rung_tui_width(pre) <= sw)
			return "";
		return "in its subject, past the cut";
	}
	if (strcasestr(r->author, needle))
		return "in its author (the detail shows it)";
	if (r->note[0] && strcasestr(r->note, needle))
		return "in its note (the detail shows it)";
	return "";
}

const rung_view_ops rung_screen_versions_ops = {
	.name = "versions",
	.open = versions_open,
	.draw = versions_draw,
	.request = versions_request,
	.select = versions_select,
	.done = versions_done,
	.line_text = versions_line_text,
	.match_where = versions_match_where,
};

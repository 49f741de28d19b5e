/* Steer: verdict and directives for the selected version (written through the
 * model: git notes with the real backend), and every directive and verdict in
 * the history, each directive with its id, its status (open, done, declined,
 * closed), the version that answered it and the reason. The person closes an
 * open one from the list (x). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "tui/draw.h"
#include "tui/view.h"
#include "app/goal.h"
#include "vcs/notes.h"

/* A line of the list: directive `dir` of model row `row`, or (dir -1) a row
 * with a verdict or a note but no directive. */
typedef struct {
	int row, dir;
} steer_line;

typedef struct {
	steer_line *lines;
	int n;
	bool in_list; /* Tab: focus on the list */
	/* the directive the close prompt is for (the list may change meanwhile) */
	char close_hash[41], close_id[9];
} steer_priv;

/* Status colours: open asks something of the agent, done is the good outcome,
 * declined wants the person's eye, closed is over. */
static rung_role status_role(rung_dir_status s)
{
	return s == RUNG_DIR_DONE ? RUNG_ROLE_OK : s == RUNG_DIR_DECLINED ? RUNG_ROLE_WARNING
					       : s == RUNG_DIR_CLOSED	  ? RUNG_ROLE_DIM
									  : RUNG_ROLE_NOTE;
}

/* The form's directives: the selected row's, then the task-wide ones of the
 * other rows. Fills up to max (row, dir) pairs; returns how many there are. */
static int form_dirs(const rung_model *m, int sel, steer_line *out, int max)
{
	int n = 0;
	if (sel < 0)
		return 0;
	for (int k = 0; k < m->rows[sel].ndirs; k++, n++)
		if (n < max)
			out[n] = (steer_line){sel, k};
	for (int i = 0; i < m->nrows; i++)
		for (int k = 0; i != sel && k < m->rows[i].ndirs; k++)
			if (m->rows[i].dirs[k].task_wide) {
				if (n < max)
					out[n] = (steer_line){i, k};
				n++;
			}
	return n;
}

enum { FORM_MAX = 64 };

/* Directive lines the form shows at this height (the rest: "... N more"). */
static int form_room(const rung_view *v)
{
	int r = (v->height - 10) / 2;
	return r < 1 ? 1 : r > FORM_MAX ? FORM_MAX : r;
}

/* Title, subject, verdict, note, the directives (one line at least), the
 * hint, a blank line, the list's header. */
static void layout(rung_view *v)
{
	rung_tui *t = v->tui;
	steer_line tmp[1];
	int nd = form_dirs(t->model, rung_tui_selected_row(t), tmp, 0), room = form_room(v);
	int shown = nd < 1 ? 1 : nd <= room ? nd : room;
	v->top = 1 + 3 + shown + 1 + 1 + 1;
}

static int steer_open(rung_view *v)
{
	rung_model *m = v->tui->model;
	steer_priv *p = v->priv;
	if (!p && !(p = v->priv = calloc(1, sizeof(*p))))
		return -1;
	free(p->lines);
	p->n = 0;
	int cap = 0;
	for (int i = 0; i < m->nrows; i++) {
		const rung_model_row *r = &m->rows[i];
		if (r->ndirs)
			cap += r->ndirs;
		else if (r->verdict != RUNG_VERDICT_NONE || r->note[0])
			cap++;
	}
	p->lines = malloc(sizeof(*p->lines) * (size_t)(cap + 1));
	for (int i = 0; p->lines && i < m->nrows; i++) {
		const rung_model_row *r = &m->rows[i];
		for (int k = 0; k < r->ndirs; k++)
			p->lines[p->n++] = (steer_line){i, k};
		if (!r->ndirs && (r->verdict != RUNG_VERDICT_NONE || r->note[0]))
			p->lines[p->n++] = (steer_line){i, -1};
	}
	if (!p->n)
		p->in_list = false;
	layout(v);
	v->nlines = p->n;
	return 0;
}

/* "  [by 3c452f7, claude: the reason]" for an answered directive ("" for an open one). */
static void answer_text(char *buf, size_t len, const rung_model_directive *d)
{
	buf[0] = 0;
	if (d->status == RUNG_DIR_OPEN || (!d->by[0] && !d->who[0] && !d->reason[0]))
		return;
	snprintf(buf, len, "  [%s%.7s%s%s%s%s]", d->by[0] ? "by " : "", d->by, d->by[0] && d->who[0] ? ", " : "", d->who,
		 (d->by[0] || d->who[0]) && d->reason[0] ? ": " : "", d->reason);
}

/* A directive from x on: id, status, text (task-wide ones say so, with their
 * version when `on` is set), its answer. cur: the list's cursor line. */
static void draw_directive(WINDOW *w, int y, int x, int width, const rung_model_row *r, const rung_model_directive *d,
			   bool on, bool cur)
{
	x += rung_tui_drawf(w, y, x, width - x, cur ? RUNG_ROLE_CURSOR : RUNG_ROLE_DIM, "%-8s ", d->id[0] ? d->id : "-");
	x += rung_tui_drawf(w, y, x, width - x, cur ? RUNG_ROLE_CURSOR : status_role(d->status), "%-9s",
			    rung_dir_status_name(d->status));
	if (d->task_wide)
		x += rung_tui_drawf(w, y, x, width - x, cur ? RUNG_ROLE_CURSOR : RUNG_ROLE_HEADER, on ? "[task-wide, %.*s] " : "[task-wide] ",
				    RUNG_ID(r->hash));
	x += rung_tui_draw(w, y, x, width - x, cur ? RUNG_ROLE_CURSOR : d->status == RUNG_DIR_CLOSED ? RUNG_ROLE_DIM : RUNG_ROLE_DEFAULT,
			   d->text);
	char ans[640];
	answer_text(ans, sizeof(ans), d);
	if (ans[0] && x < width)
		rung_tui_draw(w, y, x, width - x, cur ? RUNG_ROLE_CURSOR : RUNG_ROLE_DIM, ans);
}

static void steer_draw(rung_view *v)
{
	rung_tui *t = v->tui;
	rung_model *m = t->model;
	steer_priv *p = v->priv;
	layout(v);
	int row = rung_tui_selected_row(t);
	rung_view_draw_title(v, "steer %.*s", RUNG_ID(row >= 0 ? m->rows[row].hash : ""));
	WINDOW *w = v->win;
	int y = 1;
	if (row >= 0 && y < v->height) {
		const rung_model_row *r = &m->rows[row];
		int x = rung_tui_drawf(w, y, 0, v->width, RUNG_ROLE_KEY, "%.*s ", RUNG_ID(r->hash));
		rung_tui_draw(w, y, x, v->width - x, RUNG_ROLE_DEFAULT, r->subject);
		y++;
		if (y < v->height) {
			int x2 = rung_tui_draw(w, y, 0, v->width, RUNG_ROLE_HEADER, "verdict: ");
			for (int k = 1; k < RUNG_NVERDICTS && x2 < v->width; k++) {
				char lb[32];
				snprintf(lb, sizeof(lb), "[%d] %s", k, rung_verdict_name((rung_verdict)k));
				x2 += rung_tui_draw(w, y, x2, v->width - x2, r->verdict == (rung_verdict)k ? RUNG_ROLE_MARK : RUNG_ROLE_DEFAULT, lb);
				x2 += rung_tui_draw(w, y, x2, v->width - x2, RUNG_ROLE_DEFAULT, " ");
			}
			if (x2 < v->width)
				rung_tui_draw(w, y, x2, v->width - x2, RUNG_ROLE_DIM, "[0] none");
			y++;
		}
		if (y < v->height) {
			int x3 = rung_tui_draw(w, y, 0, v->width, RUNG_ROLE_HEADER, "note:    ");
			rung_tui_draw(w, y, x3, v->width - x3, r->note[0] ? RUNG_ROLE_NOTE : RUNG_ROLE_DIM,
				      r->note[0] ? r->note : "(none)");
			y++;
		}
		steer_line fd[FORM_MAX];
		int nd = form_dirs(m, row, fd, FORM_MAX), room = form_room(v);
		if (nd == 0 && y < v->height) {
			int x4 = rung_tui_draw(w, y, 0, v->width, RUNG_ROLE_HEADER, "directives: ");
			rung_tui_draw(w, y++, x4, v->width - x4, RUNG_ROLE_DIM, "(none)");
		}
		int show = nd <= room ? nd : room - 1;
		for (int k = 0; k < show && y < v->height; k++, y++) {
			int x4 = rung_tui_draw(w, y, 0, v->width, RUNG_ROLE_HEADER, k == 0 ? "directive " : "          ");
			const rung_model_row *dr = &m->rows[fd[k].row];
			draw_directive(w, y, x4, v->width, dr, &dr->dirs[fd[k].dir], fd[k].row != row, false);
		}
		if (show < nd && y < v->height)
			rung_tui_drawf(w, y++, 0, v->width, RUNG_ROLE_DIM, "          ... %d more (Tab: the list)", nd - show);
		if (y < v->height)
			rung_tui_draw(w, y++, 0, v->width, RUNG_ROLE_DIM,
				      "i: write a directive for the agent (Enter saves, Esc cancels); Tab, then x: close one");
	}
	if (v->top - 1 < v->height) {
		rung_tui_fill(w, v->top - 1, 0, v->width, RUNG_ROLE_HEADER);
		rung_tui_drawf(w, v->top - 1, 0, v->width, RUNG_ROLE_HEADER, "notes (%d)%s", p->n,
			       p->in_list ? "  Enter: its version  x: close the directive" : "  Tab: list");
	}
	int rows = rung_view_rows(v);
	for (int i = 0; i < rows && v->offset + i < p->n; i++) {
		int li = v->offset + i, yy = v->top + i;
		const rung_model_row *r = &m->rows[p->lines[li].row];
		bool cur = p->in_list && li == v->cursor;
		if (cur)
			rung_tui_fill(w, yy, 0, v->width, RUNG_ROLE_CURSOR);
		int x = rung_tui_drawf(w, yy, 0, v->width, cur ? RUNG_ROLE_CURSOR : RUNG_ROLE_DIM, "%.*s ", RUNG_ID(r->hash));
		x += rung_tui_drawf(w, yy, x, v->width - x, cur ? RUNG_ROLE_CURSOR : RUNG_ROLE_NOTE, "%-9s", rung_verdict_name(r->verdict));
		if (p->lines[li].dir >= 0)
			draw_directive(w, yy, x, v->width, r, &r->dirs[p->lines[li].dir], false, cur);
		else
			rung_tui_draw(w, yy, x, v->width - x, cur ? RUNG_ROLE_CURSOR : RUNG_ROLE_DEFAULT, r->note);
	}
}

static void set_verdict(rung_tui *t, rung_verdict vd, const char *text)
{
	int row = rung_tui_selected_row(t);
	if (row < 0)
		return;
	char hash[41];
	snprintf(hash, sizeof(hash), "%s", t->model->rows[row].hash);
	if (rung_model_set_note(t->model, hash, vd, text) < 0)
		rung_tui_message(t, true, "note: %s", rung_error_last());
	else
		rung_tui_message(t, false, "%.*s: verdict %s%s", RUNG_ID(hash), vd ? rung_verdict_name(vd) : "cleared", text[0] ? ", note saved" : "");
}

static void directive_done(rung_tui *t, const char *text, bool ok)
{
	if (!ok) {
		rung_tui_message(t, false, "directive not saved");
		return;
	}
	int row = rung_tui_selected_row(t);
	if (row >= 0)
		set_verdict(t, t->model->rows[row].verdict, text);
}

/* The close prompt answered: the directive it was asked for is closed with
 * the reason (by hash and id: the list may have changed meanwhile). */
static void close_done(rung_tui *t, const char *text, bool ok)
{
	rung_view *v = rung_tui_current(t);
	if (!v || v->id != RUNG_SCREEN_STEER || !v->priv)
		return;
	steer_priv *p = v->priv;
	if (!ok) {
		rung_tui_message(t, false, "directive %s not closed", p->close_id);
		return;
	}
	if (rung_model_close_directive(t->model, p->close_hash, p->close_id, text) < 0)
		rung_tui_message(t, true, "close: %s", rung_error_last());
	else
		rung_tui_message(t, false, "directive %s closed%s%s", p->close_id, text[0] ? ": " : "", text);
	/* the model's generation moved: the list is built again before the next frame */
}

static int close_request(rung_view *v)
{
	rung_tui *t = v->tui;
	steer_priv *p = v->priv;
	if (!p->in_list || v->cursor < 0 || v->cursor >= p->n) {
		rung_tui_message(t, false, "Tab to the notes list, then x on an open directive closes it");
		return RUNG_R_NONE;
	}
	const steer_line *l = &p->lines[v->cursor];
	const rung_model_row *r = &t->model->rows[l->row];
	if (l->dir < 0) {
		rung_tui_message(t, false, "%.*s has no directive on this line", RUNG_ID(r->hash));
		return RUNG_R_NONE;
	}
	const rung_model_directive *d = &r->dirs[l->dir];
	if (!d->id[0] || d->status != RUNG_DIR_OPEN) { /* an answer is not overwritten from here */
		rung_tui_message(t, false, d->id[0] ? "directive %s is already %s" : "this directive has no id%s%s", d->id,
				 d->id[0] ? rung_dir_status_name(d->status) : "");
		return RUNG_R_NONE;
	}
	snprintf(p->close_hash, sizeof(p->close_hash), "%s", r->hash);
	snprintf(p->close_id, sizeof(p->close_id), "%s", d->id);
	char label[32];
	snprintf(label, sizeof(label), "close %s, reason: ", d->id);
	rung_tui_prompt(t, label, "", close_done);
	return RUNG_R_NONE;
}

/* D: the person's verdict that the task is done, a task-wide directive
 * marked [done] on the task's newest version (as rung note --task-wide --done);
 * D while one is in force reopens the task (closes it, with the reason). */
static void task_done_answered(rung_tui *t, const char *text, bool ok)
{
	rung_model *m = t->model;
	const rung_goal_status *gs = rung_model_goal(m);
	bool reopen = gs && gs->done.in_force;
	if (!ok || !text[0]) {
		rung_tui_message(t, false, reopen ? "task not reopened (it needs a reason)" : "task not marked done (it needs a reason)");
		return;
	}
	if (reopen) {
		char hash[41], id[RUNG_DIRECTIVE_ID_LEN + 1];
		int i = rung_model_find(m, gs->done.version);
		snprintf(id, sizeof(id), "%s", gs->done.id);
		snprintf(hash, sizeof(hash), "%s", i >= 0 ? m->rows[i].hash : "");
		if (i < 0 || rung_model_close_directive(m, hash, id, text) < 0)
			rung_tui_message(t, true, "reopen: %s", i < 0 ? "the done verdict's version is not listed" : rung_error_last());
		else
			rung_tui_message(t, false, "task reopened: %s", text);
		return;
	}
	int i = 0;
	while (i < m->nrows && !strcmp(m->rows[i].hash, "WORKTREE"))
		i++;
	if (i >= m->nrows) {
		rung_tui_message(t, true, "no committed version to note the task done on");
		return;
	}
	char buf[512], hash[41];
	snprintf(buf, sizeof(buf), "%s%s%s", RUNG_TASK_WIDE_MARK, RUNG_TASK_DONE_MARK, text);
	snprintf(hash, sizeof(hash), "%s", m->rows[i].hash);
	if (rung_model_set_note(m, hash, m->rows[i].verdict, buf) < 0)
		rung_tui_message(t, true, "done: %s", rung_error_last());
	else
		rung_tui_message(t, false, "task done: %s", text);
}

static int steer_request(rung_view *v, rung_request req)
{
	rung_tui *t = v->tui;
	steer_priv *p = v->priv;
	int row = rung_tui_selected_row(t);
	switch (req) {
	case RUNG_REQ_VERDICT_KEEP:
	case RUNG_REQ_VERDICT_REJECT:
	case RUNG_REQ_VERDICT_BASELINE:
	case RUNG_REQ_VERDICT_BEST:
	case RUNG_REQ_VERDICT_NONE: {
		if (row < 0)
			return RUNG_R_NONE;
		rung_verdict vd = req == RUNG_REQ_VERDICT_KEEP ? RUNG_VERDICT_KEEP
				: req == RUNG_REQ_VERDICT_REJECT ? RUNG_VERDICT_REJECT
				: req == RUNG_REQ_VERDICT_BASELINE ? RUNG_VERDICT_BASELINE
				: req == RUNG_REQ_VERDICT_BEST ? RUNG_VERDICT_BEST
							       : RUNG_VERDICT_NONE;
		set_verdict(t, vd, "");
		return RUNG_R_REOPEN;
	}
	case RUNG_REQ_EDIT:
		if (row < 0)
			return RUNG_R_NONE;
		rung_tui_prompt(t, "directive: ", "", directive_done);
		return RUNG_R_NONE;
	case RUNG_REQ_CLOSE_DIRECTIVE:
		return close_request(v);
	case RUNG_REQ_TASK_DONE: {
		const rung_goal_status *gs = rung_model_goal(t->model);
		rung_tui_prompt(t, gs && gs->done.in_force ? "reopen the task, reason: " : "task done, reason: ", "",
				task_done_answered);
		return RUNG_R_NONE;
	}
	case RUNG_REQ_NEXT_PANE:
		p->in_list = !p->in_list && p->n > 0;
		return RUNG_R_REDRAW;
	case RUNG_REQ_ENTER:
		if (p->in_list && v->cursor >= 0 && v->cursor < p->n) {
			rung_tui_select_row(t, p->lines[v->cursor].row);
			p->in_list = false;
			return RUNG_R_REOPEN;
		}
		rung_tui_prompt(t, "directive: ", "", directive_done);
		return RUNG_R_NONE;
	case RUNG_REQ_MOVE_DOWN:
	case RUNG_REQ_MOVE_UP:
		if (!p->in_list) {
			/* the form follows the versions table's order */
			int nr = row + (req == RUNG_REQ_MOVE_DOWN ? 1 : -1);
			if (nr < 0 || nr >= t->model->nrows)
				return RUNG_R_NONE;
			rung_tui_select_row(t, nr);
			return RUNG_R_REOPEN; /* the form's height follows its directives */
		}
		return RUNG_R_UNHANDLED;
	default:
		return RUNG_R_UNHANDLED;
	}
}

static void steer_done(rung_view *v)
{
	steer_priv *p = v->priv;
	if (p) {
		free(p->lines);
		free(p);
	}
	v->priv = NULL;
}

static const char *steer_line_text(rung_view *v, int i, char *buf, int len)
{
	steer_priv *p = v->priv;
	if (i < 0 || i >= p->n)
		return NULL;
	const rung_model_row *r = &v->tui->model->rows[p->lines[i].row];
	if (p->lines[i].dir < 0) {
		snprintf(buf, (size_t)len, "%s %s %s", r->hash, rung_verdict_name(r->verdict), r->note);
		return buf;
	}
	const rung_model_directive *d = &r->dirs[p->lines[i].dir];
	char ans[640];
	answer_text(ans, sizeof(ans), d);
	snprintf(buf, (size_t)len, "%s %s %s %s %s%s%s", r->hash, rung_verdict_name(r->verdict), d->id,
		 rung_dir_status_name(d->status), d->task_wide ? "[task-wide] " : "", d->text, ans);
	return buf;
}

const rung_view_ops rung_screen_steer_ops = {
	.name = "steer",
	.open = steer_open,
	.draw = steer_draw,
	.request = steer_request,
	.done = steer_done,
	.line_text = steer_line_text,
};

/* Steer: verdict and directive for the selected version (written through the
 * model: git notes with the real backend), and every note in the history. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "tui/draw.h"
#include "tui/view.h"

typedef struct {
	int *rows; /* model rows that have a verdict or a note */
	int n;
	int form_lines;
	bool in_list; /* Tab: focus on the notes list */
} steer_priv;

enum { FORM_LINES = 6 };

static int steer_open(rung_view *v)
{
	rung_model *m = v->tui->model;
	steer_priv *p = v->priv;
	if (!p && !(p = v->priv = calloc(1, sizeof(*p))))
		return -1;
	free(p->rows);
	p->rows = malloc(sizeof(int) * (size_t)(m->nrows + 1));
	p->n = 0;
	for (int i = 0; p->rows && i < m->nrows; i++)
		if (m->rows[i].verdict != RUNG_VERDICT_NONE || m->rows[i].note[0])
			p->rows[p->n++] = i;
	v->top = 1 + FORM_LINES + 1;
	v->nlines = p->n;
	return 0;
}

static void steer_draw(rung_view *v)
{
	rung_tui *t = v->tui;
	rung_model *m = t->model;
	steer_priv *p = v->priv;
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
		if (y < v->height)
			rung_tui_draw(w, y++, 0, v->width, RUNG_ROLE_DIM, "i: write a directive for the agent (Enter saves, Esc cancels)");
	}
	if (v->top - 1 < v->height) {
		rung_tui_fill(w, v->top - 1, 0, v->width, RUNG_ROLE_HEADER);
		rung_tui_drawf(w, v->top - 1, 0, v->width, RUNG_ROLE_HEADER, "notes (%d)%s", p->n, p->in_list ? "  Enter edits" : "  Tab: list");
	}
	int rows = rung_view_rows(v);
	for (int i = 0; i < rows && v->offset + i < p->n; i++) {
		int li = v->offset + i, yy = v->top + i;
		const rung_model_row *r = &m->rows[p->rows[li]];
		bool cur = p->in_list && li == v->cursor;
		if (cur)
			rung_tui_fill(w, yy, 0, v->width, RUNG_ROLE_CURSOR);
		int x = rung_tui_drawf(w, yy, 0, v->width, cur ? RUNG_ROLE_CURSOR : RUNG_ROLE_DIM, "%.*s ", RUNG_ID(r->hash));
		x += rung_tui_drawf(w, yy, x, v->width - x, cur ? RUNG_ROLE_CURSOR : RUNG_ROLE_NOTE, "%-9s", rung_verdict_name(r->verdict));
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
	case RUNG_REQ_NEXT_PANE:
		p->in_list = !p->in_list && p->n > 0;
		return RUNG_R_REDRAW;
	case RUNG_REQ_ENTER:
		if (p->in_list && v->cursor >= 0 && v->cursor < p->n) {
			rung_tui_select_row(t, p->rows[v->cursor]);
			p->in_list = false;
			return RUNG_R_REDRAW;
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
			return RUNG_R_REDRAW;
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
		free(p->rows);
		free(p);
	}
	v->priv = NULL;
}

static const char *steer_line_text(rung_view *v, int i, char *buf, int len)
{
	steer_priv *p = v->priv;
	if (i < 0 || i >= p->n)
		return NULL;
	const rung_model_row *r = &v->tui->model->rows[p->rows[i]];
	snprintf(buf, (size_t)len, "%s %s %s", r->hash, rung_verdict_name(r->verdict), r->note);
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

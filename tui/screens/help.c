/* Help: generated from RUNG_REQ_LIST, so it cannot drift from the keymap. */
#include <stdlib.h>

#include "tui/draw.h"
#include "tui/view.h"

static int help_open(rung_view *v)
{
	rung_lines *l = v->priv;
	if (!l && !(l = v->priv = calloc(1, sizeof(*l))))
		return -1;
	rung_lines_clear(l);
	rung_help_lines(l);
	v->pager = true;
	v->top = 1;
	v->nlines = l->n;
	return 0;
}

static void help_draw(rung_view *v)
{
	rung_lines *l = v->priv;
	rung_view_draw_title(v, "rung help: keys (q or Esc to go back)");
	int rows = rung_view_rows(v);
	for (int i = 0; i < rows && v->offset + i < l->n; i++)
		rung_line_draw(v->win, v->top + i, 0, v->width, &l->v[v->offset + i], v->hscroll);
}

static int help_request(rung_view *v, rung_request req)
{
	(void)v;
	if (req == RUNG_REQ_ENTER || req == RUNG_REQ_VIEW_HELP)
		return RUNG_R_NONE;
	return RUNG_R_UNHANDLED;
}

static void help_done(rung_view *v)
{
	rung_lines *l = v->priv;
	if (l) {
		rung_lines_clear(l);
		free(l);
	}
	v->priv = NULL;
}

static const char *help_line_text(rung_view *v, int i, char *buf, int len)
{
	rung_lines *l = v->priv;
	(void)buf, (void)len;
	return i >= 0 && i < l->n ? l->v[i].text : NULL;
}

const rung_view_ops rung_screen_help_ops = {
	.name = "help",
	.open = help_open,
	.draw = help_draw,
	.request = help_request,
	.done = help_done,
	.line_text = help_line_text,
};

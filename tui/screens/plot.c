/* The ladder's progress (#32): the stop rule's line, then each version's time
 * on a log scale with the best-so-far line, failed versions marked, and the
 * roof % of each counted version against the goal line (tui/plot.h); laid out
 * again at every draw, so it follows the window's size. */
#include "tui/draw.h"
#include "tui/plot.h"
#include "tui/view.h"

static int plot_open(rung_view *v)
{
	v->nlines = 0;
	v->pager = true;
	v->top = 2;
	return 0;
}

static void plot_draw(rung_view *v)
{
	rung_model *m = v->tui->model;
	rung_view_draw_title(v, "progress %s (p or q: back)", m->title);
	if (m->filling || m->fill_failed) { /* the rows' results are being read, or could not be */
		rung_tui_draw(v->win, 1, 0, v->width, RUNG_ROLE_HEADER,
			      m->filling ? "reading the results..." : "the results could not be read (the status line says why)");
		return;
	}
	const rung_goal_status *gs = rung_model_goal(m);
	if (!gs) {
		rung_tui_draw(v->win, 1, 0, v->width, RUNG_ROLE_ERROR, "out of memory");
		return;
	}
	rung_tui_draw(v->win, 1, 0, v->width, gs->state != RUNG_STOP_CONTINUE ? RUNG_ROLE_BEST : RUNG_ROLE_HEADER, gs->line);
	rung_plot p;
	if (rung_plot_progress(&p, gs, v->width, v->height - 2) == 0)
		rung_plot_draw(&p, v->win, 2, 0);
	rung_plot_clear(&p);
}

static int plot_request(rung_view *v, rung_request req)
{
	(void)v;
	(void)req;
	return RUNG_R_UNHANDLED;
}

const rung_view_ops rung_screen_plot_ops = {
	.name = "plot",
	.open = plot_open,
	.draw = plot_draw,
	.request = plot_request,
};

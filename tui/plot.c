#include "tui/plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "tui/canvas.h"
#include "tui/draw.h"

#define MARGIN 8 /* the y labels: "276ms", "100%" */

static rung_plot_cell *at(rung_plot *p, int y, int x)
{
	return x >= 0 && y >= 0 && x < p->w && y < p->h ? &p->cells[(size_t)y * (size_t)p->w + (size_t)x] : NULL;
}

static void put(rung_plot *p, int y, int x, rung_role role, const char *glyph)
{
	rung_plot_cell *c = at(p, y, x);
	if (c) {
		snprintf(c->s, sizeof(c->s), "%s", glyph);
		c->role = role;
	}
}

/* Text from x on, one column per character (UTF-8 aware), cut at the edge. */
static int text(rung_plot *p, int y, int x, rung_role role, const char *t)
{
	while (*t && x < p->w) {
		int n = 1;
		unsigned char b = (unsigned char)*t;
		if (b >= 0xf0)
			n = 4;
		else if (b >= 0xe0)
			n = 3;
		else if (b >= 0xc0)
			n = 2;
		char g[8];
		snprintf(g, sizeof(g), "%.*s", n, t);
		put(p, y, x++, role, g);
		for (int k = 0; k < n && *t; k++)
			t++;
	}
	return x;
}

static const char *u(const char *utf8, const char *ascii)
{
	return rung_tui_utf8 ? utf8 : ascii;
}

static void fmt_ms(char *b, size_t n, double ms)
{
	if (ms >= 100)
		snprintf(b, n, "%.0fms", ms);
	else if (ms >= 1)
		snprintf(b, n, "%.3gms", ms);
	else
		snprintf(b, n, "%.3gus", ms * 1e3);
}

/* The column of version i of n in [x0, x0 + pw). */
static int col_of(int i, int n, int x0, int pw)
{
	return n <= 1 ? x0 + pw / 2 : x0 + (int)lround((double)i * (pw - 1) / (n - 1));
}

void rung_plot_clear(rung_plot *p)
{
	free(p->cells);
	memset(p, 0, sizeof(*p));
}

int rung_plot_progress(rung_plot *p, const rung_goal_status *s, int w, int h)
{
	memset(p, 0, sizeof(*p));
	if (w < 1 || h < 1)
		return 0;
	p->cells = calloc((size_t)w * (size_t)h, sizeof(*p->cells));
	if (!p->cells)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	p->w = w, p->h = h;
	if (w < 24 || h < 8) {
		text(p, 0, 0, RUNG_ROLE_DIM, "too small for the plot");
		return 0;
	}
	int pw = w - MARGIN - 1, x0 = MARGIN + 1;
	int avail = h - 3; /* two headers and the axis line */
	int th = avail * 3 / 5, rh = avail - th;
	int ty = 1, ry = th + 2, ay = h - 1;

	/* the time panel: log scale over every timed version */
	double lo = NAN, hi = NAN;
	for (int i = 0; i < s->n; i++) {
		double ms = s->points[i].ms;
		if (s->points[i].kind >= RUNG_GP_IGNORED && ms > 0) {
			lo = isnan(lo) || ms < lo ? ms : lo;
			hi = isnan(hi) || ms > hi ? ms : hi;
		}
	}
	char head[256];
	snprintf(head, sizeof(head), "time per version, log scale  %s counted  %s not counted  %s failed  %s best so far",
		 u("●", "o"), u("○", "?"), u("✗", "x"), u("⣀", "."));
	text(p, 0, 0, RUNG_ROLE_HEADER, head);
	for (int y = ty; y < ty + th; y++)
		put(p, y, MARGIN, RUNG_ROLE_AXIS, u("│", "|"));
	if (isnan(lo)) {
		text(p, ty + th / 2, x0, RUNG_ROLE_DIM, "no version is timed yet");
	} else {
		if (hi <= lo * 1.0001)
			hi = lo * 1.5, lo = lo / 1.5;
		double llo = log(lo), lhi = log(hi);
		char lb[16];
		fmt_ms(lb, sizeof(lb), hi);
		text(p, ty, 0, RUNG_ROLE_AXIS, lb);
		fmt_ms(lb, sizeof(lb), lo);
		text(p, ty + th - 1, 0, RUNG_ROLE_AXIS, lb);
		rung_canvas c;
		if (rung_canvas_init(&c, pw, th) == 0) {
			int dpc = rung_tui_utf8 ? 4 : 1, dxc = rung_tui_utf8 ? 2 : 1;
			int px = -1, py = -1;
			for (int i = 0; i < s->n; i++) {
				double b = s->points[i].best_ms;
				if (!(b > 0))
					continue;
				int dx = (col_of(i, s->n, 0, pw)) * dxc + dxc / 2;
				int dy = (int)lround((lhi - log(b)) / (lhi - llo) * (th * dpc - 1));
				if (px >= 0) {
					rung_canvas_line(&c, px, py, dx, py, RUNG_ROLE_BEST, 1); /* a step: level, then down */
					rung_canvas_line(&c, dx, py, dx, dy, RUNG_ROLE_BEST, 1);
				}
				px = dx, py = dy;
			}
			if (px >= 0)
				rung_canvas_line(&c, px, py, pw * dxc - 1, py, RUNG_ROLE_BEST, 1);
			for (int cy = 0; cy < th; cy++)
				for (int cx = 0; cx < pw; cx++) {
					char g[8];
					rung_role role;
					if (rung_canvas_cell(&c, cx, cy, g, &role))
						put(p, ty + cy, x0 + cx, role, g);
				}
			rung_canvas_clear(&c);
		}
		for (int i = 0; i < s->n; i++) {
			const rung_goal_point *pt = &s->points[i];
			int x = col_of(i, s->n, x0, pw);
			if (pt->kind == RUNG_GP_FAILED) {
				put(p, ty + th - 1, x, RUNG_ROLE_FAILED, u("✗", "x"));
			} else if (pt->kind >= RUNG_GP_IGNORED && pt->ms > 0) {
				int y = ty + (int)lround((lhi - log(pt->ms)) / (lhi - llo) * (th - 1));
				bool counted = pt->kind == RUNG_GP_COUNTED;
				put(p, y, x, i == s->best ? RUNG_ROLE_BEST : counted ? RUNG_ROLE_POINT : RUNG_ROLE_SUSPECT,
				    counted ? u("●", "o") : u("○", "?"));
			}
		}
	}

	/* the roof panel: a bar per counted version, the goal line across */
	double top = 100;
	for (int i = 0; i < s->n; i++)
		if (s->points[i].roof_pct > top)
			top = s->points[i].roof_pct;
	char g[32] = "";
	if (s->goal.roof > 0)
		snprintf(g, sizeof(g), "  %s goal %g%%", u("┈", "-"), s->goal.roof);
	snprintf(head, sizeof(head), "%% of the roof that fits each version%s", g);
	text(p, ry - 1, 0, RUNG_ROLE_HEADER, head);
	for (int y = ry; y < ry + rh; y++)
		put(p, y, MARGIN, RUNG_ROLE_AXIS, u("│", "|"));
	snprintf(g, sizeof(g), "%.0f%%", top);
	text(p, ry, 0, RUNG_ROLE_AXIS, g);
	text(p, ry + rh - 1, 0, RUNG_ROLE_AXIS, "0%");
	if (s->goal.roof > 0) {
		int gy = ry + rh - 1 - (int)lround(s->goal.roof / top * (rh - 1));
		for (int x = x0; x < w; x++)
			put(p, gy, x, RUNG_ROLE_CEILING, u("┈", "-"));
	}
	static const char *const eighths[] = {"", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
	for (int i = 0; i < s->n; i++) {
		double pct = s->points[i].roof_pct;
		if (s->points[i].kind != RUNG_GP_COUNTED || !(pct >= 0))
			continue;
		int x = col_of(i, s->n, x0, pw);
		int units = (int)lround(pct / top * rh * 8); /* eighths of a cell */
		rung_role role = s->goal.roof > 0 && pct >= s->goal.roof ? RUNG_ROLE_OK : RUNG_ROLE_POINT;
		for (int k = 0; k < rh; k++) {
			int left = units - k * 8;
			if (left <= 0)
				break;
			const char *glyph = rung_tui_utf8 ? eighths[left >= 8 ? 8 : left] : left >= 4 ? "#" : "";
			if (glyph[0])
				put(p, ry + rh - 1 - k, x, role, glyph);
		}
	}

	/* the axis: the oldest and newest versions */
	for (int x = x0; x < w; x++)
		put(p, ay, x, RUNG_ROLE_AXIS, u("─", "-"));
	if (s->n > 0) {
		char a[64];
		snprintf(a, sizeof(a), " %s ", s->v[0].short_id);
		text(p, ay, x0, RUNG_ROLE_AXIS, a);
		snprintf(a, sizeof(a), " %d versions, oldest to newest %s ", s->n, u("→", "->"));
		int mid = x0 + (pw - (int)strlen(a)) / 2;
		if (mid > x0 + 10)
			text(p, ay, mid, RUNG_ROLE_AXIS, a);
		snprintf(a, sizeof(a), " %s", s->v[s->n - 1].short_id);
		text(p, ay, w - (int)strlen(a), RUNG_ROLE_AXIS, a);
	}
	return 0;
}

void rung_plot_draw(const rung_plot *p, WINDOW *win, int y, int x)
{
	for (int r = 0; r < p->h; r++)
		for (int c = 0; c < p->w; c++) {
			const rung_plot_cell *cell = &p->cells[(size_t)r * (size_t)p->w + (size_t)c];
			if (cell->s[0])
				rung_tui_draw(win, y + r, x + c, 1, cell->role, cell->s);
		}
}

void rung_plot_print(const rung_plot *p, FILE *f)
{
	for (int r = 0; r < p->h; r++) {
		int last = p->w - 1;
		while (last >= 0 && !p->cells[(size_t)r * (size_t)p->w + (size_t)last].s[0])
			last--;
		for (int c = 0; c <= last; c++) {
			const char *s = p->cells[(size_t)r * (size_t)p->w + (size_t)c].s;
			fputs(s[0] ? s : " ", f);
		}
		fputc('\n', f);
	}
}

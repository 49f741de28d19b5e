#include "tui/canvas.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/draw.h"

int rung_canvas_init(rung_canvas *c, int w, int h)
{
	memset(c, 0, sizeof(*c));
	if (w < 1 || h < 1)
		return -1;
	c->w = w;
	c->h = h;
	c->dw = rung_tui_utf8 ? w * 2 : w;
	c->dh = rung_tui_utf8 ? h * 4 : h;
	size_t n = (size_t)w * (size_t)h;
	c->bits = calloc(n, 1);
	c->prio = calloc(n, 1);
	c->role = calloc(n, sizeof(*c->role));
	c->glyph = calloc(n, sizeof(*c->glyph));
	if (!c->bits || !c->prio || !c->role || !c->glyph) {
		rung_canvas_clear(c);
		return -1;
	}
	return 0;
}

void rung_canvas_clear(rung_canvas *c)
{
	free(c->bits);
	free(c->prio);
	free(c->role);
	free(c->glyph);
	memset(c, 0, sizeof(*c));
}

void rung_canvas_dot(rung_canvas *c, int x, int y, rung_role role, int prio)
{
	if (x < 0 || y < 0 || x >= c->dw || y >= c->dh)
		return;
	int cx = rung_tui_utf8 ? x / 2 : x, cy = rung_tui_utf8 ? y / 4 : y;
	size_t i = (size_t)cy * (size_t)c->w + (size_t)cx;
	static const unsigned char bit[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
	c->bits[i] |= rung_tui_utf8 ? bit[y % 4][x % 2] : 1;
	if (prio >= c->prio[i]) {
		c->prio[i] = (unsigned char)prio;
		c->role[i] = role;
	}
}

void rung_canvas_line(rung_canvas *c, int x0, int y0, int x1, int y1, rung_role role, int prio)
{
	int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
	int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
	int err = dx + dy;
	for (int guard = 0; guard < 100000; guard++) {
		rung_canvas_dot(c, x0, y0, role, prio);
		if (x0 == x1 && y0 == y1)
			break;
		int e2 = 2 * err;
		if (e2 >= dy) {
			err += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			err += dx;
			y0 += sy;
		}
	}
}

void rung_canvas_glyph(rung_canvas *c, int x, int y, const char *glyph, rung_role role, int prio)
{
	if (x < 0 || y < 0 || x >= c->dw || y >= c->dh)
		return;
	int cx = rung_tui_utf8 ? x / 2 : x, cy = rung_tui_utf8 ? y / 4 : y;
	size_t i = (size_t)cy * (size_t)c->w + (size_t)cx;
	if (c->glyph[i] && prio < c->prio[i])
		return;
	c->glyph[i] = glyph;
	c->prio[i] = (unsigned char)prio;
	c->role[i] = role;
}

bool rung_canvas_cell(const rung_canvas *c, int cx, int cy, char s[8], rung_role *role)
{
	s[0] = 0;
	if (cx < 0 || cy < 0 || cx >= c->w || cy >= c->h)
		return false;
	size_t i = (size_t)cy * (size_t)c->w + (size_t)cx;
	*role = c->role[i];
	if (c->glyph[i]) {
		snprintf(s, 8, "%s", c->glyph[i]);
	} else if (c->bits[i] && rung_tui_utf8) {
		unsigned cp = 0x2800 + c->bits[i];
		s[0] = (char)(0xe0 | (cp >> 12));
		s[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		s[2] = (char)(0x80 | (cp & 0x3f));
		s[3] = 0;
	} else if (c->bits[i]) {
		s[0] = '.';
		s[1] = 0;
	}
	return s[0] != 0;
}

void rung_canvas_draw(const rung_canvas *c, WINDOW *w, int y, int x)
{
	for (int cy = 0; cy < c->h; cy++)
		for (int cx = 0; cx < c->w; cx++) {
			char s[8];
			rung_role role;
			if (rung_canvas_cell(c, cx, cy, s, &role))
				rung_tui_draw(w, y + cy, x + cx, 1, role, s);
		}
}

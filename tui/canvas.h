/* A dot canvas drawn with braille cells (2x4 dots per cell), or one dot per
 * cell in ASCII when the terminal is not UTF-8. Each cell keeps the role of
 * its highest-priority dot; glyphs can be put over cells. */
#ifndef RUNG_TUI_CANVAS_H
#define RUNG_TUI_CANVAS_H

#include <curses.h>

#include "tui/theme.h"

typedef struct {
	int w, h;           /* cells */
	int dw, dh;         /* dots */
	unsigned char *bits;
	unsigned char *prio;
	rung_role *role;
	const char **glyph; /* overlay (NULL none) */
	char ascii[4];      /* the ASCII dot character per priority level: unused */
} rung_canvas;

int rung_canvas_init(rung_canvas *c, int w, int h);
void rung_canvas_clear(rung_canvas *c);
void rung_canvas_dot(rung_canvas *c, int x, int y, rung_role role, int prio);
void rung_canvas_line(rung_canvas *c, int x0, int y0, int x1, int y1, rung_role role, int prio);
/* Puts a glyph (1 column) over the cell holding dot (x, y). */
void rung_canvas_glyph(rung_canvas *c, int x, int y, const char *glyph, rung_role role, int prio);
/* What cell (cx, cy) shows: its glyph, braille dots (a '.' in ASCII) or
 * nothing (""), into s, and its role. Returns whether it shows anything. */
bool rung_canvas_cell(const rung_canvas *c, int cx, int cy, char s[8], rung_role *role);
void rung_canvas_draw(const rung_canvas *c, WINDOW *w, int y, int x);

#endif

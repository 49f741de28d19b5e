/* Lines of text with coloured segments, for the scrolling screens (detail,
 * help, steer, compare). Text is kept raw and sanitized when drawn. */
#ifndef RUNG_TUI_LINES_H
#define RUNG_TUI_LINES_H

#include <curses.h>

#include "tui/theme.h"

#define RUNG_LINE_SEGS 12

typedef struct {
	char *text;
	int nseg;
	struct {
		int end; /* byte offset in text where the segment ends */
		rung_role role;
	} seg[RUNG_LINE_SEGS];
	int tag; /* screen-defined (hunk start, row index, ...) */
} rung_line;

typedef struct {
	rung_line *v;
	int n, cap;
} rung_lines;

/* Starts a new line; returns it (NULL when out of memory). */
rung_line *rung_lines_new(rung_lines *l);
/* Appends a segment to the last line (starting one when there is none). */
void rung_lines_seg(rung_lines *l, rung_role role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A whole line in one role. */
void rung_lines_add(rung_lines *l, rung_role role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Adds each line of a multi-line text (raw) in role, indented. */
void rung_lines_text(rung_lines *l, rung_role role, const char *indent, const char *text);
void rung_lines_clear(rung_lines *l);
/* Draws line i at window row y, skipping hscroll columns, within width. */
void rung_line_draw(WINDOW *w, int y, int x, int width, const rung_line *line, int hscroll);
/* As rung_line_draw, with the first `fixed` segments (a gutter: line numbers,
 * counts) held in place and only the rest (the code) scrolled by hscroll. */
void rung_line_draw_gutter(WINDOW *w, int y, int x, int width, const rung_line *line, int fixed, int hscroll);

#endif

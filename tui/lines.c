#include "tui/lines.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/draw.h"
#include "tui/maplines.h"

rung_line *rung_lines_new(rung_lines *l)
{
	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 64;
		rung_line *v = realloc(l->v, (size_t)cap * sizeof(*v));
		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	rung_line *line = &l->v[l->n++];
	memset(line, 0, sizeof(*line));
	line->text = strdup("");
	return line;
}

static void seg_append(rung_lines *l, rung_role role, const char *s)
{
	if (!l->n && !rung_lines_new(l))
		return;
	rung_line *line = &l->v[l->n - 1];
	if (!line->text)
		return;
	size_t old = strlen(line->text), add = strlen(s);
	char *t = realloc(line->text, old + add + 1);
	if (!t)
		return;
	memcpy(t + old, s, add + 1);
	line->text = t;
	if (line->nseg && line->seg[line->nseg - 1].role == role) {
		line->seg[line->nseg - 1].end = (int)(old + add);
	} else if (line->nseg < RUNG_LINE_SEGS) {
		line->seg[line->nseg].end = (int)(old + add);
		line->seg[line->nseg].role = role;
		line->nseg++;
	} else {
		line->seg[line->nseg - 1].end = (int)(old + add);
	}
}

void rung_lines_seg(rung_lines *l, rung_role role, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	seg_append(l, role, buf);
}

void rung_lines_add(rung_lines *l, rung_role role, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!rung_lines_new(l))
		return;
	seg_append(l, role, buf);
}

void rung_lines_text(rung_lines *l, rung_role role, const char *indent, const char *text)
{
	const char *p = text;
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		if (len > 1500)
			len = 1500;
		rung_lines_add(l, role, "%s%.*s", indent, len, p);
		p = nl ? nl + 1 : NULL;
	}
}

void rung_lines_clear(rung_lines *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i].text);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void rung_line_draw(WINDOW *w, int y, int x, int width, const rung_line *line, int hscroll)
{
	int col = 0, start = 0;
	char buf[4096];
	for (int s = 0; s < line->nseg && col - hscroll < width; s++) {
		int end = line->seg[s].end;
		if (line->seg[s].role == RUNG_ROLE_MAP_OK) {
			/* error map cells (tui/maplines.h): one level character per column */
			for (int i = start; i < end && col - hscroll < width; i++, col++) {
				rung_role role;
				const char *g = rung_map_glyph(line->text[i], &role);
				if (col >= hscroll)
					rung_tui_draw(w, y, x + col - hscroll, 1, role, g);
			}
			start = end;
			continue;
		}
		/* sanitize the segment as it will appear at column col */
		rung_tui_sanitize(buf, sizeof(buf), line->text + start, end - start, col);
		int sw = rung_tui_width(buf);
		if (col + sw > hscroll) {
			const char *p = buf;
			int skip = hscroll - col;
			/* skip columns hidden by the horizontal scroll (ASCII-safe: cut at a char boundary) */
			while (skip > 0 && *p) {
				int n = 1;
				while ((p[n] & 0xc0) == 0x80)
					n++;
				p += n;
				skip--;
			}
			int dx = col > hscroll ? col - hscroll : 0;
			rung_tui_draw(w, y, x + dx, width - dx, line->seg[s].role, p);
		}
		col += sw;
		start = end;
	}
}

void rung_line_draw_gutter(WINDOW *w, int y, int x, int width, const rung_line *line, int fixed, int hscroll)
{
	if (fixed <= 0 || fixed >= line->nseg || !hscroll) {
		rung_line_draw(w, y, x, width, line, fixed >= line->nseg ? 0 : hscroll);
		return;
	}
	rung_line head = *line;
	head.nseg = fixed;
	rung_line_draw(w, y, x, width, &head, 0);
	int hend = line->seg[fixed - 1].end, gw = 0;
	char buf[4096];
	rung_tui_sanitize(buf, sizeof(buf), line->text, hend, 0);
	gw = rung_tui_width(buf);
	if (gw >= width)
		return;
	rung_line tail = {.text = line->text + hend, .nseg = line->nseg - fixed, .tag = line->tag};
	for (int k = 0; k < tail.nseg; k++) {
		tail.seg[k].end = line->seg[fixed + k].end - hend;
		tail.seg[k].role = line->seg[fixed + k].role;
	}
	rung_line_draw(w, y, x + gw, width - gw, &tail, hscroll);
}

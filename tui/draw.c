#define _XOPEN_SOURCE 700 /* wcwidth */
#include "tui/draw.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

bool rung_tui_utf8 = false;
static attr_t role_attr[RUNG_NROLES];

void rung_tui_draw_init(bool utf8)
{
	rung_tui_utf8 = utf8;
}

/* Decodes one UTF-8 sequence; returns its length or 0 when invalid. */
static int utf8_decode(const unsigned char *s, long avail, uint32_t *cp)
{
	unsigned c = s[0];
	int n;
	uint32_t v;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if ((c & 0xe0) == 0xc0) {
		n = 2, v = c & 0x1f;
	} else if ((c & 0xf0) == 0xe0) {
		n = 3, v = c & 0x0f;
	} else if ((c & 0xf8) == 0xf0) {
		n = 4, v = c & 0x07;
	} else {
		return 0;
	}
	if (avail < n)
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
	if (v < min[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

static bool is_bidi_control(uint32_t cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f ||
	       cp == 0x061c;
}

int rung_tui_sanitize(char *dst, size_t dstlen, const char *src, long srclen, int start_col)
{
	const unsigned char *s = (const unsigned char *)src;
	long len = srclen < 0 ? (long)strlen(src) : srclen;
	size_t o = 0;
	int col = start_col, width = 0;
	if (!dstlen)
		return 0;
#define EMIT(str, w) \
	do { \
		size_t _l = strlen(str); \
		if (o + _l >= dstlen) \
			goto done; \
		memcpy(dst + o, str, _l); \
		o += _l; \
		col += (w); \
		width += (w); \
	} while (0)
	for (long i = 0; i < len && s[i];) {
		unsigned c = s[i];
		char tmp[16];
		if (c == '\t') {
			int n = 8 - (col % 8);
			for (int k = 0; k < n; k++)
				EMIT(" ", 1);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			tmp[0] = '^';
			tmp[1] = c == 0x7f ? '?' : (char)(c + 64);
			tmp[2] = 0;
			EMIT(tmp, 2);
			i++;
		} else if (c < 0x80) {
			tmp[0] = (char)c;
			tmp[1] = 0;
			EMIT(tmp, 1);
			i++;
		} else {
			uint32_t cp = 0;
			int n = rung_tui_utf8 ? utf8_decode(s + i, len - i, &cp) : 0;
			if (!n) {
				snprintf(tmp, sizeof(tmp), "\\x%02x", c);
				EMIT(tmp, 4);
				i++;
				continue;
			}
			int w = (cp >= 0x80 && cp < 0xa0) || is_bidi_control(cp) ? -1 : wcwidth((wchar_t)cp);
			if (w < 0) {
				snprintf(tmp, sizeof(tmp), "<U+%04X>", (unsigned)cp);
				EMIT(tmp, (int)strlen(tmp));
			} else {
				memcpy(tmp, s + i, (size_t)n);
				tmp[n] = 0;
				EMIT(tmp, w);
			}
			i += n;
		}
	}
done:
	dst[o] = 0;
	return width;
#undef EMIT
}

int rung_tui_id_len(const char *id)
{
	return strcmp(id, "WORKTREE") ? 7 : 8;
}

int rung_tui_width(const char *s)
{
	int w = 0;
	long len = (long)strlen(s);
	for (long i = 0; i < len;) {
		uint32_t cp;
		int n = utf8_decode((const unsigned char *)s + i, len - i, &cp);
		if (!n) {
			i++, w++;
			continue;
		}
		int cw = cp < 0x80 ? 1 : wcwidth((wchar_t)cp);
		w += cw > 0 ? cw : 0;
		i += n;
	}
	return w;
}

int rung_tui_pair_role(short pair)
{
	for (int i = 0; i < RUNG_NROLES; i++)
		if (pair > 0 && PAIR_NUMBER(role_attr[i]) == pair)
			return i;
	return -1;
}

attr_t rung_tui_attr(rung_role r)
{
	return (unsigned)r < RUNG_NROLES ? role_attr[r] : 0;
}

int rung_tui_draw_cut(WINDOW *w, int y, int x, int maxw, rung_role role, const char *text)
{
	if (maxw <= 1 || !text)
		return rung_tui_draw(w, y, x, maxw, role, text);
	char buf[4096];
	rung_tui_sanitize(buf, sizeof(buf), text, -1, x);
	if (rung_tui_width(buf) <= maxw)
		return rung_tui_draw(w, y, x, maxw, role, text);
	/* "...": three columns of ASCII, the same on every terminal (a byte a column) */
	if (maxw <= 3)
		return rung_tui_draw(w, y, x, maxw, role, text);
	int n = rung_tui_draw(w, y, x, maxw - 3, role, text);
	return n + rung_tui_draw(w, y, x + n, 3, role, "...");
}

int rung_tui_draw(WINDOW *w, int y, int x, int maxw, rung_role role, const char *text)
{
	if (maxw <= 0 || !text)
		return 0;
	char buf[4096];
	rung_tui_sanitize(buf, sizeof(buf), text, -1, x);
	/* cut at maxw columns */
	long len = (long)strlen(buf), i = 0;
	int cols = 0;
	while (i < len) {
		uint32_t cp;
		int n = utf8_decode((unsigned char *)buf + i, len - i, &cp);
		if (!n)
			n = 1, cp = '?';
		int cw = cp < 0x80 ? 1 : wcwidth((wchar_t)cp);
		if (cw < 0)
			cw = 0;
		if (cols + cw > maxw)
			break;
		cols += cw;
		i += n;
	}
	wattrset(w, rung_tui_attr(role));
	mvwaddnstr(w, y, x, buf, (int)i);
	wattrset(w, rung_tui_attr(RUNG_ROLE_DEFAULT));
	return cols;
}

int rung_tui_drawf(WINDOW *w, int y, int x, int maxw, rung_role role, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return rung_tui_draw(w, y, x, maxw, role, buf);
}

int rung_tui_draw_right(WINDOW *w, int y, int x, int cols, rung_role role, const char *text)
{
	char buf[1024];
	int tw = rung_tui_sanitize(buf, sizeof(buf), text, -1, 0);
	int pad = cols - tw;
	if (pad < 0)
		pad = 0;
	return pad + rung_tui_draw(w, y, x + pad, cols - pad, role, buf);
}

void rung_tui_fill(WINDOW *w, int y, int x, int n, rung_role role)
{
	if (n <= 0)
		return;
	wattrset(w, rung_tui_attr(role));
	mvwhline(w, y, x, ' ', n);
	wattrset(w, rung_tui_attr(RUNG_ROLE_DEFAULT));
}

static attr_t attrs_of(unsigned a)
{
	attr_t r = 0;
	if (a & RUNG_A_BOLD)
		r |= A_BOLD;
	if (a & RUNG_A_REVERSE)
		r |= A_REVERSE;
	if (a & RUNG_A_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & RUNG_A_DIM)
		r |= A_DIM;
	return r;
}

void rung_tui_theme_apply(const rung_theme *t, bool colour)
{
	/* COLORS and COLOR_PAIRS are 0 until start_color() sets them: ask after it */
	bool on = colour && has_colors() && start_color() == OK && COLORS >= 8;
	if (!on) {
		rung_theme mono;
		rung_theme_monochrome(&mono);
		for (int i = 0; i < RUNG_NROLES; i++)
			role_attr[i] = attrs_of(mono.role[i].attrs);
		return;
	}
	bool defaults = use_default_colors() == OK;
	for (int i = 0; i < RUNG_NROLES; i++) {
		short fg = rung_color_reduce(t->role[i].fg, COLORS);
		short bg = rung_color_reduce(t->role[i].bg, COLORS);
		/* 8 colours have no grey (244 came out yellow): the default colour, dimmed */
		attr_t dim = 0;
		if (COLORS < 16 && rung_color_grey8(t->role[i].fg)) {
			fg = -1;
			dim = A_DIM;
		}
		if (!defaults) {
			if (fg < 0)
				fg = COLOR_WHITE;
			if (bg < 0)
				bg = COLOR_BLACK;
		}
		if (i + 1 < COLOR_PAIRS) {
			init_pair((short)(i + 1), fg, bg);
			role_attr[i] = COLOR_PAIR(i + 1) | attrs_of(t->role[i].attrs) | dim;
		} else {
			role_attr[i] = attrs_of(t->role[i].attrs) | dim;
		}
	}
}

static const char *const glyph_utf8[RUNG_NGLYPHS] = {
	"\u2713", "\u2717", "\u00b7", "\u25d0", "\u21ba", "-", " ", "\u2605", "\u2302", "\u270e", "\u2500", "\u2502", "\u2588", "\u0394",
	"\u2691", /* suspect: a flag */
	"\u2606", /* provisional best: a hollow star */
};
static const char *const glyph_ascii[RUNG_NGLYPHS] = {
	"o", "x", ".", "*", "c", "-", " ", "*", "=", "n", "-", "|", "#", "d",
	"?", "+",
};

const char *rung_glyph(rung_glyph_id g)
{
	if ((unsigned)g >= RUNG_NGLYPHS)
		return "?";
	return rung_tui_utf8 ? glyph_utf8[g] : glyph_ascii[g];
}

const char *rung_step_glyph(rung_status s, bool cached, bool recorded, rung_role *role)
{
	if (recorded && s == RUNG_S_OK) {
		*role = RUNG_ROLE_RECORDED;
		return rung_tui_utf8 ? "\u25cb" : "r";
	}
	return rung_glyph(rung_status_glyph(s, cached, role));
}

rung_glyph_id rung_status_glyph(rung_status s, bool cached, rung_role *role)
{
	switch (s) {
	case RUNG_S_OK:
		*role = cached ? RUNG_ROLE_CACHED : RUNG_ROLE_OK;
		return cached ? RUNG_G_CACHED : RUNG_G_OK;
	case RUNG_S_FAILED:
		*role = RUNG_ROLE_FAILED;
		return RUNG_G_FAILED;
	case RUNG_S_PENDING:
		*role = RUNG_ROLE_PENDING;
		return RUNG_G_PENDING;
	case RUNG_S_RUNNING:
		*role = RUNG_ROLE_RUNNING;
		return RUNG_G_RUNNING;
	case RUNG_S_SKIPPED:
		*role = RUNG_ROLE_SKIPPED;
		return RUNG_G_SKIPPED;
	default:
		*role = RUNG_ROLE_DEFAULT;
		return RUNG_G_NONE;
	}
}

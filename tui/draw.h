/* Drawing helpers shared by every screen: the one sanitize function all text
 * goes through, role attributes, glyphs with an ASCII fallback. */
#ifndef RUNG_TUI_DRAW_H
#define RUNG_TUI_DRAW_H

#include <stdbool.h>
#include <stddef.h>

#include <curses.h>

#include "core/result.h"
#include "tui/theme.h"

/* true when the locale's codeset is UTF-8 (set by rung_tui_draw_init). */
extern bool rung_tui_utf8;
void rung_tui_draw_init(bool utf8);

/* Makes text inert for the terminal: control bytes become ^X (ESC -> ^[, DEL -> ^?),
 * C1 controls and bidi overrides become <U+XXXX>, invalid UTF-8 (or any byte >= 0x80
 * when the locale is not UTF-8) becomes \xNN, tabs expand to the next multiple of 8
 * counted from start_col. Writes at most dstlen-1 bytes plus NUL; returns the display
 * width written. srclen < 0: up to NUL. Every screen draws text through this. */
int rung_tui_sanitize(char *dst, size_t dstlen, const char *src, long srclen, int start_col);

/* How much of a version id to show: 7 (a short commit hash), or 8 for
 * "WORKTREE" (uncommitted edits), which is never cut: printf("%.*s", n, id). */
int rung_tui_id_len(const char *id);
#define RUNG_ID(id) rung_tui_id_len(id), (id)

/* Display width of already-sanitized text. */
int rung_tui_width(const char *s);

/* Draws text (sanitized here) at (y,x) in at most maxw columns with role's
 * attributes; returns the columns used. */
int rung_tui_draw(WINDOW *w, int y, int x, int maxw, rung_role role, const char *text);
int rung_tui_drawf(WINDOW *w, int y, int x, int maxw, rung_role role, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* As rung_tui_draw, but text wider than maxw ends in "..." in its last three
 * columns, so that a cut line says it is cut (status line, titles). */
int rung_tui_draw_cut(WINDOW *w, int y, int x, int maxw, rung_role role, const char *text);
/* Right-aligned in a field of width cols ending at x + cols. */
int rung_tui_draw_right(WINDOW *w, int y, int x, int cols, rung_role role, const char *text);
/* Fills [x, x+n) of line y with spaces in role. */
void rung_tui_fill(WINDOW *w, int y, int x, int n, rung_role role);
/* Curses attributes of a role (colour pair included when colours are on). */
attr_t rung_tui_attr(rung_role r);
/* The role a colour pair was made for by rung_tui_theme_apply; -1 for none (pair 0). */
int rung_tui_pair_role(short pair);

/* Applies a theme: colour pairs when colour is true and the terminal has
 * colours (256 -> 16 -> 8 reduced), else attributes from the monochrome theme. */
void rung_tui_theme_apply(const rung_theme *t, bool colour);

typedef enum {
	RUNG_G_OK, RUNG_G_FAILED, RUNG_G_PENDING, RUNG_G_RUNNING, RUNG_G_CACHED, RUNG_G_SKIPPED, RUNG_G_NONE,
	RUNG_G_BEST, RUNG_G_BASELINE, RUNG_G_NOTE, RUNG_G_HBAR, RUNG_G_VBAR, RUNG_G_BLOCK, RUNG_G_DELTA,
	RUNG_G_SUSPECT,
	RUNG_G_BEST_PROV, /* the best, provisional: not sanitized (app/sanitize_gate.h) */
	RUNG_NGLYPHS
} rung_glyph_id;
const char *rung_glyph(rung_glyph_id g);
/* Glyph and role for a step status. */
rung_glyph_id rung_status_glyph(rung_status s, bool cached, rung_role *role);
/* A rung's glyph as the versions table and the detail both draw it: that of
 * rung_status_glyph, but an ok rung of a result recorded on another machine
 * is "○" ("r" without UTF-8) in the recorded role, never a live tick or
 * the reused glyph. */
const char *rung_step_glyph(rung_status s, bool cached, bool recorded, rung_role *role);

#endif

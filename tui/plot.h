/* The picture of the ladder's progress (#32), for the workbench's plot screen
 * and `rung log --plot`: over the versions in commit order, each passing
 * version's median time on a log scale with the best-so-far line, failed
 * versions marked where they fell, and each counted version's roof % as a
 * bar against the goal line. Braille and block characters, or ASCII when the
 * terminal is not UTF-8 (rung_tui_utf8); every cell carries a theme role. */
#ifndef RUNG_TUI_PLOT_H
#define RUNG_TUI_PLOT_H

#include <stdio.h>

#include <curses.h>

#include "app/goal.h"
#include "tui/theme.h"

typedef struct {
	char s[8]; /* one column: a UTF-8 character or ASCII; "" blank */
	rung_role role;
} rung_plot_cell;

typedef struct {
	int w, h;
	rung_plot_cell *cells; /* h rows of w */
} rung_plot;

/* Lays the plot of s out in w x h cells (at least 24 x 8: smaller gets one
 * line saying so). 0 or RUNG_ENOMEM. */
int rung_plot_progress(rung_plot *p, const rung_goal_status *s, int w, int h);
void rung_plot_clear(rung_plot *p);
/* Into a window at (y, x), each cell in its role's colours. */
void rung_plot_draw(const rung_plot *p, WINDOW *win, int y, int x);
/* As text, a line per row, trailing blanks dropped (the CLI). */
void rung_plot_print(const rung_plot *p, FILE *f);

#endif

/* Whether the workbench can be drawn here, asked before curses starts: ncurses
 * itself exits on an unknown TERM, draws blank on `dumb`, and on a pipe or
 * /dev/null writes escapes into it or spins on end of input. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/err.h"
#include "tui/view.h"

/* after view.h: term.h defines capability macros such as `lines` and `columns` */
#include <term.h>

int rung_tui_terminal_check(void)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return rung_error_set(RUNG_EINVAL, "not on a terminal (stdin and stdout must both be one)");
	const char *term = getenv("TERM");
	if (!term || !*term)
		return rung_error_set(RUNG_EINVAL, "TERM is not set (set it to the terminal's type, e.g. TERM=xterm-256color)");
	int found = 0;
	if (setupterm(term, STDOUT_FILENO, &found) != OK)
		return rung_error_set(RUNG_EINVAL, found < 0 ? "TERM=%s: no terminfo database found"
							     : "TERM=%s: unknown terminal type (no terminfo entry)",
				      term);
	/* a screen needs cursor addressing; `dumb` and hard-copy terminals have none */
	const char *cup = tigetstr("cup");
	bool usable = cup && cup != (char *)-1 && tigetflag("hc") <= 0;
	del_curterm(cur_term);
	if (!usable)
		return rung_error_set(RUNG_EINVAL, "TERM=%s: the terminal cannot move the cursor", term);
	return 0;
}

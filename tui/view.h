/* Screens, requests and the main loop (tig style).
 *
 * Every screen is registered once in RUNG_SCREEN_LIST and implemented in
 * tui/screens/<name>.c by an ops table rung_screen_<name>_ops. Every request is
 * registered once in RUNG_REQ_LIST with its default keys and help text: the
 * request enum, the keymap and the help screen are generated from it. */
#ifndef RUNG_TUI_VIEW_H
#define RUNG_TUI_VIEW_H

#include <stdbool.h>

#include <curses.h>

#include "tui/lines.h"
#include "tui/model/model.h"
#include "tui/theme.h"

/* _(ID, name, title) */
#define RUNG_SCREEN_LIST(_) \
	_(VERSIONS, versions, "versions") \
	_(DETAIL, detail, "detail") \
	_(COMPARE, compare, "compare") \
	_(ROOFLINE, roofline, "roofline") \
	_(STEER, steer, "steer") \
	_(PLOT, plot, "progress") \
	_(HELP, help, "help")

typedef enum {
#define RUNG_SCREEN_ENUM(id, name, title) RUNG_SCREEN_##id,
	RUNG_SCREEN_LIST(RUNG_SCREEN_ENUM)
#undef RUNG_SCREEN_ENUM
	RUNG_NSCREENS
} rung_screen_id;

#define RUNG_CTRL(c) ((c) & 0x1f)
#define RUNG_KEY_ESC 27
#define RUNG_KEY_TAB '\t'
#define RUNG_KEY_ENTER '\r'

/* _(ID, name, group, key1, key2, key3, help); a key of 0 is none. */
#define RUNG_REQ_LIST(_) \
	_(MOVE_DOWN, "move-down", "Navigation", 'j', KEY_DOWN, 0, "move down one line") \
	_(MOVE_UP, "move-up", "Navigation", 'k', KEY_UP, 0, "move up one line") \
	_(PAGE_DOWN, "page-down", "Navigation", ' ', KEY_NPAGE, 0, "move down one page") \
	_(PAGE_UP, "page-up", "Navigation", KEY_PPAGE, 0, 0, "move up one page") \
	_(HALF_DOWN, "half-page-down", "Navigation", RUNG_CTRL('d'), 0, 0, "move down half a page") \
	_(HALF_UP, "half-page-up", "Navigation", RUNG_CTRL('u'), 0, 0, "move up half a page") \
	_(MOVE_FIRST, "move-first", "Navigation", 'g', KEY_HOME, 0, "go to the first line") \
	_(MOVE_LAST, "move-last", "Navigation", 'G', KEY_END, 0, "go to the last line") \
	_(SCROLL_LEFT, "scroll-left", "Navigation", KEY_LEFT, 0, 0, "scroll left") \
	_(SCROLL_RIGHT, "scroll-right", "Navigation", KEY_RIGHT, 0, 0, "scroll right") \
	_(NEXT_PANE, "next-pane", "Navigation", RUNG_KEY_TAB, 0, 0, "switch pane") \
	_(ENTER, "enter", "Views", RUNG_KEY_ENTER, KEY_ENTER, '\n', "open the detail of the selected version") \
	_(VIEW_COMPARE, "view-compare", "Views", 'c', 0, 0, "compare versions a and b") \
	_(VIEW_ROOFLINE, "view-roofline", "Views", 'r', 0, 0, "roofline plot of all versions") \
	_(VIEW_STEER, "view-steer", "Views", 'v', 0, 0, "verdict and directive for the selected version") \
	_(VIEW_PLOT, "view-plot", "Views", 'p', 0, 0, "the ladder's progress: time, best so far, roof % against the goal") \
	_(VIEW_HELP, "view-help", "Views", '?', 'h', 0, "show this help") \
	_(BACK, "back", "Views", RUNG_KEY_ESC, 0, 0, "go back to the previous view") \
	_(VIEW_CLOSE, "view-close", "Views", 'q', 0, 0, "close the view (quit from the last one)") \
	_(QUIT, "quit", "Views", 'Q', 3, 0, "quit rung") \
	_(SEARCH, "search", "Search", '/', 0, 0, "search the view") \
	_(FIND_NEXT, "find-next", "Search", 'n', 0, 0, "next match") \
	_(FIND_PREV, "find-prev", "Search", 'N', 0, 0, "previous match") \
	_(FILTER, "filter", "Search", 'F', 0, 0, "show only versions matching the search (toggle)") \
	_(SORT, "sort", "Versions", 's', 0, 0, "cycle the sort order (commit, time, error, roofline); detail SASS: by pc or by stall samples") \
	_(MARK_A, "mark-a", "Versions", 'a', 0, 0, "mark the selected version a, for compare") \
	_(MARK_B, "mark-b", "Versions", 'b', 0, 0, "mark the selected version b, for compare") \
	_(REFRESH, "refresh", "Versions", 'R', RUNG_CTRL('l'), 0, "reload history, notes and results") \
	_(EVALUATE, "evaluate", "Versions", 'e', 0, 0, "evaluate the selected version") \
	_(EVALUATE_MISSING, "evaluate-missing", "Versions", 'E', 0, 0, "evaluate every version without a live result") \
	_(SANITIZE, "sanitize", "Versions", 'S', 0, 0, "compute-sanitizer on the selected version") \
	_(NEXT_TASK, "next-task", "Versions", 'T', 0, 0, "switch to the next task of the repository") \
	_(TEXT_KIND, "text-kind", "Compare", 't', 0, 0, "diff source/PTX/SASS; detail: SASS, trace") \
	_(NCU, "ncu", "Compare", 'u', 0, 0, "detail: ncu's sections, then its source page beside rung's counts") \
	_(NEXT_CASE, "next-case", "Compare", 'm', 0, 0, "next case's error map (detail, compare)") \
	_(SASS_RAW, "sass-raw", "Compare", 'w', 0, 0, "SASS diff: normalized by basic block or raw (toggle)") \
	_(NEXT_HUNK, "next-hunk", "Compare", ']', 0, 0, "next hunk; detail SASS: next line with the most stalls") \
	_(PREV_HUNK, "prev-hunk", "Compare", '[', 0, 0, "previous hunk; detail SASS: previous line with the most stalls") \
	_(MEM_LEVELS, "mem-levels", "Roofline", 'L', 0, 0, "memory levels drawn: all, DRAM, L2, L1 (cycle)") \
	_(SOURCE_VIEW, "source-view", "Detail", 'l', 0, 0, "detail: the source beside the SASS of its line (toggle; at an error's line)") \
	_(VERDICT_KEEP, "verdict-keep", "Steer", '1', 0, 0, "verdict: keep") \
	_(VERDICT_REJECT, "verdict-reject", "Steer", '2', 0, 0, "verdict: reject") \
	_(VERDICT_BASELINE, "verdict-baseline", "Steer", '3', 0, 0, "verdict: baseline") \
	_(VERDICT_BEST, "verdict-best", "Steer", '4', 0, 0, "verdict: best") \
	_(VERDICT_NONE, "verdict-none", "Steer", '0', 0, 0, "clear the verdict") \
	_(EDIT, "edit", "Steer", 'i', 0, 0, "edit the directive (Enter saves, Esc cancels)") \
	_(CLOSE_DIRECTIVE, "close-directive", "Steer", 'x', 0, 0, "close the directive under the list's cursor (asks a reason)") \
	_(TASK_DONE, "task-done", "Steer", 'D', 0, 0, "the task is done: every reader says STOP (asks a reason); again: reopen it")

typedef enum {
	RUNG_REQ_NONE = 0,
#define RUNG_REQ_ENUM(id, name, group, k1, k2, k3, help) RUNG_REQ_##id,
	RUNG_REQ_LIST(RUNG_REQ_ENUM)
#undef RUNG_REQ_ENUM
	RUNG_NREQS
} rung_request;

const char *rung_request_name(rung_request r);
/* Request bound to key (0 = none). */
rung_request rung_key_request(int key);
/* "j", "Down", "Ctrl-D", "Enter", "Esc", "Tab", "Space", "PgDn" */
const char *rung_key_name(int key, char *buf, int len);
/* Inverse for scripts: "<Enter>" or "j" -> key code; -1 when unknown. */
int rung_key_parse(const char *tok);
/* Help lines generated from RUNG_REQ_LIST. */
void rung_help_lines(rung_lines *out);
/* Each request of RUNG_REQ_LIST with its group ("Versions"), its keys ("j,
 * Down"), name and help, in the help screen's order: the help screen and the
 * man page's WORKBENCH KEYS (cli/cli.c) are made from it. */
typedef void (*rung_help_fn)(void *ud, const char *group, const char *keys, const char *name, const char *help);
void rung_help_each(rung_help_fn fn, void *ud);

typedef struct rung_tui rung_tui;
typedef struct rung_view rung_view;

/* Reaction flags returned by requests (htop style). */
enum {
	RUNG_R_NONE = 0,      /* handled, nothing changed */
	RUNG_R_REDRAW = 1,    /* redraw the view */
	RUNG_R_UNHANDLED = 2, /* not this screen's request: the generic handler runs */
	RUNG_R_REOPEN = 4,    /* data changed: call open again, then redraw */
};

typedef struct {
	const char *name;
	int (*open)(rung_view *v);                      /* (re)build from the model; sets v->nlines */
	void (*draw)(rung_view *v);                     /* draw into v->win */
	int (*request)(rung_view *v, rung_request req); /* RUNG_R_* flags */
	void (*select)(rung_view *v);                   /* cursor moved to v->cursor */
	void (*done)(rung_view *v);                     /* free priv */
	/* raw text of line i for search (NULL: not searchable) */
	const char *(*line_text)(rung_view *v, int i, char *buf, int len);
	/* Optional: where in line i a search for needle matched when that is not
	 * in what the screen shows ("in its note", "in its subject, past the cut"),
	 * else "" (#28 D-20: a match in hidden text looked like a wrong one). */
	const char *(*match_where)(rung_view *v, int i, const char *needle);
} rung_view_ops;

struct rung_view {
	const rung_view_ops *ops;
	rung_screen_id id;
	rung_tui *tui;
	WINDOW *win;
	int height, width; /* of win */
	int top;           /* rows above the list (title, headers) */
	int nlines;        /* lines in the list */
	int cursor, offset, hscroll;
	bool pager;        /* cursor follows the scroll (no selected line) */
	void *priv;
	unsigned generation; /* model generation at the last open */
};

/* The screens' ops tables. */
#define RUNG_SCREEN_OPS_DECL(id, name, title) extern const rung_view_ops rung_screen_##name##_ops;
RUNG_SCREEN_LIST(RUNG_SCREEN_OPS_DECL)
#undef RUNG_SCREEN_OPS_DECL

typedef struct {
	const char *theme;   /* --theme NAME (NULL = choose) */
	const char *script;  /* keystroke script: no keyboard, no display (newterm on /dev/null) */
	int lines, cols;     /* size in script mode (0: $LINES/$COLUMNS or 24x80) */
	const char *dump_dir;/* where :dump writes (NULL = current directory) */
	int ascii;           /* 1 force ASCII glyphs, 0 from the locale */
} rung_tui_opts;

struct rung_tui {
	rung_model *model;
	rung_view *stack[8];
	int depth;
	WINDOW *status;
	int lines, cols;
	bool drawn;             /* the first frame is out (rung_model_drawn was called) */
	char message[256];      /* status bar message (until the next key) */
	bool message_error;
	bool message_queued;  /* the message says what a key queued: cleared when the queue is done */
	bool message_reload;  /* "reloading": cleared when the model says how the reload went */
	char search[128];
	bool filter;            /* versions shows only matches */
	int sort;               /* versions sort order */
	char sel[41];           /* selected version (hash) shared by screens */
	char mark_a[41], mark_b[41];
	/* the selection and marks of each task (by index in model->tasks), kept while
	 * another task is shown (T) */
	struct rung_task_marks {
		char sel[41], a[41], b[41];
	} *task_marks;
	int ntask_marks;
	bool quit;
	bool status_dirty, view_dirty;
	/* the status bar shows a pool's workers (a batch runs): redrawn every
	 * RUNG_TUI_WORKERS_S meanwhile, their jobs changing with no event */
	bool workers_shown;
	double workers_drawn_at;
	/* prompt (search, directive) */
	bool prompting;
	char prompt_label[32];
	char prompt_buf[256];
	int prompt_len;
	void (*prompt_done)(rung_tui *t, const char *text, bool ok);
	const rung_tui_opts *opts;
	rung_theme theme;
	bool colour;
	unsigned status_gen;
	void *screen; /* SCREEN* of the no-display mode */
};

/* Whether the workbench can be drawn here: stdin and stdout are terminals and TERM names a
 * terminal type with cursor addressing (not `dumb`). 0, or RUNG_EINVAL with the reason. */
int rung_tui_terminal_check(void);
/* Runs the workbench on a model until quit. Returns 0, or a negative rung_err
 * (message in rung_error_last()); the terminal is restored in every case. */
int rung_tui_run(rung_model *m, const rung_tui_opts *opts);

/* Used by screens. */
int rung_tui_open_view(rung_tui *t, rung_screen_id id); /* pushes (or raises) a screen */
rung_view *rung_tui_current(rung_tui *t);
void rung_tui_message(rung_tui *t, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void rung_tui_prompt(rung_tui *t, const char *label, const char *initial,
		     void (*done)(rung_tui *t, const char *text, bool ok));
/* Keeps the selection and compare marks of task `from` and brings back those
 * of task `to` (none the first time it is shown). */
void rung_tui_switch_marks(rung_tui *t, int from, int to);
/* Selected row index in the model (-1 none). */
int rung_tui_selected_row(rung_tui *t);
void rung_tui_select_row(rung_tui *t, int row);
/* Title bar: left text, right "[screen]"; line 0 of the view. */
void rung_view_draw_title(rung_view *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Moves the cursor so that it is visible (clamps, scrolls). */
void rung_view_clamp(rung_view *v);
/* Rows available for the list. */
int rung_view_rows(const rung_view *v);
/* Writes the current screen (every window, top to bottom) to path. */
int rung_tui_dump(rung_tui *t, const char *path);
/* The same with each cell's style: "{role attr...}" at the start of a line and wherever the
 * style changes, role from the cell's colour pair ("-": no pair, as with NO_COLOR). */
int rung_tui_dump_attrs(rung_tui *t, const char *path);
/* Handles a script line (":dump x", ":dump-attrs x", ":resize 20x6", ":event ...", ":wait", ":click Y X",
 * ":mouse click|wheel-up|wheel-down Y X" (through curses' event queue), ":type TEXT", ":sleep SECS"
 * (live updates for SECS), ":until SECS TEXT" (live updates until a line of the screen contains
 * TEXT, SECS at most; the script goes on either way)). */
int rung_tui_script_command(rung_tui *t, const char *line);
/* Feeds one key through the keymap / prompt as if typed. */
void rung_tui_key(rung_tui *t, int key);

#endif

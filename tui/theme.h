/* Colours by role (htop style): code names a role, never a colour. A theme
 * maps every role to fg, bg and attributes; themes/<name>.theme files use
 * `role = fg bg [bold|reverse|underline|dim]`. The default and monochrome
 * themes are compiled in. */
#ifndef RUNG_TUI_THEME_H
#define RUNG_TUI_THEME_H

#include <stdbool.h>
#include <stddef.h>

#define RUNG_ROLE_LIST(_) \
	_(DEFAULT, "default") \
	_(TITLE, "title") \
	_(HEADER, "header") \
	_(STATUS, "status") \
	_(CURSOR, "cursor") \
	_(OK, "ok") \
	_(FAILED, "failed") \
	_(PENDING, "pending") \
	_(RUNNING, "running") \
	_(CACHED, "cached") \
	_(SKIPPED, "skipped") \
	_(FASTER, "faster") \
	_(SLOWER, "slower") \
	_(SAME, "same") \
	_(BASELINE, "baseline") \
	_(BEST, "best") \
	_(MARK, "mark") \
	_(DIM, "dim") \
	_(NOTE, "note") \
	_(DIFF_ADD, "diff_add") \
	_(DIFF_DEL, "diff_del") \
	_(DIFF_HUNK, "diff_hunk") \
	_(AXIS, "axis") \
	_(CEILING, "ceiling") \
	_(POINT, "point") \
	_(SELECTED_POINT, "selected_point") \
	_(PATH, "path") \
	_(MEM_DRAM, "mem_dram") \
	_(MEM_L2, "mem_l2") \
	_(MEM_L1, "mem_l1") \
	_(IMPOSSIBLE, "impossible") \
	_(ERROR, "error") \
	_(WARNING, "warning") \
	_(KEY, "key") \
	_(INPUT, "input") \
	_(SEARCH, "search") \
	_(RECORDED, "recorded") \
	_(HOT, "hot") \
	_(SUSPECT, "suspect") \
	_(MAP_OK, "map_ok") \
	_(SCALE_1, "scale_1") \
	_(SCALE_2, "scale_2") \
	_(SCALE_3, "scale_3") \
	_(SCALE_4, "scale_4") \
	_(MAP_MARK, "map_mark")

typedef enum {
#define RUNG_ROLE_ENUM(id, name) RUNG_ROLE_##id,
	RUNG_ROLE_LIST(RUNG_ROLE_ENUM)
#undef RUNG_ROLE_ENUM
	RUNG_NROLES
} rung_role;

enum { RUNG_A_BOLD = 1, RUNG_A_REVERSE = 2, RUNG_A_UNDERLINE = 4, RUNG_A_DIM = 8 };

typedef struct {
	short fg, bg;   /* -1 = terminal default, 0-255 */
	unsigned attrs; /* RUNG_A_* */
} rung_style;

typedef struct {
	char name[64];
	rung_style role[RUNG_NROLES];
} rung_theme;

const char *rung_role_name(rung_role r);
int rung_role_parse(rung_role *out, const char *name); /* 0 or RUNG_ENOTFOUND */

/* Parses theme text over *t (roles not named keep their value). file names the
 * source in errors: "light.theme:4: unknown colour 'purpel'". */
int rung_theme_parse(rung_theme *t, const char *text, const char *file);
/* The compiled-in default (dark) and monochrome themes. */
void rung_theme_default(rung_theme *t);
void rung_theme_monochrome(rung_theme *t);
const char *rung_theme_default_text(void);
const char *rung_theme_monochrome_text(void);

/* Loads NAME (a path when it contains '/', else NAME.theme searched in
 * $XDG_CONFIG_HOME/rung/themes, then the installed themes next to the binary
 * (<prefix>/share/rung/themes, rung_theme_installed_dir), then, for a binary
 * in its build directory, the source tree's themes/), over the default. */
int rung_theme_load(rung_theme *t, const char *name);
/* The installed themes' directory for the running binary (from
 * /proc/self/exe: <prefix>/share/rung/themes); *in_build: the binary is the
 * build directory's. 0, or -1 when the binary's path cannot be read. */
int rung_theme_installed_dir(char *out, size_t len, bool *in_build);
/* Picks the theme name: explicit (--theme) > NO_COLOR ("monochrome") >
 * `theme = NAME` in $XDG_CONFIG_HOME/rung/config (~/.config) > "default". *colour is
 * false under NO_COLOR. Returns 0 or an error naming config:line. */
int rung_theme_choose(char *name, int len, bool *colour, const char *explicit_name);

/* `auto_eval` in the config: what the workbench evaluates without being asked.
 * gpu (default): with a GPU every version without a live result, without one
 * the compile rung of the versions with no result at all; on: every version
 * without a live result either way (the compile rung alone without a GPU);
 * off: nothing. */
typedef enum { RUNG_AUTO_EVAL_GPU, RUNG_AUTO_EVAL_ON, RUNG_AUTO_EVAL_OFF } rung_auto_eval;
const char *rung_auto_eval_name(rung_auto_eval a); /* "gpu", "on", "off" */
int rung_auto_eval_parse(rung_auto_eval *out, const char *s); /* 0 or RUNG_EINVAL */

/* $XDG_CONFIG_HOME/rung/config (~/.config), one `key = value` a line, `#`
 * comments: theme = NAME ("" when not set), auto_eval = gpu|on|off,
 * workers = SPEC (`rung eval --workers` when not given: app/pool.h). No file:
 * the defaults. An unknown key or a bad value is an error naming config:line. */
typedef struct {
	char theme[64];
	rung_auto_eval auto_eval;
	char workers[256];
} rung_config;
int rung_config_read(rung_config *out);

/* A 0-255 colour reduced to what the terminal has (256 -> 16 -> 8). */
short rung_color_reduce(short c, int ncolors);
/* A grey that 8 colours cannot draw (it would come out yellow or black): 8 and
 * the greys of the 256-colour palette from 60 to 200; drawn in the default
 * colour with A_DIM there. */
bool rung_color_grey8(short c);

#endif

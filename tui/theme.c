/* Theme parsing and selection (no curses here: see tui/draw.c for applying). */
#include "tui/theme.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "core/err.h"
#include "core/fs.h"

/* Same text as themes/default.theme (tests/test_tui.c checks they agree). */
static const char default_text[] =
	"# rung default theme (dark background). Compiled into the binary as well.\n"
	"# role = fg bg [bold|reverse|underline|dim] ; colours by name or 0-255; \"default\" = terminal's own.\n"
	"default        = default default\n"
	"title          = black   cyan     bold\n"
	"header         = cyan    default  bold\n"
	"status         = white   blue\n"
	"cursor         = black   cyan\n"
	"ok             = green   default\n"
	"failed         = red     default  bold\n"
	"pending        = 244     default\n"
	"running        = yellow  default  bold\n"
	"cached         = 37      default\n"
	"skipped        = 244     default\n"
	"faster         = green   default  bold\n"
	"slower         = red     default  bold\n"
	"same           = 250     default\n"
	"baseline       = magenta default  bold\n"
	"best           = yellow  default  bold\n"
	"mark           = black   yellow   bold\n"
	"dim            = 244     default\n"
	"note           = 180     default\n"
	"diff_add       = green   default\n"
	"diff_del       = red     default\n"
	"diff_hunk      = magenta default\n"
	"axis           = 246     default\n"
	"ceiling        = yellow  default\n"
	"point          = cyan    default\n"
	"selected_point = black   yellow   bold\n"
	"path           = 67      default\n"
	"mem_dram       = 81      default\n"
	"mem_l2         = 114     default\n"
	"mem_l1         = 213     default\n"
	"impossible     = white   red      bold\n"
	"error          = red     default  bold\n"
	"warning        = yellow  default\n"
	"key            = cyan    default  bold\n"
	"input          = white   236\n"
	"search         = black   yellow\n"
	"recorded       = 139     default\n"
	"hot            = 208     default  bold\n"
	"suspect        = black   208      bold\n"
	"map_ok         = 244     default\n"
	"scale_1        = 228     default\n"
	"scale_2        = 214     default\n"
	"scale_3        = 196     default\n"
	"scale_4        = white   160      bold\n"
	"map_mark       = black   cyan     bold\n"
	;

/* Same text as themes/monochrome.theme. */
static const char mono_text[] =
	"# rung monochrome theme: attributes only (used for NO_COLOR and 2-colour terminals).\n"
	"default        = default default\n"
	"title          = default default reverse bold\n"
	"header         = default default bold underline\n"
	"status         = default default reverse\n"
	"cursor         = default default reverse\n"
	"ok             = default default\n"
	"failed         = default default bold\n"
	"pending        = default default dim\n"
	"running        = default default bold\n"
	"cached         = default default\n"
	"skipped        = default default dim\n"
	"faster         = default default bold\n"
	"slower         = default default bold underline\n"
	"same           = default default\n"
	"baseline       = default default underline\n"
	"best           = default default bold\n"
	"mark           = default default reverse\n"
	"dim            = default default dim\n"
	"note           = default default\n"
	"diff_add       = default default bold\n"
	"diff_del       = default default dim\n"
	"diff_hunk      = default default underline\n"
	"axis           = default default\n"
	"ceiling        = default default bold\n"
	"point          = default default\n"
	"selected_point = default default reverse\n"
	"path           = default default dim\n"
	"mem_dram       = default default bold\n"
	"mem_l2         = default default underline\n"
	"mem_l1         = default default\n"
	"impossible     = default default reverse bold\n"
	"error          = default default bold\n"
	"warning        = default default bold\n"
	"key            = default default bold\n"
	"input          = default default underline\n"
	"search         = default default reverse bold underline\n"
	"recorded       = default default dim\n"
	"hot            = default default bold\n"
	"suspect        = default default reverse underline\n"
	"map_ok         = default default dim\n"
	"scale_1        = default default\n"
	"scale_2        = default default\n"
	"scale_3        = default default bold\n"
	"scale_4        = default default bold\n"
	"map_mark       = default default reverse\n"
	;

static const char *const role_names[] = {
#define RUNG_ROLE_NAME(id, name) name,
	RUNG_ROLE_LIST(RUNG_ROLE_NAME)
#undef RUNG_ROLE_NAME
};

const char *rung_role_name(rung_role r)
{
	return (unsigned)r < RUNG_NROLES ? role_names[r] : "?";
}

int rung_role_parse(rung_role *out, const char *name)
{
	for (int i = 0; i < RUNG_NROLES; i++)
		if (!strcmp(name, role_names[i])) {
			*out = (rung_role)i;
			return 0;
		}
	return RUNG_ENOTFOUND;
}

static const char *const colour_names[] = {"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"};

static int parse_colour(short *out, const char *s)
{
	if (!strcasecmp(s, "default") || !strcmp(s, "-1")) {
		*out = -1;
		return 0;
	}
	if (isdigit((unsigned char)s[0])) {
		char *end;
		long v = strtol(s, &end, 10);
		if (*end || v < 0 || v > 255)
			return -1;
		*out = (short)v;
		return 0;
	}
	int bright = 0;
	if (!strncasecmp(s, "bright-", 7)) {
		bright = 8;
		s += 7;
	}
	if (!strcasecmp(s, "gray") || !strcasecmp(s, "grey")) {
		*out = (short)(bright ? 7 : 8);
		return 0;
	}
	for (int i = 0; i < 8; i++)
		if (!strcasecmp(s, colour_names[i])) {
			*out = (short)(i + bright);
			return 0;
		}
	return -1;
}

int rung_theme_parse(rung_theme *t, const char *text, const char *file)
{
	int lineno = 0;
	const char *p = text;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[512];
		lineno++;
		if (len >= sizeof(line))
			return rung_error_set(RUNG_EINVAL, "%s:%d: line too long", file, lineno);
		memcpy(line, p, len);
		line[len] = 0;
		p += len + (eol ? 1 : 0);
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		char *eq = strchr(line, '=');
		char *tok[8];
		int ntok = 0;
		if (!eq) {
			for (char *q = line; *q; q++)
				if (!isspace((unsigned char)*q))
					return rung_error_set(RUNG_EINVAL, "%s:%d: expected 'role = fg bg [attributes]'", file, lineno);
			continue;
		}
		*eq = 0;
		char *save = NULL, *key = strtok_r(line, " \t\r", &save);
		if (!key || strtok_r(NULL, " \t\r", &save))
			return rung_error_set(RUNG_EINVAL, "%s:%d: expected one role name before '='", file, lineno);
		rung_role role;
		if (rung_role_parse(&role, key) < 0)
			return rung_error_set(RUNG_EINVAL, "%s:%d: unknown role '%s'", file, lineno, key);
		for (char *w = strtok_r(eq + 1, " \t\r", &save); w; w = strtok_r(NULL, " \t\r", &save)) {
			if (ntok == 8)
				return rung_error_set(RUNG_EINVAL, "%s:%d: too many words", file, lineno);
			tok[ntok++] = w;
		}
		if (ntok < 2)
			return rung_error_set(RUNG_EINVAL, "%s:%d: '%s' needs a foreground and a background colour", file, lineno, key);
		rung_style st = {0};
		if (parse_colour(&st.fg, tok[0]) < 0)
			return rung_error_set(RUNG_EINVAL, "%s:%d: unknown colour '%s'", file, lineno, tok[0]);
		if (parse_colour(&st.bg, tok[1]) < 0)
			return rung_error_set(RUNG_EINVAL, "%s:%d: unknown colour '%s'", file, lineno, tok[1]);
		for (int i = 2; i < ntok; i++) {
			if (!strcmp(tok[i], "bold"))
				st.attrs |= RUNG_A_BOLD;
			else if (!strcmp(tok[i], "reverse"))
				st.attrs |= RUNG_A_REVERSE;
			else if (!strcmp(tok[i], "underline"))
				st.attrs |= RUNG_A_UNDERLINE;
			else if (!strcmp(tok[i], "dim"))
				st.attrs |= RUNG_A_DIM;
			else if (!strcmp(tok[i], "normal"))
				;
			else
				return rung_error_set(RUNG_EINVAL, "%s:%d: unknown attribute '%s' (bold, reverse, underline, dim)",
						      file, lineno, tok[i]);
		}
		t->role[role] = st;
	}
	return 0;
}

static void plain(rung_theme *t, const char *name)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	for (int i = 0; i < RUNG_NROLES; i++)
		t->role[i].fg = t->role[i].bg = -1;
}

void rung_theme_default(rung_theme *t)
{
	plain(t, "default");
	rung_theme_parse(t, default_text, "(built-in default)");
}

void rung_theme_monochrome(rung_theme *t)
{
	plain(t, "monochrome");
	rung_theme_parse(t, mono_text, "(built-in monochrome)");
}

const char *rung_theme_default_text(void)
{
	return default_text;
}

const char *rung_theme_monochrome_text(void)
{
	return mono_text;
}

/* The file's text, or NULL where there is none to read (absent is normal). */
static char *slurp(const char *path)
{
	char *text = NULL;
	rung_fs_read_file(&text, NULL, path, RUNG_FS_MAX_TEXT);
	return text;
}

static void config_dir(char *out, size_t len)
{
	const char *x = getenv("XDG_CONFIG_HOME");
	if (x && *x)
		snprintf(out, len, "%s/rung", x);
	else
		snprintf(out, len, "%s/.config/rung", getenv("HOME") ? getenv("HOME") : ".");
}

#ifndef RUNG_INSTALL_BINDIR
#define RUNG_INSTALL_BINDIR "bin"
#endif
#ifndef RUNG_INSTALL_DATADIR
#define RUNG_INSTALL_DATADIR "share"
#endif

#ifdef RUNG_BUILD_DIR
/* Whether path is dir or inside it (both real paths). */
static bool path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return !strncmp(path, dir, n) && (path[n] == 0 || path[n] == '/');
}
#endif

/* Where the running binary's own themes are: <prefix>/share/rung/themes, the
 * prefix being the binary's directory less the install's bindir
 * (/usr/local/bin/rung -> /usr/local), so an installed tree can be moved as a
 * whole. *in_build is set when the binary is the one in the build directory,
 * whose themes are the source tree's. 0, or -1 when /proc/self/exe cannot be
 * read. */
int rung_theme_installed_dir(char *out, size_t len, bool *in_build)
{
	char exe[4096];
	*in_build = false;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = 0; /* its directory */
#ifdef RUNG_BUILD_DIR
	char build[4096];
	if (realpath(RUNG_BUILD_DIR, build))
		*in_build = path_within(exe, build);
#endif
	/* up one level per component of bindir ("bin": 1, "libexec/rung": 2) */
	for (const char *p = RUNG_INSTALL_BINDIR; *p; p++) {
		if (*p != '/' && (p[1] == '/' || p[1] == 0)) {
			char *up = strrchr(exe, '/');
			if (!up)
				return -1;
			*up = 0;
		}
	}
	if (RUNG_INSTALL_DATADIR[0] == '/')
		snprintf(out, len, "%s/rung/themes", RUNG_INSTALL_DATADIR);
	else
		snprintf(out, len, "%s/%s/rung/themes", exe[0] ? exe : "", RUNG_INSTALL_DATADIR);
	return 0;
}

int rung_theme_load(rung_theme *t, const char *name)
{
	rung_theme_default(t);
	if (!strcmp(name, "monochrome") && !strchr(name, '/')) {
		rung_theme_monochrome(t);
		return 0;
	}
	char path[4200], dir[4096];
	char looked[3 * 4200] = "";
	char *text = NULL;
	if (strchr(name, '/')) {
		snprintf(path, sizeof(path), "%s", name);
		text = slurp(path);
		snprintf(looked, sizeof(looked), "%s", path);
	} else {
		/* the person's own, then the binary's: the installed ones next to it,
		 * or, for the binary in its build directory, the source tree's */
		char inst[4096];
		bool in_build = false, installed = rung_theme_installed_dir(inst, sizeof(inst), &in_build) == 0;
		for (int where = 0; !text && where < 2; where++) {
			if (where == 0) {
				config_dir(dir, sizeof(dir));
				snprintf(path, sizeof(path), "%s/themes/%s.theme", dir, name);
			}
#ifdef RUNG_SOURCE_DIR
			else if (in_build)
				snprintf(path, sizeof(path), "%s/themes/%s.theme", RUNG_SOURCE_DIR, name);
#endif
			else if (installed && !in_build)
				snprintf(path, sizeof(path), "%s/%s.theme", inst, name);
			else
				continue;
			text = slurp(path);
			size_t o = strlen(looked);
			snprintf(looked + o, sizeof(looked) - o, "%s%s", o ? ", " : "", path);
		}
		if (!text && !strcmp(name, "default"))
			return 0;
	}
	if (!text)
		return rung_error_set(RUNG_ENOTFOUND, "theme '%s' not found (looked for %s)", name, looked);
	snprintf(t->name, sizeof(t->name), "%s", name);
	int err = rung_theme_parse(t, text, path);
	free(text);
	return err;
}

static const char *const auto_eval_names[] = {"gpu", "on", "off"};

const char *rung_auto_eval_name(rung_auto_eval a)
{
	return (unsigned)a < 3 ? auto_eval_names[a] : "?";
}

int rung_auto_eval_parse(rung_auto_eval *out, const char *s)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, auto_eval_names[i])) {
			*out = (rung_auto_eval)i;
			return 0;
		}
	return rung_error_set(RUNG_EINVAL, "auto_eval is on, off or gpu, not '%s'", s);
}

int rung_config_read(rung_config *out)
{
	memset(out, 0, sizeof(*out));
	out->auto_eval = RUNG_AUTO_EVAL_GPU;
	char dir[900], path[1024];
	config_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/config", dir);
	char *text = slurp(path);
	if (!text)
		return 0;
	int lineno = 0, err = 0;
	char *p = text;
	while (p && *p && !err) {
		char *eol = strchr(p, '\n');
		if (eol)
			*eol = 0;
		lineno++;
		char *hash = strchr(p, '#');
		if (hash)
			*hash = 0;
		char key[64], val[256], extra[8];
		int n = sscanf(p, " %63[^= \t] = %255s %7s", key, val, extra);
		if (n >= 1 && n != 2) {
			err = rung_error_set(RUNG_EINVAL, "%s:%d: expected 'key = value'", path, lineno);
		} else if (n == 2 && !strcmp(key, "theme")) {
			snprintf(out->theme, sizeof(out->theme), "%.63s", val);
		} else if (n == 2 && !strcmp(key, "workers")) {
			snprintf(out->workers, sizeof(out->workers), "%s", val);
		} else if (n == 2 && !strcmp(key, "auto_eval")) {
			if (rung_auto_eval_parse(&out->auto_eval, val) < 0)
				err = rung_error_set(RUNG_EINVAL, "%s:%d: auto_eval is on, off or gpu, not '%s'", path, lineno,
						     val);
		} else if (n == 2) { /* a typo would otherwise be ignored without a word */
			err = rung_error_set(RUNG_EINVAL, "%s:%d: unknown key '%s' (known: theme, auto_eval) and workers (rung eval)",
					     path, lineno,
					     key);
		}
		p = eol ? eol + 1 : NULL;
	}
	free(text);
	return err;
}

int rung_theme_choose(char *name, int len, bool *colour, const char *explicit_name)
{
	const char *nc = getenv("NO_COLOR");
	*colour = !(nc && *nc);
	if (explicit_name) {
		snprintf(name, (size_t)len, "%s", explicit_name);
		return 0;
	}
	if (!*colour) {
		snprintf(name, (size_t)len, "monochrome");
		return 0;
	}
	snprintf(name, (size_t)len, "default");
	rung_config cfg;
	int err = rung_config_read(&cfg);
	if (err == 0 && cfg.theme[0])
		snprintf(name, (size_t)len, "%s", cfg.theme);
	return err;
}

bool rung_color_grey8(short c)
{
	int v;
	if (c == 8)
		v = 127;
	else if (c >= 232 && c <= 255)
		v = 8 + (c - 232) * 10;
	else if (c >= 16 && c < 232 && (c - 16) / 36 == ((c - 16) / 6) % 6 && (c - 16) / 36 == (c - 16) % 6)
		v = (int[]){0, 95, 135, 175, 215, 255}[(c - 16) % 6];
	else
		return false;
	return v >= 60 && v <= 200; /* the darker and lighter ones are black and white */
}

/* xterm's 256-colour palette reduced to the 16 ANSI colours, then to 8. */
short rung_color_reduce(short c, int ncolors)
{
	if (c < 0 || ncolors >= 256 || c < ncolors)
		return c;
	int r, g, b;
	if (c < 16) {
		return (short)(c & 7); /* bright -> normal on 8-colour terminals */
	} else if (c < 232) {
		int i = c - 16;
		int lv[6] = {0, 95, 135, 175, 215, 255};
		r = lv[i / 36], g = lv[(i / 6) % 6], b = lv[i % 6];
	} else {
		r = g = b = 8 + (c - 232) * 10;
	}
	static const int pal[16][3] = {
		{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
		{127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
	};
	int best = 0;
	long bd = -1;
	int lim = ncolors >= 16 ? 16 : 8;
	for (int i = 0; i < lim; i++) {
		long dr = r - pal[i][0], dg = g - pal[i][1], db = b - pal[i][2];
		long d = dr * dr + dg * dg + db * db;
		if (bd < 0 || d < bd) {
			bd = d;
			best = i;
		}
	}
	return (short)best;
}

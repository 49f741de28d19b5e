#include "cli/opts.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/err.h"

/* Whether the command line being run asked for --json (its table has the
 * option), and whether its JSON error object was printed (once a command). */
static _Thread_local bool json_asked, json_error_out; /* per thread: the MCP server runs commands on its own */

bool rung_opts_json(void)
{
	return json_asked;
}

bool rung_opts_json_error_first(void)
{
	bool first = !json_error_out;
	json_error_out = true;
	return first;
}

/* Where rung_opts_set's messages go (NULL: stderr), per thread as above. */
static _Thread_local FILE *opt_err_to;

/* An error of the command line: on stderr (or opt_err_to) as "rung CMD: ...",
 * and kept as the error message (the JSON error object's words). */
static void opt_err(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void opt_err(const char *cmd, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(opt_err_to ? opt_err_to : stderr, "rung %s: %s\n", cmd, msg);
	rung_error_set(RUNG_EUSAGE, "%s", msg);
}

/* The option of a table (sub-tables searched too) for a long name of len bytes, or a short one. */
static const rung_opt_spec *find(const rung_opt_spec *specs, void *base, void **field_base, const char *name,
				 size_t len, char shortname)
{
	for (const rung_opt_spec *s = specs; s->kind != RUNG_OPT_END; s++) {
		if (s->kind == RUNG_OPT_SUB) {
			const rung_opt_spec *r = find(s->sub, (char *)base + s->offset, field_base, name, len, shortname);
			if (r)
				return r;
			continue;
		}
		if ((name && s->name && strlen(s->name) == len && !strncmp(s->name, name, len)) ||
		    (!name && shortname && s->shortname == shortname)) {
			*field_base = base;
			return s;
		}
	}
	return NULL;
}

/* A switch, or an RUNG_OPT_FN without a value name, takes no value. */
static bool takes_value(const rung_opt_spec *s)
{
	return s->kind == RUNG_OPT_FN ? s->value != NULL : s->kind != RUNG_OPT_SWITCH;
}

static void usage_hint(const rung_opt_table *t)
{
	fprintf(stderr, "usage: ");
	rung_opts_synopsis(stderr, t, 100);
}

/* "expected an integer from 1 to 64" and its kin. */
static void range_words(char *buf, size_t len, const rung_opt_spec *s, const char *what)
{
	bool has_lo = s->lo > -INFINITY && !(s->lo == 0 && s->hi == 0), has_hi = s->hi < INFINITY && !(s->lo == 0 && s->hi == 0);
	if (s->kind == RUNG_OPT_INT) {
		has_lo = has_lo && s->lo > INT_MIN;
		has_hi = has_hi && s->hi < INT_MAX;
	}
	if (has_lo && has_hi && !(s->flags & RUNG_OPTF_GT))
		snprintf(buf, len, "%s from %.15g to %.15g", what, s->lo, s->hi);
	else if (has_lo && has_hi)
		snprintf(buf, len, "%s greater than %.15g and at most %.15g", what, s->lo, s->hi);
	else if (has_lo)
		snprintf(buf, len, "%s %s %.15g", what, s->flags & RUNG_OPTF_GT ? "greater than" : "of at least", s->lo);
	else if (has_hi)
		snprintf(buf, len, "%s of at most %.15g", what, s->hi);
	else
		snprintf(buf, len, "%s", what);
}

static bool in_range(const rung_opt_spec *s, double v)
{
	if (s->lo == 0 && s->hi == 0)
		return true; /* no range given */
	if (s->flags & RUNG_OPTF_GT ? !(v > s->lo) : !(v >= s->lo))
		return false;
	return v <= s->hi;
}

/* A choice in a space-separated list. */
static bool is_choice(const char *choices, const char *v)
{
	size_t n = strlen(v);
	for (const char *p = choices; *p;) {
		size_t k = strcspn(p, " ");
		if (k == n && !strncmp(p, v, n))
			return true;
		p += k;
		p += *p == ' ';
	}
	return false;
}

static int bad_value(const char *cmd, const char *opt, const char *expected, const char *v)
{
	opt_err(cmd, "%s: expected %s, found '%s'", opt, expected, v);
	return -1;
}

/* Stores v (NULL for a switch or an absent optional value) into the field of s. */
static int apply(const rung_opt_spec *s, void *base, const char *cmd, const char *opt, const char *v)
{
	void *field = (char *)base + s->offset;
	char *end = NULL;
	char what[160];
	switch (s->kind) {
	case RUNG_OPT_SWITCH:
		*(bool *)field = true;
		break;
	case RUNG_OPT_VALUE:
		if (s->choices && !is_choice(s->choices, v)) {
			char ex[200];
			snprintf(ex, sizeof(ex), "one of: %s", s->choices);
			return bad_value(cmd, opt, ex, v);
		}
		*(const char **)field = v;
		break;
	case RUNG_OPT_INT: {
		errno = 0;
		long long x = strtoll(v, &end, 10);
		range_words(what, sizeof(what), s, "an integer");
		if (!*v || isspace((unsigned char)*v) || *end || errno == ERANGE || x < INT_MIN || x > INT_MAX ||
		    !in_range(s, (double)x))
			return bad_value(cmd, opt, what, v);
		*(int *)field = (int)x;
		break;
	}
	case RUNG_OPT_U64: {
		errno = 0;
		unsigned long long x = strtoull(v, &end, 0);
		if (!isdigit((unsigned char)*v) || *end || errno == ERANGE) /* no sign: strtoull wraps "-1" */
			return bad_value(cmd, opt, "a non-negative integer", v);
		*(unsigned long long *)field = x;
		break;
	}
	case RUNG_OPT_DOUBLE: {
		double x = strtod(v, &end);
		if (!*v || isspace((unsigned char)*v) || *end || !isfinite(x))
			return bad_value(cmd, opt, "a number", v);
		if (!in_range(s, x)) {
			range_words(what, sizeof(what), s, "a number");
			return bad_value(cmd, opt, what, v);
		}
		*(double *)field = x;
		break;
	}
	case RUNG_OPT_FN:
		if (s->fn(field, s, cmd, v) < 0)
			return -1;
		break;
	default:
		return -1;
	}
	if (s->seen)
		*(bool *)((char *)base + s->seen - 1) = true;
	return 0;
}

int rung_opts_set(FILE *err, const rung_opt_table *t, void *opts, const char *name, const char *value)
{
	void *base = NULL;
	const rung_opt_spec *s = find(t->opts, opts, &base, name, strlen(name), 0);
	if (!s || !takes_value(s) || s->kind == RUNG_OPT_FN)
		return -1; /* not an option of the table that takes a checked value: the caller's mistake */
	char opt[64];
	snprintf(opt, sizeof(opt), "--%.50s", name);
	opt_err_to = err;
	int e = apply(s, base, t->cmd, opt, value);
	opt_err_to = NULL;
	return e;
}

static bool parse(int *rc, const rung_opt_table *t, void *opts, int argc, char **argv, int *nargs)
{
	int n = 0;
	bool only_args = false;
	*rc = RUNG_EXIT_USAGE;
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		if (only_args || a[0] != '-' || !a[1]) {
			argv[1 + n++] = a; /* n < i: never overwrites an unread word */
			continue;
		}
		if (!strcmp(a, "--")) {
			only_args = true;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			rung_opts_help(stdout, t, rung_cli_summary(t->cmd));
			*rc = RUNG_EXIT_OK;
			return true;
		}
		const rung_opt_spec *s;
		void *base = NULL;
		const char *v = NULL; /* a value given in the same word */
		char opt[64];
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');
			size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
			s = find(t->opts, opts, &base, a + 2, len, 0);
			snprintf(opt, sizeof(opt), "--%.*s", (int)(len < 50 ? len : 50), a + 2);
			v = eq ? eq + 1 : NULL;
		} else {
			s = find(t->opts, opts, &base, NULL, 0, a[1]);
			snprintf(opt, sizeof(opt), "-%c", a[1]);
			v = a[2] ? a + 2 : NULL;
		}
		if (!s) {
			opt_err(t->cmd, "unknown option '%s'", a);
			usage_hint(t);
			return true;
		}
		if (!takes_value(s) && v) {
			opt_err(t->cmd, "%s takes no value (found '%s')", opt, a);
			return true;
		}
		if (takes_value(s) && !(s->flags & RUNG_OPTF_OPTIONAL) && !v) {
			if (i + 1 >= argc) {
				opt_err(t->cmd, "%s: expected a value (%s), found the end of the command line", opt,
					s->value ? s->value : "VALUE");
				usage_hint(t);
				return true;
			}
			v = argv[++i];
		}
		if (apply(s, base, t->cmd, opt, v) < 0)
			return true;
	}
	if (n < t->min_args) {
		opt_err(t->cmd, "expected %s%s", t->args, n ? "" : ", found nothing");
		usage_hint(t);
		return true;
	}
	if (t->max_args >= 0 && n > t->max_args) {
		opt_err(t->cmd, "unexpected argument '%s' (takes %s)", argv[1 + t->max_args],
			t->args[0] ? t->args : "no arguments");
		usage_hint(t);
		return true;
	}
	*nargs = n;
	*rc = RUNG_EXIT_OK;
	return false;
}

bool rung_opts_parse(int *rc, const rung_opt_table *t, void *opts, int argc, char **argv, int *nargs)
{
	/* --json anywhere before "--" (even after the word that is wrong): the
	 * error goes to stdout as a JSON object too (docs/CLI.md, "Exit codes") */
	void *base = NULL;
	json_asked = json_error_out = false;
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json"))
			json_asked = find(t->opts, opts, &base, "json", 4, 0) != NULL;
	rung_error_clear();
	bool stop = parse(rc, t, opts, argc, argv, nargs);
	if (stop && *rc != RUNG_EXIT_OK && json_asked) {
		if (!rung_error_last()[0])
			rung_error_set(RUNG_EUSAGE, "bad command line (rung %s --help)", t->cmd);
		rung_cli_json_error(*rc);
	}
	return stop;
}

static void each(const rung_opt_spec *specs, rung_opt_visit fn, void *ctx)
{
	for (const rung_opt_spec *s = specs; s->kind != RUNG_OPT_END; s++) {
		if (s->kind == RUNG_OPT_SUB)
			each(s->sub, fn, ctx);
		else if (!(s->flags & RUNG_OPTF_HIDDEN))
			fn(s, ctx);
	}
}

void rung_opts_each(const rung_opt_table *t, rung_opt_visit fn, void *ctx)
{
	each(t->opts, fn, ctx);
}

void rung_opt_label(char *buf, size_t len, const rung_opt_spec *s)
{
	char flag[64];
	if (s->name && s->shortname)
		snprintf(flag, sizeof(flag), "-%c, --%s", s->shortname, s->name);
	else if (s->name)
		snprintf(flag, sizeof(flag), "--%s", s->name);
	else
		snprintf(flag, sizeof(flag), "-%c", s->shortname);
	if (!takes_value(s) || !s->value)
		snprintf(buf, len, "%s", flag);
	else if (s->flags & RUNG_OPTF_OPTIONAL)
		snprintf(buf, len, "%s[=%s]", flag, s->value);
	else
		snprintf(buf, len, "%s %s", flag, s->value);
}

typedef struct {
	FILE *f;
	int col, width, indent;
} synopsis_ctx;

static void put_word(synopsis_ctx *c, const char *w)
{
	int n = (int)strlen(w);
	if (c->col + 1 + n > c->width && c->col > c->indent) {
		fprintf(c->f, "\n%*s", c->indent, "");
		c->col = c->indent;
	} else {
		fputc(' ', c->f);
		c->col++;
	}
	fputs(w, c->f);
	c->col += n;
}

static void synopsis_word(const rung_opt_spec *s, void *ctx)
{
	char label[96], w[100];
	if (s->shortname) /* the short form in the synopsis: [-C DIR] */
		rung_opt_label(label, sizeof(label), &(rung_opt_spec){.kind = s->kind, .shortname = s->shortname,
								       .value = s->value, .flags = s->flags});
	else
		rung_opt_label(label, sizeof(label), s);
	snprintf(w, sizeof(w), "[%s]", label);
	put_word(ctx, w);
}

void rung_opts_synopsis(FILE *f, const rung_opt_table *t, int width)
{
	synopsis_ctx c = {f, 0, width, 0};
	c.col = fprintf(f, "rung %s", t->cmd);
	c.indent = c.col + 1;
	rung_opts_each(t, synopsis_word, &c);
	if (t->args && t->args[0])
		put_word(&c, t->args);
	fputc('\n', f);
}

static void help_line(const rung_opt_spec *s, void *ctx)
{
	char label[96];
	rung_opt_label(label, sizeof(label), s);
	fprintf(ctx, "  %-24s %s\n", label, s->help ? s->help : "");
}

void rung_opts_help(FILE *f, const rung_opt_table *t, const char *summary)
{
	fprintf(f, "usage: ");
	rung_opts_synopsis(f, t, 100);
	if (summary)
		fprintf(f, "\n%s\n", summary);
	fprintf(f, "\noptions:\n");
	rung_opts_each(t, help_line, f);
	fprintf(f, "  %-24s %s\n", "-h, --help", "print this help");
}

static void count_one(const rung_opt_spec *s, void *ctx)
{
	(void)s;
	++*(int *)ctx;
}

static void md_line(const rung_opt_spec *s, void *ctx)
{
	char label[96];
	rung_opt_label(label, sizeof(label), s);
	fprintf(ctx, "| `%s` | ", label);
	for (const char *p = s->help ? s->help : ""; *p; p++) { /* a | would end the cell */
		if (*p == '|')
			fputc('\\', ctx);
		fputc(*p, ctx);
	}
	fprintf(ctx, " |\n");
}

void rung_opts_markdown(FILE *f, const rung_opt_table *t)
{
	fprintf(f, "```\n");
	rung_opts_synopsis(f, t, 100);
	fprintf(f, "```\n");
	int listed = 0;
	rung_opts_each(t, count_one, &listed);
	if (!listed)
		return;
	fprintf(f, "\n| option | meaning |\n|---|---|\n");
	rung_opts_each(t, md_line, f);
}

void rung_roff_text(FILE *f, const char *text)
{
	bool bol = true;
	for (const char *p = text; *p; p++) {
		if (bol && (*p == '.' || *p == '\''))
			fputs("\\&", f);
		bol = *p == '\n';
		if (*p == '\\')
			fputs("\\e", f);
		else if (*p == '-')
			fputs("\\-", f);
		else
			fputc(*p, f);
	}
}

static void man_line(const rung_opt_spec *s, void *ctx)
{
	FILE *f = ctx;
	char label[96];
	rung_opt_label(label, sizeof(label), s);
	fputs(".TP\n\\fB", f);
	rung_roff_text(f, label);
	fputs("\\fR\n", f);
	rung_roff_text(f, s->help ? s->help : "");
	fputc('\n', f);
}

void rung_opts_man(FILE *f, const rung_opt_table *t, const char *summary)
{
	fputs(".SS \"", f);
	rung_roff_text(f, "rung ");
	rung_roff_text(f, t->cmd);
	fputs("\"\n", f);
	if (summary) {
		rung_roff_text(f, summary);
		fputc('\n', f);
	}
	char *syn = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&syn, &len);
	if (m) {
		rung_opts_synopsis(m, t, 78);
		fclose(m);
	}
	fputs(".PP\n.nf\n", f);
	rung_roff_text(f, syn ? syn : "");
	fputs(".fi\n", f);
	free(syn);
	rung_opts_each(t, man_line, f);
}

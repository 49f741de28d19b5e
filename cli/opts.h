/* One option table per command (cli/cmd_*.c): the parser, `rung CMD --help`, the
 * option tables of docs/CLI.md (`rung help --markdown`) and the shell completion
 * (`rung completion bash|zsh`) are all generated from it, so they cannot drift.
 *
 *   typedef struct { bool json; double budget_s; rung_vctx_opts where; } my_opts;
 *   static const rung_opt_spec specs[] = {
 *           {RUNG_OPT_BOOL(my_opts, json), .name = "json", .help = "print one JSON object"},
 *           {RUNG_OPT_DBL(my_opts, budget_s, 0, 1e6), .flags = RUNG_OPTF_GT, .name = "budget",
 *            .value = "SEC", .help = "time budget for the bench rung"},
 *           {RUNG_OPT_SUBTABLE(my_opts, where, rung_vctx_opt_specs)},
 *           {0}};
 *   const rung_opt_table rung_opts_my = {"my", "[TASKDIR]", 0, 1, specs};
 *
 * Syntax: `--opt VALUE`, `--opt=VALUE`, `-C DIR`, `-CDIR`; options and arguments
 * may be mixed; `--` ends the options; `-h`/`--help` prints the help. Errors
 * print "rung CMD: --budget: expected a number, found 'x'" on stderr and the
 * command exits RUNG_EXIT_USAGE. Numbers are parsed whole (strtoll/strtod with
 * an end check) and checked against the option's range. */
#ifndef RUNG_CLI_OPTS_H
#define RUNG_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum {
	RUNG_OPT_END = 0,
	RUNG_OPT_SWITCH, /* bool = true; takes no value */
	RUNG_OPT_VALUE,  /* const char * = the value (checked against .choices if set) */
	RUNG_OPT_INT,    /* int in [lo, hi] */
	RUNG_OPT_U64,    /* unsigned long long (seeds): decimal or 0x hex, no sign */
	RUNG_OPT_DOUBLE, /* finite double in [lo, hi] (lo excluded with RUNG_OPTF_GT) */
	RUNG_OPT_FN,     /* .fn(field, spec, cmd, value) parses it (value NULL: none given) */
	RUNG_OPT_SUB     /* the options of .sub, for the struct at .offset */
} rung_opt_kind;

enum {
	RUNG_OPTF_OPTIONAL = 1, /* the value is optional and only given as --opt=VALUE */
	RUNG_OPTF_GT = 2,       /* a number must be greater than lo (not equal) */
	RUNG_OPTF_HIDDEN = 4,   /* parsed, but not in the help, the docs or the completion (internal modes) */
};

typedef struct rung_opt_spec rung_opt_spec;
struct rung_opt_spec {
	rung_opt_kind kind;
	size_t offset;      /* of the field in the command's options struct */
	size_t seen;        /* 1 + offset of a bool set when the option is given; 0: none */
	double lo, hi;      /* range of a number */
	const char *name;   /* long name without "--"; NULL: short only */
	char shortname;     /* 'C' for -C; 0: none */
	const char *value;  /* value name for the help ("DIR"); NULL for a switch */
	const char *help;   /* one line */
	unsigned flags;     /* RUNG_OPTF_* */
	const char *choices; /* "keep reject none": the only values accepted (and completed) */
	int (*fn)(void *field, const rung_opt_spec *s, const char *cmd, const char *value); /* 0 or -1, message printed */
	const rung_opt_spec *sub; /* RUNG_OPT_SUB */
};

/* A field's offset, only if it has the type the kind writes (else a compile error). */
#define RUNG_OPT_AT(T, f, type) _Generic(((T *)0)->f, type: offsetof(T, f))
#define RUNG_OPT_BOOL(T, f) .kind = RUNG_OPT_SWITCH, .offset = RUNG_OPT_AT(T, f, bool)
#define RUNG_OPT_STR(T, f) .kind = RUNG_OPT_VALUE, .offset = RUNG_OPT_AT(T, f, const char *)
#define RUNG_OPT_NUM(T, f, l, h) .kind = RUNG_OPT_INT, .offset = RUNG_OPT_AT(T, f, int), .lo = (l), .hi = (h)
#define RUNG_OPT_SEED(T, f) .kind = RUNG_OPT_U64, .offset = RUNG_OPT_AT(T, f, unsigned long long)
#define RUNG_OPT_DBL(T, f, l, h) .kind = RUNG_OPT_DOUBLE, .offset = RUNG_OPT_AT(T, f, double), .lo = (l), .hi = (h)
#define RUNG_OPT_SEEN(T, f) .seen = 1 + RUNG_OPT_AT(T, f, bool)
#define RUNG_OPT_SUBTABLE(T, f, specs) .kind = RUNG_OPT_SUB, .offset = offsetof(T, f), .sub = (specs)

typedef struct {
	const char *cmd;  /* "check" */
	const char *args; /* the arguments after the options in the usage line: "[TASKDIR|FILE|REV]" ("" none) */
	int min_args, max_args; /* how many arguments; max_args < 0: any number */
	const rung_opt_spec *opts; /* ends with {0} */
	const char *arg_choices;   /* "bash zsh": the words completed for the arguments (NULL: files) */
} rung_opt_table;

/* Parses argv[1..argc-1] (argv[0] is the command) into opts (filled by the
 * caller with its defaults first). The arguments that are not options are
 * moved, in order, to argv[1..*nargs]. Returns false when the command goes on;
 * true when it must return *rc now: after --help (RUNG_EXIT_OK) or after an
 * error was printed (RUNG_EXIT_USAGE). */
bool rung_opts_parse(int *rc, const rung_opt_table *t, void *opts, int argc, char **argv, int *nargs);
/* The value of option --name of t, checked as rung_opts_parse checks it
 * (range, choices) and stored into opts: 0, or -1 after writing on err the
 * message the parser would print (an option of a front end that has no
 * command line, the MCP server's tool arguments). Not for RUNG_OPT_FN options. */
int rung_opts_set(FILE *err, const rung_opt_table *t, void *opts, const char *name, const char *value);
/* Whether the command line rung_opts_parse read last asked for --json (and
 * the command has it): its errors are a JSON object on stdout too
 * (rung_cli_json_error, printed once a command: rung_opts_json_error_first
 * says whether this is the first). With --json, an error of the command line
 * itself is printed so by rung_opts_parse. */
bool rung_opts_json(void);
bool rung_opts_json_error_first(void);

/* "usage: rung check [--json] ... [TASKDIR]", the summary and one line per option. */
void rung_opts_help(FILE *f, const rung_opt_table *t, const char *summary);
/* The usage synopsis only ("rung check [--json] [-C DIR] [TASKDIR]"), wrapped at width columns. */
void rung_opts_synopsis(FILE *f, const rung_opt_table *t, int width);
/* The docs/CLI.md block of one command: its synopsis and option table in markdown. */
void rung_opts_markdown(FILE *f, const rung_opt_table *t);

/* The man page section of one command (rung help --man): its summary,
 * synopsis and one tagged paragraph per option, in roff. */
void rung_opts_man(FILE *f, const rung_opt_table *t, const char *summary);
/* text as roff running text: backslashes and hyphens escaped, and a line that
 * would start with '.' or '\'' (a request) guarded. */
void rung_roff_text(FILE *f, const char *text);

/* Visits every listed option of a table (RUNG_OPTF_HIDDEN ones left out),
 * sub-tables flattened, in help order. */
typedef void (*rung_opt_visit)(const rung_opt_spec *s, void *ctx);
void rung_opts_each(const rung_opt_table *t, rung_opt_visit fn, void *ctx);
/* "--budget SEC", "-C DIR", "--sanitize[=TOOLS]" into buf. */
void rung_opt_label(char *buf, size_t len, const rung_opt_spec *s);

#endif

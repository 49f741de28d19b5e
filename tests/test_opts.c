/* The option tables (cli/opts.h): the parser's syntax, its error messages and
 * exit codes, strict numbers with ranges, and the help and docs generated from
 * a table; check's real table (its --help lists the shared options). */
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "cli/cli.h"
#include "cli/opts.h"
#include "app/session.h"

typedef struct {
	bool json, has_seed, secret;
	const char *out;
	int jobs;
	unsigned long long seed;
	double budget;
	rung_vctx_opts where;
	const char *mode;
	int calls;
} my_opts;

static int count_fn(void *field, const rung_opt_spec *s, const char *cmd, const char *value)
{
	(*(int *)field)++;
	return value && !strcmp(value, "bad") ? (fprintf(stderr, "rung %s: --count: bad\n", cmd), -1) : 0;
}

static const rung_opt_spec specs[] = {
	{RUNG_OPT_BOOL(my_opts, json), .name = "json", .help = "print JSON"},
	{RUNG_OPT_STR(my_opts, out), .name = "out", .shortname = 'o', .value = "FILE", .help = "write here"},
	{RUNG_OPT_NUM(my_opts, jobs, 1, 64), .name = "jobs", .shortname = 'j', .value = "N", .help = "in flight"},
	{RUNG_OPT_SEED(my_opts, seed), RUNG_OPT_SEEN(my_opts, has_seed), .name = "seed", .value = "S", .help = "seed"},
	{RUNG_OPT_DBL(my_opts, budget, 0, 60), .flags = RUNG_OPTF_GT, .name = "budget", .value = "SEC",
	 .help = "time | budget"},
	{RUNG_OPT_STR(my_opts, mode), .name = "mode", .value = "M", .choices = "fast slow", .help = "how"},
	{.kind = RUNG_OPT_FN, .offset = offsetof(my_opts, calls), .fn = count_fn, .name = "count", .value = "X",
	 .flags = RUNG_OPTF_OPTIONAL, .help = "counted"},
	{RUNG_OPT_BOOL(my_opts, secret), .name = "secret", .flags = RUNG_OPTF_HIDDEN, .help = "an internal mode"},
	{RUNG_OPT_SUBTABLE(my_opts, where, rung_vctx_opt_specs)},
	{0}};
static const rung_opt_table table = {.cmd = "mine", .args = "[A [B]]", .max_args = 2, .opts = specs};

static char err[4096];
static char *args[32];
static int nargs;
static my_opts o;

/* Parses the words of line (split at spaces; "_" is an empty word) with stderr captured in err. */
static int parse(const char *line)
{
	static char buf[1024];
	snprintf(buf, sizeof(buf), "mine %s", line);
	int argc = 0;
	for (char *p = strtok(buf, " "); p && argc < 31; p = strtok(NULL, " "))
		args[argc++] = !strcmp(p, "_") ? p + 1 : p;
	args[argc] = NULL;
	memset(&o, 0, sizeof(o));
	o.jobs = 3;
	o.budget = NAN;
	fflush(stderr);
	char path[] = "/tmp/rung-test-opts-XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	dup2(fd, 2);
	int rc = -1;
	nargs = -1;
	bool done = rung_opts_parse(&rc, &table, &o, argc, args, &nargs);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ssize_t n = pread(fd, err, sizeof(err) - 1, 0);
	err[n > 0 ? n : 0] = 0;
	close(fd);
	unlink(path);
	if (!done)
		CHECK_INT(rc, 0);
	return done ? rc : 0;
}

/* The first line of the captured stderr. */
static const char *first_line(void)
{
	static char line[512];
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(err, "\n"), err);
	return line;
}

static void test_syntax(void)
{
	CHECK_INT(parse("--json --out a.txt --jobs=5 -C /r --task t x"), 0);
	CHECK(o.json);
	CHECK_STR(o.out, "a.txt");
	CHECK_INT(o.jobs, 5);
	CHECK_STR(o.where.dir, "/r");
	CHECK_STR(o.where.task, "t");
	CHECK(!o.where.spec_rev);
	CHECK_INT(nargs, 1);
	CHECK_STR(args[1], "x");
	CHECK_STR(err, "");
	/* --opt=value, -CDIR, -o FILE; arguments between options keep their order */
	CHECK_INT(parse("a --out=b.txt -C/r2 --spec-rev=HEAD~1 b -o c"), 0);
	CHECK_STR(o.out, "c");
	CHECK_STR(o.where.dir, "/r2");
	CHECK_STR(o.where.spec_rev, "HEAD~1");
	CHECK_INT(nargs, 2);
	CHECK_STR(args[1], "a");
	CHECK_STR(args[2], "b");
	/* a value that starts with '-' is still the value; '=' keeps the rest whole */
	CHECK_INT(parse("--out -x --task=a=b"), 0);
	CHECK_STR(o.out, "-x");
	CHECK_STR(o.where.task, "a=b");
	/* an empty value given with = */
	CHECK_INT(parse("--out="), 0);
	CHECK_STR(o.out, "");
	/* -- ends the options; "-" alone is an argument */
	CHECK_INT(parse("-- --json -"), 0);
	CHECK(!o.json);
	CHECK_INT(nargs, 2);
	CHECK_STR(args[1], "--json");
	CHECK_STR(args[2], "-");
	/* defaults stay when not given; the seen flag */
	CHECK_INT(parse(""), 0);
	CHECK_INT(o.jobs, 3);
	CHECK(isnan(o.budget));
	CHECK(!o.has_seed);
	CHECK_INT(nargs, 0);
	CHECK_INT(parse("--seed 0x10"), 0);
	CHECK(o.has_seed);
	CHECK_INT(o.seed, 16);
	CHECK_INT(parse("--seed 18446744073709551615"), 0);
	CHECK(o.seed == 18446744073709551615ull);
	/* an optional value: only with = */
	CHECK_INT(parse("--count --count=1 a"), 0);
	CHECK_INT(o.calls, 2);
	CHECK_INT(nargs, 1);
	CHECK_INT(parse("--mode slow"), 0);
	CHECK_STR(o.mode, "slow");
	/* a hidden option parses like any other */
	CHECK_INT(parse("--secret"), 0);
	CHECK(o.secret);
	CHECK_INT(parse("--secret=1"), RUNG_EXIT_USAGE);
}

static void test_errors(void)
{
	CHECK_INT(parse("--frob"), RUNG_EXIT_USAGE);
	CHECK_STR(first_line(), "rung mine: unknown option '--frob'");
	CHECK_CONTAINS(err, "usage: rung mine [--json] [-o FILE] [-j N] [--seed S] [--budget SEC]");
	CHECK_INT(parse("-x"), RUNG_EXIT_USAGE);
	CHECK_STR(first_line(), "rung mine: unknown option '-x'");
	/* a prefix is not the option */
	CHECK_INT(parse("--js"), RUNG_EXIT_USAGE);
	CHECK_STR(first_line(), "rung mine: unknown option '--js'");
	CHECK_INT(parse("--out"), RUNG_EXIT_USAGE);
	CHECK_STR(first_line(), "rung mine: --out: expected a value (FILE), found the end of the command line");
	CHECK_INT(parse("x -C"), RUNG_EXIT_USAGE);
	CHECK_STR(first_line(), "rung mine: -C: expected a value (DIR), found the end of the command line");
	CHECK_INT(parse("--json=yes"), RUNG_EXIT_USAGE);
	CHECK_STR(first_line(), "rung mine: --json takes no value (found '--json=yes')");
	CHECK_INT(parse("a b c"), RUNG_EXIT_USAGE);
	CHECK_STR(first_line(), "rung mine: unexpected argument 'c' (takes [A [B]])");
	CHECK_INT(parse("--mode medium"), RUNG_EXIT_USAGE);
	CHECK_STR(first_line(), "rung mine: --mode: expected one of: fast slow, found 'medium'");
	CHECK_INT(parse("--count=bad"), RUNG_EXIT_USAGE);
	CHECK_STR(first_line(), "rung mine: --count: bad");
}

static void test_numbers(void)
{
	static const struct {
		const char *line, *msg;
	} bad[] = {
		{"--budget x", "rung mine: --budget: expected a number, found 'x'"},
		{"--budget _", "rung mine: --budget: expected a number, found ''"},
		{"--budget 1s", "rung mine: --budget: expected a number, found '1s'"},
		{"--budget nan", "rung mine: --budget: expected a number, found 'nan'"},
		{"--budget inf", "rung mine: --budget: expected a number, found 'inf'"},
		{"--budget 0", "rung mine: --budget: expected a number greater than 0 and at most 60, found '0'"},
		{"--budget -1", "rung mine: --budget: expected a number greater than 0 and at most 60, found '-1'"},
		{"--budget 60.5", "rung mine: --budget: expected a number greater than 0 and at most 60, found '60.5'"},
		{"--jobs 0", "rung mine: --jobs: expected an integer from 1 to 64, found '0'"},
		{"--jobs 65", "rung mine: --jobs: expected an integer from 1 to 64, found '65'"},
		{"-j 2.5", "rung mine: -j: expected an integer from 1 to 64, found '2.5'"},
		{"--jobs= 4", "rung mine: --jobs: expected an integer from 1 to 64, found ''"},
		{"--jobs 99999999999999999999", "rung mine: --jobs: expected an integer from 1 to 64, found '99999999999999999999'"},
		{"--jobs 4x", "rung mine: --jobs: expected an integer from 1 to 64, found '4x'"},
		{"--seed -1", "rung mine: --seed: expected a non-negative integer, found '-1'"},
		{"--seed +1", "rung mine: --seed: expected a non-negative integer, found '+1'"},
		{"--seed 18446744073709551616", "rung mine: --seed: expected a non-negative integer, found '18446744073709551616'"},
		{"--seed 12abc", "rung mine: --seed: expected a non-negative integer, found '12abc'"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_INT(parse(bad[i].line), RUNG_EXIT_USAGE);
		char want[300];
		snprintf(want, sizeof(want), "%s\n", bad[i].msg); /* one line, nothing else */
		CHECK_STR(err, want);
	}
	/* in range: the ends */
	CHECK_INT(parse("--budget 60 -j64"), 0);
	CHECK_NEAR(o.budget, 60, 0);
	CHECK_INT(o.jobs, 64);
	CHECK_INT(parse("--budget 1e-3 --jobs 1"), 0);
	CHECK_NEAR(o.budget, 1e-3, 0);
	CHECK_INT(o.jobs, 1);
}

/* fmemopen-free capture of what a function prints on a FILE. */
static char *capture(void (*fn)(FILE *, const rung_opt_table *), const rung_opt_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fn(f, t);
	fclose(f);
	return buf;
}

static void help(FILE *f, const rung_opt_table *t)
{
	rung_opts_help(f, t, "do mine");
}

static void test_help_and_markdown(void)
{
	char *h = capture(help, &table);
	CHECK_CONTAINS(h, "usage: rung mine [--json] [-o FILE] [-j N] [--seed S] [--budget SEC] [--mode M]");
	CHECK_CONTAINS(h, "\ndo mine\n");
	CHECK_CONTAINS(h, "\n  -o, --out FILE           write here\n");
	CHECK_CONTAINS(h, "\n  --count[=X]              counted\n");
	CHECK_CONTAINS(h, "\n  -C DIR                   ");
	CHECK_CONTAINS(h, "\n  --spec-rev REV           ");
	CHECK_CONTAINS(h, "\n  -h, --help               print this help\n");
	CHECK(!strstr(h, "secret")); /* hidden: neither in the synopsis nor on a line */
	CHECK(!strstr(h, "internal mode"));
	free(h);
	char *m = capture(rung_opts_markdown, &table);
	CHECK_CONTAINS(m, "```\nrung mine [--json]");
	CHECK_CONTAINS(m, "| option | meaning |\n|---|---|\n| `--json` | print JSON |\n");
	CHECK_CONTAINS(m, "| `--budget SEC` | time \\| budget |\n"); /* a | in the help does not split the cell */
	CHECK(!strstr(m, "secret"));
	free(m);
	/* a table of hidden options only: the synopsis and no empty option table */
	static const rung_opt_spec hidden_only[] = {
		{RUNG_OPT_BOOL(my_opts, secret), .name = "secret", .flags = RUNG_OPTF_HIDDEN, .help = "internal"}, {0}};
	static const rung_opt_table ht = {.cmd = "hid", .args = "", .opts = hidden_only};
	m = capture(rung_opts_markdown, &ht);
	CHECK_STR(m, "```\nrung hid\n```\n");
	free(m);
	/* --help: the help on stdout, exit 0, nothing parsed after it */
	int rc = -1, n;
	char *argv[] = {"mine", "--help", "--frob", NULL};
	fflush(stdout);
	int saved = dup(1), null = open("/dev/null", O_WRONLY);
	dup2(null, 1);
	bool done = rung_opts_parse(&rc, &table, &o, 3, argv, &n);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(null);
	CHECK(done);
	CHECK_INT(rc, RUNG_EXIT_OK);
}

/* The real command: check's help lists its own options and the shared ones (the old usage line had none of these). */
static void test_check_help(void)
{
	char *out = NULL;
	CHECK_INT(t_sh(&out, "%s check --help", RUNG_BIN), 0);
	CHECK_CONTAINS(out, "usage: rung check ");
	CHECK_CONTAINS(out, "\n  -C DIR ");
	CHECK_CONTAINS(out, "\n  --task DIR ");
	CHECK_CONTAINS(out, "\n  --spec-rev REV ");
	CHECK_CONTAINS(out, "\n  --force ");
	CHECK_CONTAINS(out, "\n  --sanitize[=TOOLS] ");
	free(out);
	CHECK_INT(t_sh(&out, "%s help check", RUNG_BIN), 0);
	CHECK_CONTAINS(out, "\n  --spec-rev REV ");
	free(out);
	CHECK_INT(t_sh(&out, "%s check --budget x", RUNG_BIN), RUNG_EXIT_USAGE);
	CHECK_STR(out, "rung check: --budget: expected a number, found 'x'\n");
	free(out);
}

/* Every command has a table (RUNG_COMMAND_LIST links each to rung_opts_<name>) named after it. */
static int ncommands;
static void one_command(const char *name, const char *summary, const rung_opt_table *t, void *ctx)
{
	(void)ctx;
	ncommands++;
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK_STR(t->cmd, name);
	CHECK(t->opts != NULL);
	CHECK(summary && summary[0]);
	CHECK(rung_cli_table(name) == t);
}

static void test_registry(void)
{
	rung_cli_each_command(one_command, NULL);
	CHECK(ncommands >= 17);
	/* the worker has a table too, but is internal: not visited */
	CHECK(rung_cli_table("worker") != NULL);
	CHECK_STR(rung_cli_table("worker")->cmd, "worker");
	CHECK(rung_cli_table("nosuch") == NULL);
}

int main(void)
{
	T_RUN(test_syntax);
	T_RUN(test_errors);
	T_RUN(test_numbers);
	T_RUN(test_help_and_markdown);
	T_RUN(test_check_help);
	T_RUN(test_registry);
	return t_done();
}

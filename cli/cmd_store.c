/* rung store check|rebuild [--force] [-C DIR]: the results store
 * (.git/rung/results.db) checked, or rebuilt from what can still be read
 * (vcs/store_repair.h). check exits 0 when the store is sound (or there is
 * none), 5 when it is damaged; rebuild moves the damaged file aside (nothing
 * is deleted), makes a new store from every row that still reads and says
 * what it recovered and what it could not. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "cli/cli.h"
#include "vcs/repo.h"
#include "vcs/store.h"
#include "vcs/store_repair.h"

typedef struct {
	bool force;
	const char *dir;
} store_opts;

static const rung_opt_spec store_specs[] = {
    {RUNG_OPT_BOOL(store_opts, force), .name = "force", .help = "rebuild even when the check finds no damage"},
    {RUNG_OPT_STR(store_opts, dir), .shortname = 'C', .value = "DIR",
     .help = "the repository (or a directory in it) to work in, as git -C"},
    {0}};
const rung_opt_table rung_opts_store = {.cmd = "store",
                                        .args = "check|rebuild",
                                        .min_args = 1,
                                        .max_args = 1,
                                        .opts = store_specs,
                                        .arg_choices = "check rebuild"};

/* "results 12 (3 live, 9 recorded), commits 14, meta 1, seen 2" */
static void counts(char *buf, size_t len, const rung_store_report *r)
{
	size_t o = 0;
	buf[0] = 0;
	for (int i = 0; i < r->ntables && o < len; i++) {
		const rung_store_table *t = &r->tables[i];
		o += (size_t)snprintf(buf + o, len - o, "%s%s %" PRId64, i ? ", " : "", t->name, t->rows);
		if (!strcmp(t->name, "results") && o < len)
			o += (size_t)snprintf(buf + o, len - o, " (%" PRId64 " live, %" PRId64 " recorded)", r->live,
			                      r->recorded);
	}
	if (!r->ntables)
		snprintf(buf, len, "nothing");
}

static void problems(const rung_store_report *r)
{
	for (int i = 0; i < r->nproblems; i++)
		printf("  %s\n", r->problems[i]);
	if (r->more)
		printf("  ... and %d more\n", r->more);
}

/* What was not recovered, in a line: "3 rows that did not read, 1 damaged stretch (rows in it unknown)". */
static void losses(char *buf, size_t len, const rung_store_report *r)
{
	int64_t bad = 0;
	int regions = 0, lost_tables = 0;
	for (int i = 0; i < r->ntables; i++) {
		bad += r->tables[i].bad;
		regions += r->tables[i].regions;
		lost_tables += r->tables[i].unreadable;
	}
	snprintf(buf, len,
	         "%" PRId64
	         " row(s) that did not read or parse, %d damaged stretch(es) of rows, %d table(s) not read at all",
	         bad, regions, lost_tables);
}

static int check(const char *path)
{
	rung_store_report rep;
	int e = rung_store_check(&rep, path);
	if (e == RUNG_ENOTFOUND) {
		printf("%s\n", rung_error_last());
		return RUNG_EXIT_OK;
	}
	if (e < 0) {
		fprintf(stderr, "rung store: %s\n", rung_error_last());
		rung_store_report_clear(&rep);
		return RUNG_EXIT_INTERNAL;
	}
	char c[1024];
	counts(c, sizeof(c), &rep);
	if (!rep.damaged) {
		printf("%s: ok: %s\n", path, c);
		rung_store_report_clear(&rep);
		return RUNG_EXIT_OK;
	}
	printf("%s: damaged\n", path);
	problems(&rep);
	printf("readable: %s\n", c);
	printf("`rung store rebuild` moves this file aside (kept, nothing is deleted) and makes a new store from what "
	       "can still be read\n");
	rung_store_report_clear(&rep);
	return RUNG_EXIT_INTERNAL;
}

static int rebuild(const char *path, bool force)
{
	rung_store_report rep;
	int e = rung_store_check(&rep, path);
	if (e == RUNG_ENOTFOUND) {
		printf("%s\n", rung_error_last());
		return RUNG_EXIT_OK;
	}
	bool damaged = e == 0 && rep.damaged;
	rung_store_report_clear(&rep);
	if (e == 0 && !damaged && !force) {
		printf("%s: no damage found, nothing to rebuild (--force rebuilds it anyway)\n", path);
		return RUNG_EXIT_OK;
	}
	rung_error_clear();
	e = rung_store_rebuild(&rep, path);
	if (e < 0) {
		fprintf(stderr, "rung store: %s\n", rung_error_last());
		rung_store_report_clear(&rep);
		return RUNG_EXIT_INTERNAL;
	}
	char c[1024], l[256];
	counts(c, sizeof(c), &rep);
	if (rep.resumed) {
		printf("%s: an interrupted rebuild's finished copy is now in place: %s\n", path, c);
		rung_store_report_clear(&rep);
		return RUNG_EXIT_OK;
	}
	printf("%s: moved aside to %s (kept: nothing was deleted)\n", path, rep.aside);
	printf("new store at %s, recovered: %s\n", path, c);
	if (rep.damaged) {
		losses(l, sizeof(l), &rep);
		printf("not recovered: %s\n", l);
		problems(&rep);
		printf(
		    "what was lost can be measured again (`rung eval --missing`) or imported from an export "
		    "(`rung import FILE`, from `rung export`; the demo's results are in examples/*/recorded.jsonl)\n");
	} else {
		printf("nothing was lost\n");
	}
	rung_store_report_clear(&rep);
	return RUNG_EXIT_OK;
}

int rung_cmd_store(int argc, char **argv)
{
	store_opts so = {0};
	int rc, nargs;
	if (rung_opts_parse(&rc, &rung_opts_store, &so, argc, argv, &nargs))
		return rc;
	const char *what = argv[1];
	if (strcmp(what, "check") && strcmp(what, "rebuild")) {
		fprintf(stderr, "rung store: '%s': check or rebuild\n", what);
		return rung_cli_usage("store", 1);
	}
	rung_repo *repo;
	int e = rung_repo_open(&repo, so.dir);
	if (e < 0) {
		fprintf(stderr, "rung store: %s\n", rung_error_last());
		return e == RUNG_ENOTFOUND ? RUNG_EXIT_USAGE : RUNG_EXIT_INTERNAL;
	}
	char dir[4096], path[4200];
	e = rung_store_repo_path(dir, path, repo);
	rung_repo_free(repo);
	if (e < 0) {
		fprintf(stderr, "rung store: %s\n", rung_error_last());
		return RUNG_EXIT_INTERNAL;
	}
	return !strcmp(what, "check") ? check(path) : rebuild(path, so.force);
}

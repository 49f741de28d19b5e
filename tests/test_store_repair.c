/* A damaged results store never looks like an empty one: a lookup on
 * overwritten pages or on a stored JSON that does not parse is an error naming
 * the file and `rung store check` (and is kept for rung_store_read_error);
 * rung_store_check finds the damage; rung_store_rebuild moves the file aside
 * unchanged and recovers every row that still reads; a store that cannot be
 * written opens read-only for reading. */
#include "harness.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "core/err.h"
#include "core/result.h"
#include "vcs/prof_store.h"
#include "vcs/store.h"
#include "vcs/store_repair.h"

enum { NRES = 200 };

static void make_result(rung_result *r, int i)
{
	rung_result_init(r);
	snprintf(r->key, sizeof(r->key), "%064d", i);
	snprintf(r->rev, sizeof(r->rev), "%040d", i);
	snprintf(r->label, sizeof(r->label), "version %d", i);
	r->created = 1764432000 + i;
	for (int s = 0; s < RUNG_STEP_PROFILE; s++)
		r->steps[s].status = RUNG_S_OK;
	r->bench.valid = true;
	r->bench.median = 1.0 + i;
	r->bench.n = 0;
	r->env.valid = true;
	snprintf(r->env.gpu, sizeof(r->env.gpu), "NVIDIA H200");
	snprintf(r->env.uuid, sizeof(r->env.uuid), "GPU-1234");
}

/* A store of n results, each linked to its commit, and a meta row. */
static void build(const char *path, int n)
{
	rung_store *s;
	CHECK_INT(rung_store_open(&s, path), 0);
	for (int i = 0; i < n; i++) {
		rung_result r;
		make_result(&r, i);
		char content[65];
		snprintf(content, sizeof(content), "c%063d", i);
		CHECK_INT(rung_store_put(s, &r, content, r.rev), 0);
		rung_result_clear(&r);
	}
	CHECK_INT(rung_store_meta_set(s, "last_brief", "1764432000"), 0);
	rung_store_close(s); /* the last close checkpoints the WAL into the file */
}

static int page_count(const char *path)
{
	sqlite3 *db;
	int n = -1;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(db, "PRAGMA page_count", -1, &st, NULL) == SQLITE_OK &&
		    sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return n;
}

/* Overwrites pages [first, first + n) (1-based, 4096 bytes) with noise. */
static void overwrite(const char *path, int first, int n)
{
	FILE *f = fopen(path, "r+b");
	CHECK(f != NULL);
	if (!f)
		return;
	fseek(f, (long)(first - 1) * 4096, SEEK_SET);
	uint32_t x = 2463534242u;
	for (int i = 0; i < n * 4096; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		fputc((int)(x & 0xff), f);
	}
	fclose(f);
}

static int64_t rows_of(const rung_store_report *r, const char *table)
{
	for (int i = 0; i < r->ntables; i++)
		if (!strcmp(r->tables[i].name, table))
			return r->tables[i].rows;
	return -1;
}

static void test_overwritten_pages(void)
{
	char path[512], copy[600];
	snprintf(path, sizeof(path), "%s/results.db", t_tmpdir());
	build(path, NRES);
	int pages = page_count(path);
	CHECK(pages > 40);
	rung_store_report rep;
	CHECK_INT(rung_store_check(&rep, path), 0);
	CHECK(!rep.damaged);
	CHECK_INT(rep.live, NRES);
	rung_store_report_clear(&rep);

	overwrite(path, pages / 2, 9); /* 9 pages in the middle of the results */
	snprintf(copy, sizeof(copy), "%s.before", path);
	CHECK_INT(t_sh(NULL, "cp '%s' '%s'", path, copy), 0);

	/* lookups: some fail, and say it is damage, where, and what to do */
	rung_store *s;
	CHECK_INT(rung_store_open(&s, path), 0);
	int found = 0, damaged = 0;
	for (int i = 0; i < NRES; i++) {
		rung_result r;
		char key[65];
		snprintf(key, sizeof(key), "%064d", i);
		int e = rung_store_get(&r, s, key);
		if (e == 0)
			found++;
		else if (e == RUNG_ESTORE && strstr(rung_error_last(), "the results store is damaged") &&
		         strstr(rung_error_last(), path) && strstr(rung_error_last(), "rung store check"))
			damaged++;
		else
			fprintf(stderr, "key %d: %d %s\n", i, e, rung_error_last());
		rung_result_clear(&r);
	}
	CHECK(damaged > 0);
	CHECK_INT(found + damaged, NRES);
	CHECK_INT(rung_store_read_error(s), RUNG_ESTORE); /* kept for the callers that show "no result" */
	CHECK_CONTAINS(rung_error_last(), "rung store rebuild");
	rung_store_close(s);

	CHECK_INT(rung_store_check(&rep, path), 0);
	CHECK(rep.damaged);
	CHECK(rep.nproblems > 0);
	int64_t readable = rep.live, links = rows_of(&rep, "commits");
	CHECK(readable > 0 && readable < NRES);
	CHECK(links > 0 && links <= NRES);
	bool said = false;
	for (int i = 0; i < rep.nproblems; i++)
		said |= !strncmp(rep.problems[i], "results: ", 9);
	CHECK(said);
	rung_store_report_clear(&rep);

	CHECK_INT(rung_store_rebuild(&rep, path), 0);
	CHECK_CONTAINS(rep.aside, ".damaged-");
	CHECK_INT(rep.live, readable); /* every row that reads, and only those */
	CHECK_INT(rows_of(&rep, "commits"), links);
	CHECK_INT(rows_of(&rep, "meta"), 1);
	CHECK(rep.damaged);
	char aside[4200];
	snprintf(aside, sizeof(aside), "%s", rep.aside);
	rung_store_report_clear(&rep);
	/* the damaged file is kept as it was */
	CHECK_INT(t_sh(NULL, "cmp '%s' '%s'", aside, copy), 0);

	CHECK_INT(rung_store_check(&rep, path), 0);
	CHECK(!rep.damaged);
	CHECK_INT(rep.live, readable);
	CHECK_INT(rows_of(&rep, "commits"), links);
	rung_store_report_clear(&rep);
	CHECK_INT(rung_store_open(&s, path), 0);
	int back = 0;
	for (int i = 0; i < NRES; i++) {
		rung_result r;
		char key[65];
		snprintf(key, sizeof(key), "%064d", i);
		if (rung_store_get(&r, s, key) == 0) {
			back++;
			CHECK_NEAR(r.bench.median, 1.0 + i, 1e-12);
			CHECK_STR(r.label, (snprintf(key, sizeof(key), "version %d", i), key));
		}
		rung_result_clear(&r);
	}
	rung_error_clear();
	CHECK_INT(back, readable);
	char *v = NULL;
	CHECK_INT(rung_store_meta_get(&v, s, "last_brief"), 0);
	CHECK_STR(v, "1764432000");
	free(v);
	CHECK_INT(rung_store_read_error(s), 0);
	rung_store_close(s);
}

static void test_unparsable_json(void)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/results.db", t_tmpdir());
	build(path, 3);
	rung_store *s;
	CHECK_INT(rung_store_open(&s, path), 0);
	char key1[65];
	snprintf(key1, sizeof(key1), "%064d", 1);
	char sql[256];
	snprintf(sql, sizeof(sql), "UPDATE results SET json = '{\"rung_result\": 1, broken' WHERE key = '%s'", key1);
	CHECK_INT(sqlite3_exec(rung_store_db(s), sql, NULL, NULL, NULL), SQLITE_OK);
	rung_result r;
	CHECK_INT(rung_store_get(&r, s, key1), RUNG_ESTORE);
	CHECK_CONTAINS(rung_error_last(), path);
	CHECK_CONTAINS(rung_error_last(), "does not parse");
	CHECK_CONTAINS(rung_error_last(), "rung store check");
	rung_result_clear(&r);
	char key0[65];
	snprintf(key0, sizeof(key0), "%064d", 0);
	CHECK_INT(rung_store_get(&r, s, key0), 0); /* the others still read */
	rung_result_clear(&r);
	CHECK_INT(rung_store_read_error(s), RUNG_ESTORE);
	rung_store_close(s);

	rung_store_report rep;
	CHECK_INT(rung_store_check(&rep, path), 0);
	CHECK(rep.damaged);
	CHECK_INT(rep.live, 2);
	CHECK(rep.nproblems >= 1);
	bool said = false;
	for (int i = 0; i < rep.nproblems; i++)
		said |= strstr(rep.problems[i], "does not parse") != NULL;
	CHECK(said);
	rung_store_report_clear(&rep);
	CHECK_INT(rung_store_rebuild(&rep, path), 0);
	CHECK_INT(rep.live, 2);
	rung_store_report_clear(&rep);
	CHECK_INT(rung_store_check(&rep, path), 0);
	CHECK(!rep.damaged);
	rung_store_report_clear(&rep);
}

/* A store that cannot be made (here: its directory does not exist; for the
 * workbench, a .git that cannot be written) opens empty for reading, and its
 * writes fail saying why. */
static void test_open_read(void)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/no-such-dir/results.db", t_tmpdir());
	rung_store *s;
	CHECK(rung_store_open(&s, path) < 0);
	CHECK_INT(rung_store_open_read(&s, path), 0);
	if (!s)
		return;
	CHECK(rung_store_readonly(s) != NULL);
	CHECK_INT(rung_store_count(s, -1), 0);
	rung_result r;
	CHECK_INT(rung_store_get(&r, s, "x"), RUNG_ENOTFOUND);
	rung_result_clear(&r);
	char *v = NULL;
	CHECK_INT(rung_store_get_extra(&v, s, "x", "sass"), RUNG_ENOTFOUND);
	CHECK_INT(rung_store_meta_set(s, "last_brief", "1"), RUNG_ESTORE);
	CHECK_CONTAINS(rung_error_last(), "read-only");
	CHECK_INT(rung_store_read_error(s), 0);
	rung_store_close(s);
	/* a store that can be written opens for writing */
	snprintf(path, sizeof(path), "%s/results.db", t_tmpdir());
	build(path, 1);
	CHECK_INT(rung_store_open_read(&s, path), 0);
	CHECK(rung_store_readonly(s) == NULL);
	CHECK_INT(rung_store_meta_set(s, "last_brief", "1"), 0);
	rung_store_close(s);
}

int main(void)
{
	T_RUN(test_overwritten_pages);
	T_RUN(test_unparsable_json);
	T_RUN(test_open_read);
	return t_done();
}

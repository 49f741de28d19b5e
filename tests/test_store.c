/* Results store: round trip, cache hit for the same content at another commit,
 * recorded results kept apart, and migration of a v1 database to v2. */
#include "harness.h"

#include <stdlib.h>

#include <sqlite3.h>

#include "core/err.h"
#include "core/result.h"
#include "core/sha256.h"
#include "core/version.h"
#include "vcs/store.h"

static void make_result(rung_result *r, const char *key, const char *rev, double median, double max_rel)
{
	rung_result_init(r);
	snprintf(r->key, sizeof(r->key), "%s", key);
	snprintf(r->rev, sizeof(r->rev), "%s", rev);
	snprintf(r->label, sizeof(r->label), "tile it");
	r->created = 1764432000;
	for (int i = 0; i < RUNG_STEP_PROFILE; i++)
		r->steps[i].status = RUNG_S_OK;
	r->compile.kernel.valid = true;
	r->compile.kernel.regs = 72;
	r->compile.kernel.spill_stores = 4;
	r->compile.kernel.spill_loads = 8;
	r->compile.compile_ms = 812.5;
	r->nmetrics = 2;
	r->metrics = calloc(2, sizeof(*r->metrics));
	for (int i = 0; i < 2; i++) {
		snprintf(r->metrics[i].output, sizeof(r->metrics[i].output), "C");
		r->metrics[i].max_rel = i ? max_rel : max_rel / 10;
		r->metrics[i].psnr = i ? 80.0 : 95.0;
		r->metrics[i].cossim = i ? 0.999 : 1.0;
		r->metrics[i].max_abs = r->metrics[i].mae = r->metrics[i].mse = r->metrics[i].rmse = 1e-6;
		r->metrics[i].peak = 1;
		r->metrics[i].pass = true;
	}
	r->bench.valid = true;
	r->bench.median = median;
	r->bench.n = 3;
	r->bench.samples = malloc(3 * sizeof(double));
	r->bench.samples[0] = median * 0.99;
	r->bench.samples[1] = median;
	r->bench.samples[2] = median * 1.02;
	r->bench.tflops = 12.5;
	r->env.valid = true;
	snprintf(r->env.gpu, sizeof(r->env.gpu), "NVIDIA H200");
	snprintf(r->env.uuid, sizeof(r->env.uuid), "GPU-1234");
}

static char *db_path(void)
{
	static char p[512];
	snprintf(p, sizeof(p), "%s/results.db", t_tmpdir());
	return p;
}

static double col_double(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	double v = NAN;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_type(st, 0) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void test_keys(void)
{
	rung_header h = {.name = "tile.cuh", .text = "// v1"};
	rung_key_input in = {.kernel_src = "k", .headers = &h, .nheaders = 1, .ref_src = "ref", .spec_text = "[task]",
			     .options = "-O3"};
	char a[65], b[65], k1[65], k2[65];
	rung_content_hash(a, &in);
	CHECK_INT(strlen(a), 64);
	rung_content_hash(b, &in);
	CHECK_STR(a, b); /* deterministic */
	rung_header h2 = {.name = "tile.cuh", .text = "// v2"};
	in.headers = &h2;
	rung_content_hash(b, &in);
	CHECK(strcmp(a, b) != 0); /* a header is part of the content */
	in.headers = &h;
	in.options = "-O2";
	rung_content_hash(b, &in);
	CHECK(strcmp(a, b) != 0);
	/* text moved from one part to another changes the hash */
	rung_key_input x = {.kernel_src = "ab", .ref_src = "c"}, y = {.kernel_src = "a", .ref_src = "bc"};
	rung_content_hash(a, &x);
	rung_content_hash(b, &y);
	CHECK(strcmp(a, b) != 0);
	/* hand-derived: the hash of the documented framing */
	rung_key_input z = {.kernel_src = "K"};
	rung_content_hash(a, &z);
	char framing[256];
	snprintf(framing, sizeof(framing), "rung-measurement %d\n%dkernel 1\nKreference 0\nspec 0\noptions 0\n",
		 (int)snprintf(NULL, 0, "%d", RUNG_MEASUREMENT_VERSION), RUNG_MEASUREMENT_VERSION);
	rung_sha256_hex(b, framing, strlen(framing));
	CHECK_STR(a, b);
	rung_result_key(k1, a, "GPU-1");
	rung_result_key(k2, a, "GPU-2");
	CHECK(strcmp(k1, k2) != 0); /* the device is part of the key */
}

static void test_round_trip_and_cache(void)
{
	const char *path = db_path();
	rung_store *s;
	CHECK_INT(rung_store_open(&s, path), 0);
	if (!s)
		return;
	CHECK_INT(rung_store_schema_version(s), RUNG_STORE_SCHEMA);
	rung_result r, got;
	char content[65], key[65];
	rung_key_input in = {.kernel_src = "__global__ void k(){}", .ref_src = "ref", .spec_text = "[task]"};
	rung_content_hash(content, &in);
	rung_result_key(key, content, "GPU-1234");
	make_result(&r, key, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 1.25, 3e-6);
	r.output = strdup("tid 0 \x1b[2J\n");
	r.output_bytes = 70000;
	r.output_dropped = 70000 - RUNG_OUTPUT_KEEP;
	CHECK_INT(rung_store_put(s, &r, content, r.rev), 0);

	CHECK_INT(rung_store_get(&got, s, key), 0);
	/* what the kernel printed is kept with the result */
	CHECK_STR(got.output, "tid 0 \x1b[2J\n");
	CHECK_INT(got.output_bytes, 70000);
	CHECK_INT(got.output_dropped, 70000 - RUNG_OUTPUT_KEEP);
	CHECK(got.cached);
	CHECK(!got.recorded);
	CHECK_STR(got.key, key);
	CHECK_NEAR(got.bench.median, 1.25, 0);
	CHECK_INT(got.bench.n, 3);
	if (got.bench.n == 3 && got.bench.samples)
		CHECK_NEAR(got.bench.samples[2], 1.25 * 1.02, 1e-12);
	CHECK_INT(got.nmetrics, 2);
	CHECK_INT(got.compile.kernel.regs, 72);
	CHECK_STR(got.env.gpu, "NVIDIA H200");
	rung_result_clear(&got);

	/* summary columns */
	sqlite3 *db = rung_store_db(s);
	CHECK_NEAR(col_double(db, "SELECT median_ms FROM results"), 1.25, 0);
	CHECK_NEAR(col_double(db, "SELECT max_rel FROM results"), 3e-6, 0);     /* worst of the metrics */
	CHECK_NEAR(col_double(db, "SELECT psnr FROM results"), 80.0, 0);        /* worst */
	CHECK_NEAR(col_double(db, "SELECT spills FROM results"), 12, 0);
	CHECK_NEAR(col_double(db, "SELECT compile_ms FROM results"), 812.5, 0);
	CHECK_NEAR(col_double(db, "SELECT count(*) FROM results WHERE status = 'ok'"), 1, 0);

	/* the same content at another commit: the store answers by content, and
	 * the new commit is linked to the same key */
	const char *other = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
	CHECK_INT(rung_store_get_commit(&got, s, other, false), RUNG_ENOTFOUND);
	char content2[65];
	rung_content_hash(content2, &in); /* recomputed from the other commit's identical files */
	CHECK_INT(rung_store_get_content(&got, s, content2, "GPU-1234"), 0);
	CHECK(got.cached);
	CHECK_STR(got.key, key);
	rung_result_clear(&got);
	CHECK_INT(rung_store_get_content(&got, s, content2, "GPU-other"), RUNG_ENOTFOUND);
	CHECK_INT(rung_store_link(s, other, key), 0);
	CHECK_INT(rung_store_get_commit(&got, s, other, false), 0);
	CHECK_STR(got.key, key);
	CHECK(got.cached);
	rung_result_clear(&got);
	CHECK_INT(rung_store_count(s, 0), 1);

	/* a recorded copy with the same key is kept apart */
	rung_result rec;
	make_result(&rec, key, r.rev, 0.5, 1e-7);
	rec.recorded = true;
	snprintf(rec.recorded_note, sizeof(rec.recorded_note), "recorded on NVIDIA H200, 2025-11-29");
	CHECK_INT(rung_store_put(s, &rec, content, rec.rev), 0);
	CHECK_INT(rung_store_count(s, 0), 1);
	CHECK_INT(rung_store_count(s, 1), 1);
	CHECK_INT(rung_store_get(&got, s, key), 0);
	CHECK_NEAR(got.bench.median, 1.25, 0); /* live lookups never see the recorded one */
	CHECK(!got.recorded);
	rung_result_clear(&got);
	CHECK_INT(rung_store_get_commit(&got, s, r.rev, true), 0);
	CHECK(got.recorded);
	CHECK_NEAR(got.bench.median, 0.5, 0);
	CHECK_STR(got.recorded_note, "recorded on NVIDIA H200, 2025-11-29");
	rung_result_clear(&got);

	/* meta and seen */
	char *v = NULL;
	CHECK_INT(rung_store_meta_get(&v, s, "last_brief"), RUNG_ENOTFOUND);
	CHECK_INT(rung_store_meta_set(s, "last_brief", "1764432000"), 0);
	CHECK_INT(rung_store_meta_get(&v, s, "last_brief"), 0);
	CHECK_STR(v, "1764432000");
	free(v);
	CHECK_INT(rung_store_seen(s, "x"), 0);
	CHECK_INT(rung_store_mark_seen(s, "x", 1), 0);
	CHECK_INT(rung_store_seen(s, "x"), 1);

	/* a second connection reads while the first holds a write transaction (WAL) */
	rung_store *s2;
	CHECK_INT(rung_store_open(&s2, path), 0);
	CHECK_INT(sqlite3_exec(db, "BEGIN IMMEDIATE; UPDATE results SET label = 'x'", NULL, NULL, NULL), SQLITE_OK);
	CHECK_INT(rung_store_count(s2, -1), 2);
	CHECK_INT(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	rung_store_close(s2);
	rung_result_clear(&r);
	rung_result_clear(&rec);
	rung_store_close(s);
}

static void test_migration_v1_to_v2(void)
{
	const char *path = db_path();
	rung_store *s;
	CHECK_INT(rung_store_open_schema(&s, path, 1), 0);
	if (!s)
		return;
	CHECK_INT(rung_store_schema_version(s), 1);
	/* the v1 schema has no recorded column */
	CHECK(sqlite3_exec(rung_store_db(s), "SELECT recorded FROM results", NULL, NULL, NULL) != SQLITE_OK);
	/* a v1 row, written as rung v1 did */
	rung_result r;
	make_result(&r, "k1", "cccccccccccccccccccccccccccccccccccccccc", 2.5, 1e-5);
	char *json = rung_result_to_json(&r);
	sqlite3_stmt *st;
	CHECK_INT(sqlite3_prepare_v2(rung_store_db(s),
				     "INSERT INTO results(key, content, device_uuid, rev, label, status, median_ms, max_rel,"
				     " created, json) VALUES('k1', 'c1', 'GPU-1234', ?, 'old', 'ok', 2.5, 1e-5, 5, ?)",
				     -1, &st, NULL),
		  SQLITE_OK);
	sqlite3_bind_text(st, 1, r.rev, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, json, -1, SQLITE_STATIC);
	CHECK_INT(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	CHECK_INT(sqlite3_exec(rung_store_db(s), "INSERT INTO commits VALUES('cccccccccccccccccccccccccccccccccccccccc', 'k1', 5)",
			       NULL, NULL, NULL),
		  SQLITE_OK);
	free(json);
	rung_store_close(s);

	/* opening migrates */
	CHECK_INT(rung_store_open(&s, path), 0);
	if (!s)
		return;
	CHECK_INT(rung_store_schema_version(s), 2);
	CHECK_NEAR(col_double(rung_store_db(s), "SELECT recorded FROM results WHERE key = 'k1'"), 0, 0);
	CHECK_NEAR(col_double(rung_store_db(s), "SELECT median_ms FROM results WHERE key = 'k1'"), 2.5, 0);
	rung_result got;
	CHECK_INT(rung_store_get_commit(&got, s, r.rev, false), 0);
	CHECK_NEAR(got.bench.median, 2.5, 0);
	rung_result_clear(&got);
	CHECK_INT(rung_store_get_content(&got, s, "c1", NULL), 0);
	rung_result_clear(&got);
	CHECK_INT(rung_store_mark_seen(s, "y", 1), 0); /* v2 table exists */
	/* the v2 primary key admits a recorded twin */
	r.recorded = true;
	CHECK_INT(rung_store_put(s, &r, "c1", NULL), 0);
	CHECK_INT(rung_store_count(s, -1), 2);
	rung_store_close(s);
	/* reopening an up-to-date store changes nothing */
	CHECK_INT(rung_store_open(&s, path), 0);
	CHECK_INT(rung_store_schema_version(s), 2);
	CHECK_INT(rung_store_count(s, -1), 2);
	rung_store_close(s);
	/* a store from a newer rung is refused, not clobbered */
	sqlite3 *db;
	sqlite3_open(path, &db);
	sqlite3_exec(db, "PRAGMA user_version = 9", NULL, NULL, NULL);
	sqlite3_close(db);
	CHECK_INT(rung_store_open(&s, path), RUNG_ESTORE);
	CHECK_CONTAINS(rung_error_last(), "newer");
	rung_result_clear(&r);
}

int main(void)
{
	T_RUN(test_keys);
	T_RUN(test_round_trip_and_cache);
	T_RUN(test_migration_v1_to_v2);
	return t_done();
}

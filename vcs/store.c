#include "vcs/store.h"

#include "core/spec.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <sqlite3.h>

#include "core/err.h"
#include "core/metric_table.h"
#include "core/sha256.h"
#include "core/version.h"

/* Prepared statements of the lookups, kept for the store's life: a list of
 * 10,000 versions makes four lookups per version, and parsing the SQL each
 * time cost more than running it. */
enum { NSTMT = 8 };

struct rung_store {
	sqlite3 *db;
	char *path;
	char *readonly;   /* why it is open read-only; NULL when writable */
	int last_rc;      /* SQLite's code of the last error */
	int txn;          /* depth of rung_store_begin (the outermost one is the transaction) */
	int read_err;     /* the first error a read met (0: none) ... */
	char *read_msg;   /* ... and its message */
	struct {
		const char *sql; /* a string literal of this file */
		sqlite3_stmt *st;
	} stmt[NSTMT];
};

/* The cached statement for sql (reset, bindings cleared), or a fresh one
 * when the cache is full; *owned: the caller finalizes it. */
static int prepare_cached(sqlite3_stmt **st, bool *owned, rung_store *s, const char *sql)
{
	*owned = false;
	int i;
	for (i = 0; i < NSTMT && s->stmt[i].sql; i++)
		if (s->stmt[i].sql == sql || !strcmp(s->stmt[i].sql, sql)) {
			*st = s->stmt[i].st;
			return SQLITE_OK;
		}
	int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	if (i < NSTMT) {
		s->stmt[i].sql = sql;
		s->stmt[i].st = *st;
	} else {
		*owned = true;
	}
	return SQLITE_OK;
}

static void release_cached(sqlite3_stmt *st, bool owned)
{
	if (owned) {
		sqlite3_finalize(st);
		return;
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

/* The page or record SQLite read does not hold what it should: the file is damaged. */
static bool damaged(int rc)
{
	rc &= 0xff;
	return rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB;
}

/* what: the operation, or NULL */
static int damage_error(rung_store *s, const char *what, const char *msg)
{
	return rung_error_set(RUNG_ESTORE, "%s: the results store is damaged (%s%s%s): %s", s->path, what ? what : "",
			      what ? ": " : "", msg, RUNG_STORE_DAMAGE_HINT);
}

/* Keeps the first error of a read, for rung_store_read_error (a lookup that
 * treats a failure as "no result" cannot tell it from none). */
static int remember(rung_store *s, int e)
{
	if (e < 0 && e != RUNG_ENOTFOUND && !s->read_err) {
		s->read_err = e;
		s->read_msg = strdup(rung_error_last());
	}
	return e;
}

static int error_rc(rung_store *s, int rc, const char *what, const char *msg)
{
	int e;
	s->last_rc = rc;
	if (damaged(rc))
		e = damage_error(s, what, msg);
	else if ((rc & 0xff) == SQLITE_READONLY && s->readonly)
		e = rung_error_set(RUNG_ESTORE, "%s: %s%s%s (the store is open read-only: %s)", s->path, what ? what : "",
				   what ? ": " : "", msg, s->readonly);
	else
		e = rung_error_set(RUNG_ESTORE, "%s: %s%s%s", s->path, what ? what : "", what ? ": " : "", msg);
	return damaged(rc) ? remember(s, e) : e; /* damage is the file's, whatever met it */
}

static int db_error(rung_store *s, const char *what)
{
	return error_rc(s, sqlite3_extended_errcode(s->db), what, sqlite3_errmsg(s->db));
}

/* An error of a read: kept for rung_store_read_error. */
static int read_error(rung_store *s, const char *what)
{
	return remember(s, db_error(s, what));
}

int rung_store_read_error(rung_store *s)
{
	if (!s || !s->read_err)
		return 0;
	return rung_error_set(s->read_err, "%s", s->read_msg ? s->read_msg : "results store: a read failed");
}

static int exec(rung_store *s, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int e = error_rc(s, sqlite3_extended_errcode(s->db), NULL, msg ? msg : sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		return e;
	}
	return 0;
}

int rung_store_begin(rung_store *s)
{
	if (s->txn++)
		return 0;
	int e = exec(s, "BEGIN IMMEDIATE");
	if (e < 0)
		s->txn = 0;
	return e;
}

int rung_store_end(rung_store *s, int e)
{
	if (s->txn <= 0 || --s->txn > 0)
		return e; /* an inner one: the outermost commits or rolls back */
	if (e == 0 && (e = exec(s, "COMMIT")) == 0)
		return 0;
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return e;
}

/* ---- schema -------------------------------------------------------------- */

/* v1: results keyed by content + device, commits mapped to keys, settings. */
static const char schema_v1[] =
	"CREATE TABLE results("
	" key TEXT PRIMARY KEY, content TEXT NOT NULL, device_uuid TEXT, rev TEXT, label TEXT,"
	" status TEXT, median_ms REAL, max_rel REAL, psnr REAL, cossim REAL, tflops REAL, tbps REAL,"
	" regs INTEGER, spills INTEGER, reason TEXT, created INTEGER, json TEXT NOT NULL);"
	"CREATE INDEX results_content ON results(content);"
	"CREATE TABLE commits(commit_id TEXT NOT NULL, key TEXT NOT NULL, created INTEGER,"
	" PRIMARY KEY(commit_id, key));"
	"CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT);";

/* v2: recorded (imported) results kept apart (the key is no longer unique
 * alone), compile time, GPU name and bench samples as columns, and the table of
 * items already reported by `rung brief`. */
static const char schema_v2[] =
	"CREATE TABLE results_v2("
	" key TEXT NOT NULL, recorded INTEGER NOT NULL DEFAULT 0, recorded_note TEXT,"
	" content TEXT NOT NULL, device_uuid TEXT, gpu TEXT, rev TEXT, label TEXT,"
	" status TEXT, median_ms REAL, max_rel REAL, psnr REAL, cossim REAL, tflops REAL, tbps REAL,"
	" regs INTEGER, spills INTEGER, compile_ms REAL, reason TEXT, samples TEXT, created INTEGER,"
	" json TEXT NOT NULL, PRIMARY KEY(key, recorded));"
	"INSERT INTO results_v2(key, content, device_uuid, rev, label, status, median_ms, max_rel, psnr, cossim,"
	" tflops, tbps, regs, spills, reason, created, json)"
	" SELECT key, content, device_uuid, rev, label, status, median_ms, max_rel, psnr, cossim,"
	" tflops, tbps, regs, spills, reason, created, json FROM results;"
	"DROP TABLE results;"
	"ALTER TABLE results_v2 RENAME TO results;"
	"CREATE INDEX results_content ON results(content, recorded);"
	"CREATE TABLE seen(id TEXT PRIMARY KEY, at INTEGER);";

static const char *const migrations[] = {NULL, schema_v1, schema_v2};

int rung_store_schema_version(rung_store *s)
{
	sqlite3_stmt *st;
	int v = -1;
	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	return v;
}

static int migrate(rung_store *s, int target)
{
	int e;
	if ((e = exec(s, "BEGIN IMMEDIATE")) < 0)
		return e;
	int v = rung_store_schema_version(s);
	if (v > RUNG_STORE_SCHEMA) {
		exec(s, "ROLLBACK");
		return rung_error_set(RUNG_ESTORE, "%s: schema version %d is newer than this rung (%d)", s->path, v,
				      RUNG_STORE_SCHEMA);
	}
	for (; v < target && e == 0; v++) {
		char pragma[64];
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", v + 1);
		if ((e = exec(s, migrations[v + 1])) == 0)
			e = exec(s, pragma);
	}
	if (e < 0) {
		exec(s, "ROLLBACK");
		return rung_error_set(RUNG_ESTORE, "migrating to schema %d: %s", v, rung_error_last());
	}
	return exec(s, "COMMIT");
}

static rung_store *store_new(const char *path)
{
	rung_store *s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(path))) {
		free(s);
		rung_error_set(RUNG_ENOMEM, "out of memory");
		return NULL;
	}
	return s;
}

/* *rc: SQLite's code of a failure (SQLITE_OK when it was not SQLite's). */
static int open_rw(rung_store **out, int *rc, const char *path, int version)
{
	*out = NULL;
	*rc = SQLITE_OK;
	rung_store *s = store_new(path);
	if (!s)
		return RUNG_ENOMEM;
	int e;
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL) !=
	    SQLITE_OK) {
		s->last_rc = s->db ? sqlite3_extended_errcode(s->db) : SQLITE_CANTOPEN;
		e = rung_error_set(RUNG_ESTORE, "%s: %s", path, s->db ? sqlite3_errmsg(s->db) : "cannot open");
		goto fail;
	}
	sqlite3_busy_timeout(s->db, 10000);
	/* WAL: readers never block the writer; NORMAL sync is safe against a killed
	 * process (only a power cut can lose the last commits) */
	if ((e = exec(s, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")) < 0)
		goto fail;
	if ((e = migrate(s, version)) < 0)
		goto fail;
	*out = s;
	return 0;
fail:
	*rc = s->last_rc;
	rung_store_close(s);
	return e;
}

int rung_store_open_schema(rung_store **out, const char *path, int version)
{
	int rc;
	return open_rw(out, &rc, path, version);
}

/* file:PATH?QUERY, the path %-escaped where a URI needs it. */
static void uri_of(char *buf, size_t len, const char *path, const char *query)
{
	size_t o = (size_t)snprintf(buf, len, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p && o + 4 < len; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("/._-~", *p))
			buf[o++] = (char)*p;
		else
			o += (size_t)snprintf(buf + o, len - o, "%%%02X", *p);
	}
	snprintf(buf + o, len - o, "?%s", query);
}

int rung_store_sqlite_readonly(struct sqlite3 **out, int *rc_out, const char *path)
{
	*out = NULL;
	int ignored;
	if (!rc_out)
		rc_out = &ignored;
	*rc_out = SQLITE_OK;
	struct stat sb;
	if (stat(path, &sb) != 0)
		return rung_error_set(errno == ENOENT ? RUNG_ENOTFOUND : RUNG_EIO, "%s: %s", path, strerror(errno));
	/* mode=ro reads a WAL database through its -shm file (created if it can
	 * be); where neither exists nor can be made (a directory without write
	 * permission), immutable=1 reads the file alone, with no locks */
	static const char *const modes[] = {"mode=ro", "immutable=1"};
	char uri[8400], msg[512] = "";
	int rc = SQLITE_CANTOPEN;
	for (int m = 0; m < 2; m++) {
		sqlite3 *db = NULL;
		uri_of(uri, sizeof(uri), path, modes[m]);
		rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_FULLMUTEX, NULL);
		if (rc == SQLITE_OK) {
			sqlite3_busy_timeout(db, 10000);
			sqlite3_stmt *st = NULL;
			rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL);
			if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
				rc = SQLITE_OK;
			sqlite3_finalize(st);
		}
		if (rc == SQLITE_OK) {
			*out = db;
			return 0;
		}
		rc = db ? sqlite3_extended_errcode(db) : rc;
		snprintf(msg, sizeof(msg), "%s", db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		sqlite3_close_v2(db);
		if ((rc & 0xff) != SQLITE_CANTOPEN && (rc & 0xff) != SQLITE_READONLY)
			break; /* only a -shm that cannot be made is worth the immutable open */
	}
	*rc_out = rc;
	if (damaged(rc))
		return rung_error_set(RUNG_ESTORE, "%s: the results store is damaged (%s): %s", path, msg,
				      RUNG_STORE_DAMAGE_HINT);
	return rung_error_set(RUNG_ESTORE, "%s: cannot be read: %s", path, msg);
}

/* Read-only, after an open for writing failed with `why`. */
static int open_ro(rung_store **out, const char *path, const char *why)
{
	*out = NULL;
	rung_store *s = store_new(path);
	if (!s)
		return RUNG_ENOMEM;
	int e = 0;
	if (!(s->readonly = strdup(why))) {
		e = rung_error_set(RUNG_ENOMEM, "out of memory");
		goto fail;
	}
	struct stat sb;
	if (stat(path, &sb) != 0 && errno == ENOENT) {
		/* nothing stored yet, and nowhere to store it: an empty store that
		 * refuses writes */
		if (sqlite3_open_v2(":memory:", &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK) {
			e = rung_error_set(RUNG_ESTORE, "%s: %s", path, "cannot open an empty store in memory");
			goto fail;
		}
		if ((e = migrate(s, RUNG_STORE_SCHEMA)) < 0 || (e = exec(s, "PRAGMA query_only=1")) < 0)
			goto fail;
		*out = s;
		return 0;
	}
	if ((e = rung_store_sqlite_readonly(&s->db, NULL, path)) < 0)
		goto fail;
	int v = rung_store_schema_version(s);
	if (v != RUNG_STORE_SCHEMA) {
		e = rung_error_set(RUNG_ESTORE, "%s: schema version %d, and this rung reads %d: %s", path, v,
				   RUNG_STORE_SCHEMA,
				   v < RUNG_STORE_SCHEMA ? "a store open read-only cannot be migrated" : "a newer rung wrote it");
		goto fail;
	}
	*out = s;
	return 0;
fail:
	rung_store_close(s);
	return e;
}

/* Failures of an open for writing that reading may get past. */
static bool cannot_write(int rc)
{
	rc &= 0xff;
	return rc == SQLITE_READONLY || rc == SQLITE_CANTOPEN || rc == SQLITE_PERM || rc == SQLITE_AUTH;
}

int rung_store_open_read(rung_store **out, const char *path)
{
	int rc;
	int e = open_rw(out, &rc, path, RUNG_STORE_SCHEMA);
	if (e == 0 || !cannot_write(rc))
		return e;
	char why[600];
	snprintf(why, sizeof(why), "%s", rung_error_last());
	/* "PATH: attempt to write a readonly database": the reason without the path */
	const char *w = !strncmp(why, path, strlen(path)) && why[strlen(path)] == ':' ? why + strlen(path) + 2 : why;
	return open_ro(out, path, w);
}

int rung_store_open(rung_store **out, const char *path)
{
	return rung_store_open_schema(out, path, RUNG_STORE_SCHEMA);
}

/* A link where the store lives: refused (docs/CLI.md, "A link in .git/rung"). */
static int refuse_link(const char *p)
{
	struct stat sb;
	if (lstat(p, &sb) != 0 || !S_ISLNK(sb.st_mode))
		return 0;
	return rung_error_set(RUNG_ESTORE,
			      "%s: a symbolic link: rung keeps its results store in the repository's own .git/rung and never "
			      "follows a link there (remove the link, or move what it points to in its place)",
			      p);
}

int rung_store_repo_path(char dir[4096], char path[4200], rung_repo *r)
{
	snprintf(dir, 4096, "%srung", rung_repo_gitdir(r));
	snprintf(path, 4200, "%s/results.db", dir);
	int e = refuse_link(dir);
	static const char *const sides[] = {"", "-wal", "-shm", "-journal"};
	for (size_t i = 0; e == 0 && i < sizeof(sides) / sizeof(sides[0]); i++) {
		char p[4300];
		snprintf(p, sizeof(p), "%s%s", path, sides[i]);
		e = refuse_link(p);
	}
	return e;
}

int rung_store_open_repo(rung_store **out, rung_repo *r)
{
	*out = NULL;
	char dir[4096], path[4200];
	int e = rung_store_repo_path(dir, path, r);
	if (e < 0)
		return e;
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		return rung_error_set(RUNG_EIO, "%s: %s", dir, strerror(errno));
	return rung_store_open(out, path);
}

int rung_store_open_repo_read(rung_store **out, rung_repo *r)
{
	*out = NULL;
	char dir[4096], path[4200];
	int e = rung_store_repo_path(dir, path, r);
	if (e < 0)
		return e;
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		if (errno != EACCES && errno != EPERM && errno != EROFS)
			return rung_error_set(RUNG_EIO, "%s: %s", dir, strerror(errno));
		char why[4400];
		snprintf(why, sizeof(why), "%s cannot be created: %s", dir, strerror(errno));
		return open_ro(out, path, why);
	}
	return rung_store_open_read(out, path);
}

void rung_store_close(rung_store *s)
{
	if (!s)
		return;
	for (int i = 0; i < NSTMT; i++)
		sqlite3_finalize(s->stmt[i].st);
	sqlite3_close_v2(s->db);
	free(s->path);
	free(s->readonly);
	free(s->read_msg);
	free(s);
}

const char *rung_store_readonly(const rung_store *s) { return s->readonly; }

int rung_store_has_table(rung_store *s, const char *name)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", -1, &st, NULL) !=
	    SQLITE_OK)
		return read_error(s, "schema");
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st);
	int r = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : read_error(s, "schema");
	sqlite3_finalize(st);
	return r;
}

struct sqlite3 *rung_store_db(rung_store *s) { return s->db; }
const char *rung_store_path(const rung_store *s) { return s->path; }

/* ---- keys ---------------------------------------------------------------- */

/* Each part is length-prefixed so that moving text between parts changes the hash. */
static void part(rung_sha256_ctx *c, const char *tag, const char *text)
{
	char hdr[96];
	size_t n = text ? strlen(text) : 0;
	int l = snprintf(hdr, sizeof(hdr), "%s %zu\n", tag, n);
	rung_sha256_update(c, hdr, (size_t)l);
	if (n)
		rung_sha256_update(c, text, n);
}

void rung_content_hash(char out[65], const rung_key_input *in)
{
	rung_sha256_ctx c;
	rung_sha256_init(&c);
	char v[32];
	snprintf(v, sizeof(v), "%d", RUNG_MEASUREMENT_VERSION);
	part(&c, "rung-measurement", v);
	if (in->kernel_src && in->kernel_len && memchr(in->kernel_src, 0, in->kernel_len)) {
		char hdr[96];
		int l = snprintf(hdr, sizeof(hdr), "kernel-bytes %zu\n", in->kernel_len);
		rung_sha256_update(&c, hdr, (size_t)l);
		rung_sha256_update(&c, in->kernel_src, in->kernel_len);
	} else {
		part(&c, "kernel", in->kernel_src);
	}
	for (int i = 0; i < in->nheaders; i++) {
		part(&c, "header", in->headers[i].name);
		part(&c, "text", in->headers[i].text);
	}
	part(&c, "reference", in->ref_src);
	for (int i = 0; i < in->nref_headers; i++) {
		part(&c, "ref-header", in->ref_headers[i].name);
		part(&c, "text", in->ref_headers[i].text);
	}
	/* a [goal] says when to stop, not what is measured: it is no part of the key */
	char *spec = in->spec_text ? rung_spec_text_without_goal(in->spec_text) : NULL;
	part(&c, "spec", spec ? spec : in->spec_text);
	free(spec);
	part(&c, "options", in->options);
	if (in->sidecar) {
		char hdr[96];
		int l = snprintf(hdr, sizeof(hdr), "sidecar %zu\n", in->sidecar_len);
		rung_sha256_update(&c, hdr, (size_t)l);
		rung_sha256_update(&c, in->sidecar, in->sidecar_len);
	}
	if (in->entry)
		part(&c, "entry", in->entry);
	rung_sha256_final_hex(&c, out);
}

void rung_result_key(char out[65], const char *content, const char *device_uuid)
{
	rung_sha256_ctx c;
	rung_sha256_init(&c);
	part(&c, "content", content);
	part(&c, "device", device_uuid);
	rung_sha256_final_hex(&c, out);
}

/* ---- writing ------------------------------------------------------------- */

static void bind_num(sqlite3_stmt *st, int i, double v, bool valid)
{
	if (valid && !isnan(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static char *samples_json(const rung_bench *b)
{
	if (!b->valid || b->n <= 0 || !b->samples)
		return NULL;
	size_t cap = (size_t)b->n * 26 + 4, o = 0;
	char *t = malloc(cap);
	if (!t)
		return NULL;
	t[o++] = '[';
	for (int i = 0; i < b->n; i++)
		o += (size_t)snprintf(t + o, cap - o, "%s%.9g", i ? "," : "", b->samples[i]);
	t[o++] = ']';
	t[o] = 0;
	return t;
}

static int insert_result(rung_store *s, const rung_result *r, const char *content, const char *json)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO results(key, recorded, recorded_note, content, device_uuid, gpu, rev, label,"
		" status, median_ms, max_rel, psnr, cossim, tflops, tbps, regs, spills, compile_ms, reason, samples,"
		" created, json) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_error(s, "prepare insert");
	/* the worst values, as rung check and rung log take them (core/metric_table.h) */
	double max_rel = rung_metric_worst(r, RUNG_METRIC_MAX_REL), psnr = rung_metric_worst(r, RUNG_METRIC_PSNR),
	       cossim = rung_metric_worst(r, RUNG_METRIC_COSSIM);
	char *samples = samples_json(&r->bench);
	int i = 1;
	sqlite3_bind_text(st, i++, r->key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, i++, r->recorded ? 1 : 0);
	if (r->recorded)
		sqlite3_bind_text(st, i++, r->recorded_note, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i++);
	sqlite3_bind_text(st, i++, content ? content : "", -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, i++, r->env.valid ? r->env.uuid : "", -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, i++, r->env.valid ? r->env.gpu : "", -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, i++, r->rev, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, i++, r->label, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, i++, rung_status_name(rung_result_status(r)), -1, SQLITE_TRANSIENT);
	bind_num(st, i++, r->bench.median, r->bench.valid);
	bind_num(st, i++, max_rel, true);
	bind_num(st, i++, psnr, true);
	bind_num(st, i++, cossim, true);
	bind_num(st, i++, r->bench.tflops, r->bench.valid);
	bind_num(st, i++, r->bench.tbps, r->bench.valid);
	if (r->compile.kernel.valid) {
		sqlite3_bind_int(st, i++, r->compile.kernel.regs);
		sqlite3_bind_int64(st, i++, r->compile.kernel.spill_stores + r->compile.kernel.spill_loads);
	} else {
		sqlite3_bind_null(st, i++);
		sqlite3_bind_null(st, i++);
	}
	bind_num(st, i++, r->compile.compile_ms, r->steps[RUNG_STEP_COMPILE].status != RUNG_S_NONE);
	sqlite3_bind_text(st, i++, rung_result_reason(r), -1, SQLITE_TRANSIENT);
	if (samples)
		sqlite3_bind_text(st, i++, samples, -1, free);
	else
		sqlite3_bind_null(st, i++);
	sqlite3_bind_int64(st, i++, r->created ? r->created : (int64_t)time(NULL));
	sqlite3_bind_text(st, i++, json, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error(s, "insert result");
}

static int link_commit(rung_store *s, const char *commit, const char *key)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO commits(commit_id, key, created) VALUES(?,?,?)", -1, &st,
			       NULL) != SQLITE_OK)
		return db_error(s, "prepare link");
	sqlite3_bind_text(st, 1, commit, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, (int64_t)time(NULL));
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error(s, "link commit");
}

int rung_store_put(rung_store *s, const rung_result *r, const char *content, const char *commit)
{
	if (!r->key[0])
		return rung_error_set(RUNG_EINVAL, "store: result without a key");
	char *json = rung_result_to_json(r);
	if (!json)
		return rung_error_set(RUNG_ENOMEM, "store: cannot serialise result: %s", rung_error_last());
	int e = rung_store_begin(s);
	if (e < 0) {
		free(json);
		return e;
	}
	e = insert_result(s, r, content, json);
	if (e == 0 && commit && commit[0] && strcmp(commit, "WORKTREE"))
		e = link_commit(s, commit, r->key);
	free(json);
	return rung_store_end(s, e);
}

int rung_store_link(rung_store *s, const char *commit, const char *key)
{
	return link_commit(s, commit, key);
}

/* ---- reading ------------------------------------------------------------- */

/* A stored result's JSON that does not parse: the store is damaged (rung
 * writes only JSON it made); revcol: the column with its version. */
static int parse_error(rung_store *s, sqlite3_stmt *st, int revcol)
{
	char what[200];
	const char *rev = (const char *)sqlite3_column_text(st, revcol);
	snprintf(what, sizeof(what), "the stored result of %.12s does not parse", rev && rev[0] ? rev : "a version");
	char msg[400];
	snprintf(msg, sizeof(msg), "%s", rung_error_last());
	return remember(s, damage_error(s, what, msg));
}

static int row_to_result(rung_result *out, rung_store *s, sqlite3_stmt *st)
{
	/* columns: json, recorded, recorded_note, rev */
	const char *json = (const char *)sqlite3_column_text(st, 0);
	if (rung_result_from_json(out, json ? json : "") < 0)
		return parse_error(s, st, 3);
	out->cached = true;
	out->recorded = sqlite3_column_int(st, 1) != 0;
	const char *note = (const char *)sqlite3_column_text(st, 2);
	if (out->recorded && note)
		snprintf(out->recorded_note, sizeof(out->recorded_note), "%s", note);
	return 0;
}

static int get_one(rung_result *out, rung_store *s, const char *sql, const char *a, const char *b)
{
	rung_result_init(out);
	sqlite3_stmt *st;
	bool owned;
	if (prepare_cached(&st, &owned, s, sql) != SQLITE_OK)
		return read_error(s, "prepare query");
	sqlite3_bind_text(st, 1, a, -1, SQLITE_TRANSIENT);
	if (b)
		sqlite3_bind_text(st, 2, b, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st), e;
	if (rc == SQLITE_ROW)
		e = row_to_result(out, s, st);
	else if (rc == SQLITE_DONE)
		e = rung_error_set(RUNG_ENOTFOUND, "%.12s: no stored result", a);
	else
		e = read_error(s, "query");
	release_cached(st, owned);
	return e;
}

int rung_store_get(rung_result *out, rung_store *s, const char *key)
{
	return get_one(out, s, "SELECT json, recorded, recorded_note, rev FROM results WHERE key = ? AND recorded = 0",
		       key, NULL);
}

int rung_store_get_content(rung_result *out, rung_store *s, const char *content, const char *device_uuid)
{
	if (device_uuid)
		return get_one(out, s,
			       "SELECT json, recorded, recorded_note, rev FROM results WHERE content = ? AND recorded = 0"
			       " AND device_uuid = ? ORDER BY created DESC, rowid DESC LIMIT 1",
			       content, device_uuid);
	return get_one(out, s,
		       "SELECT json, recorded, recorded_note, rev FROM results WHERE content = ? AND recorded = 0"
		       " ORDER BY created DESC, rowid DESC LIMIT 1",
		       content, NULL);
}

int rung_store_get_commit(rung_result *out, rung_store *s, const char *commit, bool recorded)
{
	return get_one(out, s,
		       recorded ? "SELECT r.json, r.recorded, r.recorded_note, r.rev FROM commits c JOIN results r"
				  " ON r.key = c.key WHERE c.commit_id = ? AND r.recorded = 1"
				  " ORDER BY r.created DESC, r.rowid DESC LIMIT 1"
				: "SELECT r.json, r.recorded, r.recorded_note, r.rev FROM commits c JOIN results r"
				  " ON r.key = c.key WHERE c.commit_id = ? AND r.recorded = 0"
				  " ORDER BY r.created DESC, r.rowid DESC LIMIT 1",
		       commit, NULL);
}

int rung_store_get_recorded_content(rung_result *out, rung_store *s, const char *content)
{
	static const char sql[] = "SELECT json, recorded_note, rev FROM results WHERE content = ? AND recorded = 1"
				  " ORDER BY created DESC, rowid DESC LIMIT 1";
	rung_result_init(out);
	sqlite3_stmt *st;
	bool owned;
	if (prepare_cached(&st, &owned, s, sql) != SQLITE_OK)
		return read_error(s, "prepare query");
	sqlite3_bind_text(st, 1, content, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st), e;
	if (rc == SQLITE_ROW) {
		/* as stored (cached included), marked recorded with its note */
		const char *json = (const char *)sqlite3_column_text(st, 0);
		const char *note = (const char *)sqlite3_column_text(st, 1);
		e = rung_result_from_json(out, json ? json : "");
		if (e < 0) {
			e = parse_error(s, st, 2);
		} else {
			out->recorded = true;
			snprintf(out->recorded_note, sizeof(out->recorded_note), "%s", note ? note : "");
		}
	} else if (rc == SQLITE_DONE) {
		e = rung_error_set(RUNG_ENOTFOUND, "%.12s: no recorded result", content);
	} else {
		e = read_error(s, "query");
	}
	release_cached(st, owned);
	return e;
}

int rung_store_foreach(rung_store *s, int recorded, rung_store_fn cb, void *ud)
{
	sqlite3_stmt *st;
	const char *sql = recorded < 0
				  ? "SELECT json, recorded, recorded_note, rev, content FROM results ORDER BY created, rowid"
				  : "SELECT json, recorded, recorded_note, rev, content FROM results WHERE recorded = ?"
				    " ORDER BY created, rowid";
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return read_error(s, "prepare list");
	if (recorded >= 0)
		sqlite3_bind_int(st, 1, recorded);
	int rc, e = 0;
	while (e == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		rung_result r;
		rung_result_init(&r);
		if ((e = row_to_result(&r, s, st)) == 0)
			e = cb(ud, &r, (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 4));
		rung_result_clear(&r);
	}
	if (e == 0 && rc != SQLITE_DONE)
		e = read_error(s, "list");
	sqlite3_finalize(st);
	return e;
}

int64_t rung_store_count(rung_store *s, int recorded)
{
	sqlite3_stmt *st;
	int64_t n = -1;
	const char *sql = recorded < 0 ? "SELECT count(*) FROM results" : "SELECT count(*) FROM results WHERE recorded = ?";
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return read_error(s, "count");
	if (recorded >= 0)
		sqlite3_bind_int(st, 1, recorded);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	else
		n = read_error(s, "count");
	sqlite3_finalize(st);
	return n;
}

int rung_store_meta_get(char **out, rung_store *s, const char *name)
{
	*out = NULL;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "SELECT value FROM meta WHERE name = ?", -1, &st, NULL) != SQLITE_OK)
		return read_error(s, "meta");
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	int e = RUNG_ENOTFOUND, rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);
		*out = strdup(v ? v : "");
		e = *out ? 0 : RUNG_ENOMEM;
	} else if (rc != SQLITE_DONE) {
		e = read_error(s, "meta");
	}
	sqlite3_finalize(st);
	return e;
}

int rung_store_meta_set(rung_store *s, const char *name, const char *value)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO meta(name, value) VALUES(?, ?)", -1, &st, NULL) !=
	    SQLITE_OK)
		return db_error(s, "meta");
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, value, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error(s, "meta set");
}

int rung_store_seen(rung_store *s, const char *id)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM seen WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
		return read_error(s, "seen");
	sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st);
	int r = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : read_error(s, "seen");
	sqlite3_finalize(st);
	return r;
}

int rung_store_mark_seen(rung_store *s, const char *id, int64_t when)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "INSERT OR IGNORE INTO seen(id, at) VALUES(?, ?)", -1, &st, NULL) != SQLITE_OK)
		return db_error(s, "seen");
	sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, when);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error(s, "mark seen");
}

int rung_store_commits_of(char ***out, int *n, rung_store *s, const char *key)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "SELECT commit_id FROM commits WHERE key = ? ORDER BY created, commit_id", -1, &st,
			       NULL) != SQLITE_OK)
		return read_error(s, "commits");
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	char **v = NULL;
	int cnt = 0, e = 0, rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char **nv = realloc(v, (size_t)(cnt + 1) * sizeof(*v));
		if (!nv || !(nv[cnt] = strdup((const char *)sqlite3_column_text(st, 0)))) {
			v = nv ? nv : v;
			e = rung_error_set(RUNG_ENOMEM, "out of memory");
			break;
		}
		v = nv;
		cnt++;
	}
	if (e == 0 && rc != SQLITE_ROW && rc != SQLITE_DONE)
		e = read_error(s, "commits");
	sqlite3_finalize(st);
	if (e < 0) {
		rung_strv_free(v, cnt);
		return e;
	}
	*out = v;
	*n = cnt;
	return 0;
}

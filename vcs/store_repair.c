#include "vcs/store_repair.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "core/err.h"
#include "core/result.h"
#include "vcs/store.h"

enum { MAX_PROBLEMS = 100, MAX_PASSES = 100000 };

void rung_store_report_clear(rung_store_report *r)
{
	for (int i = 0; i < r->nproblems; i++)
		free(r->problems[i]);
	free(r->problems);
	free(r->tables);
	memset(r, 0, sizeof(*r));
}

__attribute__((format(printf, 2, 3))) static void problem(rung_store_report *r, const char *fmt, ...)
{
	r->damaged = true;
	if (r->nproblems >= MAX_PROBLEMS) {
		r->more++;
		return;
	}
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	char **np = realloc(r->problems, (size_t)(r->nproblems + 1) * sizeof(*np));
	if (!np || !(np[r->nproblems] = strdup(buf))) {
		if (np)
			r->problems = np;
		r->more++;
		return;
	}
	r->problems = np;
	r->nproblems++;
}

static rung_store_table *add_table(rung_store_report *r, const char *name)
{
	rung_store_table *t = realloc(r->tables, (size_t)(r->ntables + 1) * sizeof(*t));
	if (!t)
		return NULL;
	r->tables = t;
	t = &t[r->ntables++];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	return t;
}

/* "name" with embedded quotes doubled (caller frees). */
static char *quoted(const char *name)
{
	char *q = malloc(2 * strlen(name) + 3), *o = q;
	if (!q)
		return NULL;
	*o++ = '"';
	for (const char *p = name; *p; p++) {
		if (*p == '"')
			*o++ = '"';
		*o++ = *p;
	}
	*o++ = '"';
	*o = 0;
	return q;
}

/* ---- scanning past damage ------------------------------------------------ */

typedef struct scan scan;
typedef int (*row_fn)(scan *sc, sqlite3_stmt *st); /* 0, or < 0: stop (the new store failed) */

struct scan {
	sqlite3 *db;     /* the store read (read-only) */
	rung_store *dst; /* rebuild: the new store; NULL for a check */
	rung_store_report *rep;
	rung_store_table *t;
	const char *table, *qt; /* its name, quoted */
	sqlite3_stmt *ins;      /* rebuild of a plain table: the insert */
	int ncols;              /* its columns */
};

/* The first rowid >= from: 0 and *next, 1 when there is none, -1 when the
 * table cannot be read there. */
static int probe(scan *sc, int64_t from, int64_t *next)
{
	char sql[512];
	snprintf(sql, sizeof(sql), "SELECT rowid FROM %s WHERE rowid >= ?1 ORDER BY rowid LIMIT 1", sc->qt);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(sc->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, from);
	int rc = sqlite3_step(st), r = -1;
	if (rc == SQLITE_ROW) {
		*next = sqlite3_column_int64(st, 0);
		r = 0;
	} else if (rc == SQLITE_DONE) {
		r = 1;
	}
	sqlite3_finalize(st);
	return r;
}

/* From `from` on the table's pages do not read: the smallest from + d from
 * which rows can be reached again (d doubled until one works, then halved back
 * to the boundary). -1 when none can. */
static int skip_damage(scan *sc, int64_t from, int64_t *next)
{
	int64_t bad = 0, good = -1, dummy;
	for (int k = 0; k < 63; k++) {
		int64_t d = (int64_t)1 << k;
		if (from > INT64_MAX - d)
			break;
		if (probe(sc, from + d, &dummy) >= 0) {
			good = d;
			break;
		}
		bad = d;
	}
	if (good < 0)
		return -1;
	while (good - bad > 1) {
		int64_t mid = bad + (good - bad) / 2;
		if (probe(sc, from + mid, &dummy) >= 0)
			good = mid;
		else
			bad = mid;
	}
	*next = from + good;
	return 0;
}

/* Every row of the table that can be read, in rowid order, to fn (column 0
 * is the rowid, then the table's columns). */
static int scan_table(scan *sc, row_fn fn)
{
	char sql[512];
	snprintf(sql, sizeof(sql), "SELECT rowid, * FROM %s WHERE rowid >= ?1 ORDER BY rowid", sc->qt);
	int64_t lo = INT64_MIN;
	int e = 0;
	for (int pass = 0; pass < MAX_PASSES && e == 0; pass++) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(sc->db, sql, -1, &st, NULL) != SQLITE_OK) {
			sc->t->unreadable = true;
			problem(sc->rep, "%s: cannot be read (%s)", sc->table, sqlite3_errmsg(sc->db));
			return 0;
		}
		sqlite3_bind_int64(st, 1, lo);
		bool any = false;
		int64_t last = 0;
		int rc;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			last = sqlite3_column_int64(st, 0);
			any = true;
			if ((e = fn(sc, st)) < 0)
				break;
		}
		char msg[256];
		snprintf(msg, sizeof(msg), "%s", sqlite3_errmsg(sc->db));
		sqlite3_finalize(st);
		if (e < 0 || rc == SQLITE_DONE || (any && last == INT64_MAX))
			break;
		/* the row after `last` did not read: that row alone, or a stretch of pages? */
		int64_t from = any ? last + 1 : lo < 0 ? 0 : lo, next;
		int p = probe(sc, from, &next);
		if (p == 0) { /* reachable: its own payload did not read */
			sc->t->bad++;
			problem(sc->rep, "%s: row %lld cannot be read (%s)", sc->table, (long long)next, msg);
			if (next == INT64_MAX)
				break;
			lo = next + 1;
			continue;
		}
		if (p == 1 || skip_damage(sc, from, &next) < 0) {
			if (!any && lo == INT64_MIN) {
				sc->t->unreadable = true;
				problem(sc->rep, "%s: cannot be read (%s)", sc->table, msg);
			} else {
				sc->t->regions++;
				problem(sc->rep, "%s: nothing from row %lld on can be read (%s)", sc->table,
				        (long long)from, msg);
			}
			break;
		}
		sc->t->regions++;
		if (!any && lo == INT64_MIN)
			problem(sc->rep, "%s: the rows before row %lld cannot be read (%s)", sc->table, (long long)next,
			        msg);
		else
			problem(sc->rep, "%s: rows %lld to %lld cannot be read (%s)", sc->table, (long long)from,
			        (long long)next - 1, msg);
		lo = next;
	}
	return e;
}

/* ---- what each row is ---------------------------------------------------- */

static int column(sqlite3_stmt *st, const char *name)
{
	for (int i = 1; i < sqlite3_column_count(st); i++)
		if (!strcmp(sqlite3_column_name(st, i), name))
			return i;
	return -1;
}

static const char *text_at(sqlite3_stmt *st, int col)
{
	return col < 0 ? NULL : (const char *)sqlite3_column_text(st, col);
}

/* A result: its JSON must parse; a rebuild stores it again (its columns made
 * from the JSON, as rung_store_put does for every result). */
static int result_row(scan *sc, sqlite3_stmt *st)
{
	int cj = column(st, "json"), crec = column(st, "recorded");
	const char *json = text_at(st, cj), *rev = text_at(st, column(st, "rev"));
	const char *key = text_at(st, column(st, "key")), *note = text_at(st, column(st, "recorded_note"));
	const char *content = text_at(st, column(st, "content"));
	bool recorded = crec >= 0 && sqlite3_column_int(st, crec) != 0;
	rung_result r;
	rung_result_init(&r);
	if (rung_result_from_json(&r, json ? json : "") < 0) {
		sc->t->bad++;
		problem(sc->rep, "%s: the stored result of %.12s (row %lld, %s) does not parse: %s", sc->table,
		        rev && rev[0] ? rev : "a version", (long long)sqlite3_column_int64(st, 0),
		        recorded ? "recorded" : "live", rung_error_last());
		rung_error_clear();
		rung_result_clear(&r);
		return 0;
	}
	int e = 0;
	if (sc->dst) {
		r.recorded = recorded;
		r.cached = false;
		if (recorded)
			snprintf(r.recorded_note, sizeof(r.recorded_note), "%s", note ? note : "");
		if (!r.key[0] && key)
			snprintf(r.key, sizeof(r.key), "%s", key);
		if ((e = rung_store_put(sc->dst, &r, content ? content : "", NULL)) < 0 && e != RUNG_EINVAL)
			e = rung_error_set(e, "copying a result into the new store: %s", rung_error_last());
		if (e == RUNG_EINVAL) { /* no key: cannot be stored again */
			sc->t->bad++;
			problem(sc->rep, "%s: the stored result of %.12s (row %lld) has no key", sc->table,
			        rev && rev[0] ? rev : "a version", (long long)sqlite3_column_int64(st, 0));
			rung_error_clear();
			e = 0;
			rung_result_clear(&r);
			return 0;
		}
	}
	if (e == 0) {
		sc->t->rows++;
		if (recorded)
			sc->rep->recorded++;
		else
			sc->rep->live++;
	}
	rung_result_clear(&r);
	return e;
}

/* Any other table: counted, and copied as it is. */
static int plain_row(scan *sc, sqlite3_stmt *st)
{
	if (sc->ins) {
		for (int i = 0; i < sc->ncols; i++)
			sqlite3_bind_value(sc->ins, i + 1, sqlite3_column_value(st, i + 1));
		int rc = sqlite3_step(sc->ins);
		sqlite3_reset(sc->ins);
		sqlite3_clear_bindings(sc->ins);
		if (rc != SQLITE_DONE)
			return rung_error_set(RUNG_ESTORE, "copying %s into the new store: %s", sc->table,
			                      sqlite3_errmsg(rung_store_db(sc->dst)));
	}
	sc->t->rows++;
	return 0;
}

/* Profile side data (vcs/prof_store.h): its JSON must parse, as every reader
 * parses it; one that does not is damage, named, and not copied. */
static int extra_row(scan *sc, sqlite3_stmt *st)
{
	const char *json = text_at(st, column(st, "json"));
	json_error_t err;
	json_t *j = json ? json_loads(json, 0, &err) : NULL;
	if (!j) {
		const char *key = text_at(st, column(st, "key")), *kind = text_at(st, column(st, "kind"));
		sc->t->bad++;
		problem(sc->rep, "%s: the stored %s data of %.12s (row %lld) does not parse: %s", sc->table,
		        kind ? kind : "profile", key ? key : "a result", (long long)sqlite3_column_int64(st, 0),
		        json ? err.text : "no JSON");
		return 0;
	}
	json_decref(j);
	return plain_row(sc, st);
}

/* The insert of a plain table's rows into the new store, with the columns of
 * the table read (created there first, from its schema, where the new store
 * lacks it: a table made on first use). */
static int prepare_copy(scan *sc, const char *create_sql)
{
	sqlite3 *dst = rung_store_db(sc->dst);
	int has = rung_store_has_table(sc->dst, sc->table);
	if (has < 0)
		return has;
	if (!has) {
		if (!create_sql || strncmp(create_sql, "CREATE TABLE", 12))
			return rung_error_set(RUNG_ESTORE, "%s: no schema to create it from", sc->table);
		if (sqlite3_exec(dst, create_sql, NULL, NULL, NULL) != SQLITE_OK)
			return rung_error_set(RUNG_ESTORE, "%s: cannot be created in the new store: %s", sc->table,
			                      sqlite3_errmsg(dst));
	}
	char sql[512];
	snprintf(sql, sizeof(sql), "SELECT * FROM %s LIMIT 0", sc->qt);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(sc->db, sql, -1, &st, NULL) != SQLITE_OK)
		return rung_error_set(RUNG_ESTORE, "%s: %s", sc->table, sqlite3_errmsg(sc->db));
	sc->ncols = sqlite3_column_count(st);
	size_t cap = 64 + strlen(sc->qt);
	for (int i = 0; i < sc->ncols; i++)
		cap += 2 * strlen(sqlite3_column_name(st, i)) + 8;
	char *ins = malloc(cap);
	int e = 0;
	if (!ins) {
		sqlite3_finalize(st);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	size_t o = (size_t)snprintf(ins, cap, "INSERT OR IGNORE INTO %s(", sc->qt);
	for (int i = 0; i < sc->ncols; i++) {
		char *q = quoted(sqlite3_column_name(st, i));
		if (!q) {
			e = rung_error_set(RUNG_ENOMEM, "out of memory");
			break;
		}
		o += (size_t)snprintf(ins + o, cap - o, "%s%s", i ? "," : "", q);
		free(q);
	}
	sqlite3_finalize(st);
	o += (size_t)snprintf(ins + o, cap - o, ") VALUES(");
	for (int i = 0; i < sc->ncols && o + 3 < cap; i++)
		o += (size_t)snprintf(ins + o, cap - o, "%s?", i ? "," : "");
	snprintf(ins + o, cap - o, ")");
	if (e == 0 && sqlite3_prepare_v2(dst, ins, -1, &sc->ins, NULL) != SQLITE_OK)
		e = rung_error_set(RUNG_ESTORE, "%s: its columns do not fit the new store: %s", sc->table,
		                   sqlite3_errmsg(dst));
	free(ins);
	return e;
}

/* ---- check and rebuild --------------------------------------------------- */

/* Every table of db into rep (and, with dst, into the new store). */
static int scan_all(rung_store_report *rep, sqlite3 *db, rung_store *dst)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db,
	                       "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
	                       " ORDER BY name = 'results' DESC, name",
	                       -1, &st, NULL) != SQLITE_OK) {
		problem(rep, "its list of tables cannot be read (%s)", sqlite3_errmsg(db));
		return 0;
	}
	int rc, e = 0;
	while (e == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *create = (const char *)sqlite3_column_text(st, 1);
		char *qt = name ? quoted(name) : NULL;
		scan sc = {.db = db, .dst = dst, .rep = rep, .table = name, .qt = qt};
		if (!qt || !(sc.t = add_table(rep, name))) {
			free(qt);
			e = rung_error_set(RUNG_ENOMEM, "out of memory");
			break;
		}
		if (strlen(qt) > 200) { /* not one of rung's (the SQL of the scan has room for 200) */
			problem(rep, "a table with a name of %zu characters: not read", strlen(name));
			sc.t->unreadable = true;
			free(qt);
			continue;
		}
		bool results = !strcmp(name, "results");
		if (dst && !results && (e = prepare_copy(&sc, create)) < 0) {
			/* not copied: said, and the others go on */
			problem(rep, "%s: not copied (%s)", name, rung_error_last());
			sc.t->unreadable = true;
			rung_error_clear();
			e = 0;
		} else {
			sqlite3 *d = dst ? rung_store_db(dst) : NULL;
			/* (inside a rebuild's own transaction this BEGIN fails and the rows join that one) */
			bool txn = d && !results && sqlite3_exec(d, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK;
			e = scan_table(&sc, results ? result_row : !strcmp(name, "profile_extra") ? extra_row : plain_row);
			if (txn && sqlite3_exec(d, e == 0 ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL) != SQLITE_OK &&
			    e == 0)
				e = rung_error_set(RUNG_ESTORE, "%s: %s", name, sqlite3_errmsg(d));
		}
		sqlite3_finalize(sc.ins);
		free(qt);
	}
	if (e == 0 && rc != SQLITE_DONE)
		problem(rep, "its list of tables cannot be read to the end (%s)", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return e;
}

/* SQLite's integrity check: its first lines as problems, the rest counted. */
static void integrity(rung_store_report *rep, sqlite3 *db)
{
	enum { SHOWN = 5 };
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "PRAGMA integrity_check(100)", -1, &st, NULL) != SQLITE_OK) {
		problem(rep, "SQLite's integrity check cannot run (%s)", sqlite3_errmsg(db));
		return;
	}
	int rc, n = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(st, 0);
		if (!text || !strcmp(text, "ok"))
			continue;
		/* a row may hold several lines */
		for (const char *p = text; *p;) {
			size_t len = strcspn(p, "\n");
			if (len && strncmp(p, "*** in database", 15) && n++ < SHOWN)
				problem(rep, "integrity check: %.*s", (int)len, p);
			p += len;
			if (*p)
				p++;
		}
	}
	if (n > SHOWN)
		problem(rep, "integrity check: %d more line(s) like these", n - SHOWN);
	if (rc != SQLITE_DONE && !n)
		problem(rep, "SQLite's integrity check stopped (%s)", sqlite3_errmsg(db));
	sqlite3_finalize(st);
}

/* Opens path read-only for a check or a salvage: 0 and *db; 0 and *db NULL
 * when the file is there but not readable as a database (said in rep); < 0
 * when it cannot be opened at all (missing, no permission). */
static int open_damaged(sqlite3 **db, rung_store_report *rep, const char *path)
{
	int rc;
	int e = rung_store_sqlite_readonly(db, &rc, path);
	if (e == RUNG_ENOTFOUND)
		return rung_error_set(RUNG_ENOTFOUND, "%s: no results store (nothing has been stored yet)", path);
	if (e < 0 && ((rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB)) {
		problem(rep, "the file cannot be read as a database (%s)", sqlite3_errstr(rc));
		rung_error_clear();
		return 0;
	}
	return e;
}


/* The files of a store: the database and its journal. */
static const char *const sides[] = {"", "-wal", "-shm", "-journal"};
enum { NSIDES = sizeof(sides) / sizeof(sides[0]) };

/* PATH and a suffix (".rebuilding"), and a side ("-wal") */
static void name_of(char *buf, size_t len, const char *path, const char *suffix, int side)
{
	snprintf(buf, len, "%s%s%s", path, suffix, sides[side]);
}

/* Removes base and its sides (a stale partial copy). */
static void remove_store_files(const char *base)
{
	for (int i = 0; i < NSIDES; i++) {
		char p[4400];
		name_of(p, sizeof(p), base, "", i);
		unlink(p);
	}
}

/* What an interrupted rebuild left beside the store at path, as problems: a
 * partial copy (the store itself untouched) or a finished one not yet in
 * place. True when there is one. */
static bool leftovers(rung_store_report *rep, const char *path)
{
	char p[4400];
	struct stat sb;
	bool any = false;
	name_of(p, sizeof(p), path, ".rebuilding", 0);
	if (lstat(p, &sb) == 0) {
		problem(rep, "a rebuild was interrupted while it copied: %s holds part of a copy (this store is as it was "
		        "before it); `rung store rebuild` starts it again", p);
		any = true;
	}
	name_of(p, sizeof(p), path, ".rebuilt", 0);
	if (lstat(p, &sb) == 0) {
		problem(rep, "a rebuild was interrupted before it put its copy in place: %s is the rebuilt store; "
		        "`rung store rebuild` puts it in place", p);
		any = true;
	}
	return any;
}

int rung_store_check(rung_store_report *out, const char *path)
{
	memset(out, 0, sizeof(*out));
	sqlite3 *db = NULL;
	int e = open_damaged(&db, out, path);
	if (e < 0 || !db)
		return e;
	leftovers(out, path);
	integrity(out, db);
	e = scan_all(out, db, NULL);
	sqlite3_close_v2(db);
	return e;
}

/* The last step: the store's old journal (kept in the aside files) is
 * removed, so that it is never applied to the new file, and PATH.rebuilt
 * replaces PATH in one rename: a reader sees the old store or the new one,
 * never none. */
static int put_in_place(const char *path, const char *built)
{
	for (int i = 1; i < NSIDES; i++) {
		char p[4400];
		name_of(p, sizeof(p), path, "", i);
		if (unlink(p) != 0 && errno != ENOENT)
			return rung_error_set(RUNG_EIO, "%s: cannot be removed: %s (the rebuilt store waits at %s)", p,
			                      strerror(errno), built);
	}
	if (rename(built, path) != 0)
		return rung_error_set(RUNG_EIO, "%s: cannot be put in place of %s: %s", built, path, strerror(errno));
	return 0;
}

/* Keeps the store's files under the aside name: hard links, so that the
 * store stays where it is, unchanged, until the rebuilt one replaces it. */
static int keep_aside(rung_store_report *out, const char *path)
{
	struct stat sb;
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	char stamp[32];
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	/* PATH.damaged-YYYYMMDD-HHMMSS, -N added until the name is free */
	for (int n = 0; n < 1000; n++) {
		if (n)
			snprintf(out->aside, sizeof(out->aside), "%s.damaged-%s-%d", path, stamp, n);
		else
			snprintf(out->aside, sizeof(out->aside), "%s.damaged-%s", path, stamp);
		if (lstat(out->aside, &sb) != 0 && errno == ENOENT)
			break;
	}
	for (int i = 0; i < NSIDES; i++) {
		char from[4400], to[4400];
		name_of(from, sizeof(from), path, "", i);
		name_of(to, sizeof(to), out->aside, "", i);
		if (lstat(from, &sb) != 0 && errno == ENOENT && i)
			continue;
		if (link(from, to) != 0) {
			int err = errno;
			for (int k = i - 1; k >= 0; k--) {
				name_of(to, sizeof(to), out->aside, "", k);
				unlink(to);
			}
			out->aside[0] = 0;
			return rung_error_set(RUNG_EIO, "%s: a copy cannot be kept as %s.damaged-*: %s (nothing was changed)",
			                      from, path, strerror(err));
		}
	}
	return 0;
}

int rung_store_rebuild(rung_store_report *out, const char *path)
{
	memset(out, 0, sizeof(*out));
	struct stat sb;
	if (stat(path, &sb) != 0)
		return rung_error_set(errno == ENOENT ? RUNG_ENOTFOUND : RUNG_EIO, "%s: %s", path,
		                      errno == ENOENT ? "no results store (nothing to rebuild)" : strerror(errno));
	char building[4400], built[4400];
	name_of(building, sizeof(building), path, ".rebuilding", 0);
	name_of(built, sizeof(built), path, ".rebuilt", 0);
	if (lstat(built, &sb) == 0) { /* the last run finished its copy: put it in place */
		int e = put_in_place(path, built);
		if (e == 0)
			e = rung_store_check(out, path);
		if (e == 0)
			out->resumed = true;
		return e;
	}
	remove_store_files(building); /* a partial copy of an interrupted run */
	int e = keep_aside(out, path);
	if (e < 0)
		return e;
	/* the copy is made beside the store and renamed over it when whole, so a
	 * rebuild that is killed leaves the store as it was */
	rung_store *dst = NULL;
	if ((e = rung_store_open(&dst, building)) < 0)
		return rung_error_set(e, "%s: the new store cannot be made: %s (nothing was changed)", building,
		                      rung_error_last());
	sqlite3 *db = NULL;
	if ((e = open_damaged(&db, out, path)) < 0) {
		problem(out, "nothing could be read (%s)", rung_error_last());
		rung_error_clear();
		e = 0;
	}
	if (db) { /* the copy in one transaction: it is renamed in whole or not at all anyway */
		if ((e = rung_store_begin(dst)) == 0)
			e = rung_store_end(dst, scan_all(out, db, dst));
		sqlite3_close_v2(db);
	}
	/* one self-contained file: its journal folded in before the rename */
	if (e == 0 && sqlite3_exec(rung_store_db(dst), "PRAGMA journal_mode=DELETE", NULL, NULL, NULL) != SQLITE_OK)
		e = rung_error_set(RUNG_ESTORE, "%s: %s", building, sqlite3_errmsg(rung_store_db(dst)));
	rung_store_close(dst);
	if (e == 0 && rename(building, built) != 0)
		e = rung_error_set(RUNG_EIO, "%s: cannot be renamed to %s: %s", building, built, strerror(errno));
	if (e < 0) { /* the store is as it was: no copy of it is needed */
		remove_store_files(building);
		remove_store_files(out->aside);
		out->aside[0] = 0;
		return e;
	}
	return put_in_place(path, built);
}

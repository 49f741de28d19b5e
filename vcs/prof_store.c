#include "vcs/prof_store.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "core/err.h"

static int ensure_table(sqlite3 *db)
{
	char *err = NULL;
	int rc = sqlite3_exec(db,
			      "CREATE TABLE IF NOT EXISTS profile_extra ("
			      " key TEXT NOT NULL, kind TEXT NOT NULL, json TEXT NOT NULL, created INTEGER NOT NULL,"
			      " PRIMARY KEY (key, kind))",
			      NULL, NULL, &err);
	if (rc != SQLITE_OK) {
		rc = rung_error_set(RUNG_ESTORE, "store: cannot create the profile_extra table: %s", err ? err : "?");
		sqlite3_free(err);
		return rc;
	}
	return 0;
}

int rung_store_put_extra(rung_store *s, const char *key, const char *kind, const char *json, int64_t when)
{
	if (!key || !key[0] || !kind || !json)
		return rung_error_set(RUNG_EINVAL, "store: profile data needs a key, a kind and JSON");
	sqlite3 *db = rung_store_db(s);
	int rc = ensure_table(db);
	if (rc)
		return rc;
	sqlite3_stmt *st = NULL;
	rc = sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO profile_extra (key, kind, json, created) VALUES (?, ?, ?, ?)",
				-1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, kind, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, json, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 4, when);
		rc = sqlite3_step(st);
	}
	int ret = rc == SQLITE_DONE ? 0
				    : rung_error_set(RUNG_ESTORE, "store: cannot save %s data: %s", kind, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return ret;
}

int rung_extra_portable(const char *kind)
{
#define PORTABLE(k) if (!strcmp(kind, k)) return 1;
	RUNG_EXTRA_PORTABLE_LIST(PORTABLE)
#undef PORTABLE
	return 0;
}

int rung_store_get_extra(char **out, rung_store *s, const char *key, const char *kind)
{
	*out = NULL;
	sqlite3 *db = rung_store_db(s);
	int rc = rung_store_readonly(s) ? rung_store_has_table(s, "profile_extra") : ensure_table(db);
	if (rc == 0 && rung_store_readonly(s)) /* never made, and it cannot be now */
		return rung_error_set(RUNG_ENOTFOUND, "store: no %s data for %.12s", kind, key);
	if (rc < 0)
		return rc;
	sqlite3_stmt *st = NULL;
	rc = sqlite3_prepare_v2(db, "SELECT json FROM profile_extra WHERE key = ? AND kind = ?", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rung_error_set(RUNG_ESTORE, "store: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	int ret = 0;
	if (rc == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		*out = strdup(t ? t : "{}");
		if (!*out)
			ret = rung_error_set(RUNG_ENOMEM, "out of memory");
	} else if (rc == SQLITE_DONE) {
		ret = rung_error_set(RUNG_ENOTFOUND, "store: no %s data for %.12s", kind, key);
	} else {
		ret = rung_error_set(RUNG_ESTORE, "store: %s", sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);
	return ret;
}

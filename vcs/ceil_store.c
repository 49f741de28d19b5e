#include "vcs/ceil_store.h"

#include <stdlib.h>

#include <sqlite3.h>

#include "core/ceilings_json.h"
#include "core/err.h"

static int ensure_table(sqlite3 *db)
{
	char *err = NULL;
	int rc = sqlite3_exec(db,
			      "CREATE TABLE IF NOT EXISTS ceilings ("
			      " uuid TEXT NOT NULL, sm_clock_mhz INTEGER NOT NULL, mem_clock_mhz INTEGER NOT NULL,"
			      " gpu TEXT, json TEXT NOT NULL, created INTEGER NOT NULL,"
			      " PRIMARY KEY (uuid, sm_clock_mhz, mem_clock_mhz))",
			      NULL, NULL, &err);
	if (rc != SQLITE_OK) {
		rc = rung_error_set(RUNG_ESTORE, "store: cannot create the ceilings table: %s", err ? err : "?");
		sqlite3_free(err);
		return rc;
	}
	return 0;
}

int rung_store_put_ceilings(rung_store *s, const rung_env *env, const rung_ceilings *c, int64_t when)
{
	sqlite3 *db = rung_store_db(s);
	if (!env || !env->uuid[0])
		return rung_error_set(RUNG_EINVAL, "store: ceilings need a device UUID");
	int rc = ensure_table(db);
	if (rc)
		return rc;
	char *js = rung_ceilings_to_json(c);
	if (!js)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	sqlite3_stmt *st = NULL;
	rc = sqlite3_prepare_v2(db,
				"INSERT OR REPLACE INTO ceilings (uuid, sm_clock_mhz, mem_clock_mhz, gpu, json, created)"
				" VALUES (?, ?, ?, ?, ?, ?)",
				-1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, env->uuid, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(st, 2, env->sm_clock_mhz);
		sqlite3_bind_int(st, 3, env->mem_clock_mhz);
		sqlite3_bind_text(st, 4, env->gpu, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 5, js, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 6, when);
		rc = sqlite3_step(st);
	}
	free(js);
	int ret = rc == SQLITE_DONE ? 0 : rung_error_set(RUNG_ESTORE, "store: cannot save ceilings: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return ret;
}

int rung_store_get_ceilings(rung_ceilings *out, int64_t *when, rung_store *s, const rung_env *env)
{
	rung_ceilings_init(out);
	if (when)
		*when = 0;
	sqlite3 *db = rung_store_db(s);
	if (!env || !env->uuid[0])
		return rung_error_set(RUNG_ENOTFOUND, "store: no device UUID");
	int rc = rung_store_readonly(s) ? rung_store_has_table(s, "ceilings") : ensure_table(db);
	if (rc == 0 && rung_store_readonly(s)) /* never made, and it cannot be now */
		return rung_error_set(RUNG_ENOTFOUND, "store: no ceilings measured");
	if (rc < 0)
		return rc;
	sqlite3_stmt *st = NULL;
	rc = sqlite3_prepare_v2(db,
				"SELECT json, created FROM ceilings WHERE uuid = ? AND sm_clock_mhz = ? AND mem_clock_mhz = ?",
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		return rung_error_set(RUNG_ESTORE, "store: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, env->uuid, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 2, env->sm_clock_mhz);
	sqlite3_bind_int(st, 3, env->mem_clock_mhz);
	rc = sqlite3_step(st);
	int ret;
	if (rc == SQLITE_ROW) {
		ret = rung_ceilings_from_json(out, (const char *)sqlite3_column_text(st, 0));
		if (when)
			*when = sqlite3_column_int64(st, 1);
	} else if (rc == SQLITE_DONE) {
		ret = rung_error_set(RUNG_ENOTFOUND, "store: no ceilings measured for %s at %d/%d MHz", env->uuid,
				     env->sm_clock_mhz, env->mem_clock_mhz);
	} else {
		ret = rung_error_set(RUNG_ESTORE, "store: %s", sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);
	return ret;
}

const rung_ceilings *rung_store_guard_ceilings(rung_ceilings *buf, rung_store *s, const rung_env *env)
{
	rung_ceilings_init(buf);
	if (!s || !env || !env->valid || !env->uuid[0])
		return NULL;
	if (rung_store_get_ceilings(buf, NULL, s, env) < 0) {
		rung_error_clear();
		rung_ceilings_init(buf);
		return NULL;
	}
	return buf;
}

/* The results store: SQLite at <gitdir>/rung/results.db, WAL mode (readers and
 * one writer at once), busy timeout, schema versioned with PRAGMA user_version
 * and migrated forward on open.
 *
 * A result is keyed by content: content = sha256 of kernel source + included
 * headers, reference source + headers, spec text, compile options and
 * RUNG_MEASUREMENT_VERSION; key = sha256(content, device UUID). A commit maps to
 * keys, so the same content at another commit reuses the stored result (a cache
 * hit: rung_result.cached = true). Recorded (imported) results are kept apart
 * (recorded = 1) and never returned by the live lookups. */
#ifndef RUNG_VCS_STORE_H
#define RUNG_VCS_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/result.h"
#include "core/source.h"
#include "vcs/repo.h"

#define RUNG_STORE_SCHEMA 2

/* What a message about a damaged store tells the person to do. */
#define RUNG_STORE_DAMAGE_HINT \
	"`rung store check` says what is damaged, `rung store rebuild` recovers what can still be read"

struct sqlite3;
typedef struct rung_store rung_store;

/* Opens (creating) the store at path and migrates it to RUNG_STORE_SCHEMA. */
int rung_store_open(rung_store **out, const char *path);
/* <gitdir>/rung/results.db (the directory is created). A symbolic link as
 * .git/rung or as results.db (or its -wal, -shm, -journal) is refused,
 * RUNG_ESTORE naming it: rung never keeps or reads its store where a link
 * points (docs/CLI.md). */
int rung_store_open_repo(rung_store **out, rung_repo *r);
/* The store's directory and path in a repository, with the links refused as
 * above: 0, or RUNG_ESTORE. */
int rung_store_repo_path(char dir[4096], char path[4200], rung_repo *r);
/* Opens and migrates only up to `version` (tests of the migrations). */
int rung_store_open_schema(rung_store **out, const char *path, int version);
/* For commands that only read (log, brief, the workbench, export): as
 * rung_store_open(_repo) where the store can be written, else read-only (a
 * .git/rung or results.db without write permission, a read-only mount), a WAL
 * database without its -shm read as immutable; a store that does not exist
 * and cannot be created opens empty. Reads work; a write fails naming the
 * reason (rung_store_readonly). */
int rung_store_open_read(rung_store **out, const char *path);
int rung_store_open_repo_read(rung_store **out, rung_repo *r);
/* NULL when the store can be written, else why it is open read-only. */
const char *rung_store_readonly(const rung_store *s);
/* A plain SQLite handle on path, read-only (mode=ro, else immutable=1), never
 * writing to the file: for rung store check and rebuild. RUNG_ENOTFOUND when
 * it does not exist; *rc (may be NULL) gets SQLite's code of a failure. */
int rung_store_sqlite_readonly(struct sqlite3 **out, int *rc, const char *path);
void rung_store_close(rung_store *s);
int rung_store_schema_version(rung_store *s);
struct sqlite3 *rung_store_db(rung_store *s);
const char *rung_store_path(const rung_store *s);

/* What a result's content key is made of. NULL strings count as empty. */
typedef struct {
	const char *kernel_src;
	size_t kernel_len; /* bytes of kernel_src; 0: strlen. A kernel with a NUL byte inside
	                    * (a committed .cubin) is hashed whole; text hashes as before */
	const rung_header *headers; int nheaders;
	const char *ref_src;
	const rung_header *ref_headers; int nref_headers;
	const char *spec_text;
	const char *options;
	/* A PTX or CUBIN kernel's sidecar (it sets the launch) and the entry of a
	 * version whose own rung.ini names another kernel than the spec's: hashed
	 * only when given, so other keys stay as they were. */
	const char *sidecar; size_t sidecar_len;
	const char *entry;
} rung_key_input;

/* 64 hex digits: the content hash (device-independent). */
void rung_content_hash(char out[65], const rung_key_input *in);
/* 64 hex digits: the result key, content hash + device UUID. */
void rung_result_key(char out[65], const char *content, const char *device_uuid);

/* Several writes as one transaction: rung_store_begin, the writes (each of
 * rung_store_put's own transactions then joins this one), and
 * rung_store_end(s, e), which commits when e is 0 and rolls everything back
 * otherwise; it returns e, or the commit's error. They nest: only the
 * outermost pair commits. */
int rung_store_begin(rung_store *s);
int rung_store_end(rung_store *s, int e);

/* Stores r (r->key must be set; content is its content hash) as live or, when
 * r->recorded, recorded; replaces an earlier result with the same key and kind.
 * Links commit -> key when commit is not NULL (not for "WORKTREE"). One
 * transaction. */
int rung_store_put(rung_store *s, const rung_result *r, const char *content, const char *commit);
/* Links a commit to an existing key (the same content at another commit). */
int rung_store_link(rung_store *s, const char *commit, const char *key);

/* Commits linked to a key (caller frees with rung_strv_free). */
int rung_store_commits_of(char ***out, int *n, rung_store *s, const char *key);

/* Live result by key; out->cached = true. RUNG_ENOTFOUND if none. */
int rung_store_get(rung_result *out, rung_store *s, const char *key);
/* Newest live result with this content (device_uuid NULL: any device). */
int rung_store_get_content(rung_result *out, rung_store *s, const char *content, const char *device_uuid);
/* Newest result linked to commit, live (recorded = false) or recorded. */
int rung_store_get_commit(rung_result *out, rung_store *s, const char *commit, bool recorded);

/* Newest recorded result with this content, as stored (out->recorded set,
 * out->recorded_note from the store). RUNG_ENOTFOUND if none. */
int rung_store_get_recorded_content(rung_result *out, rung_store *s, const char *content);

/* Every result of one kind (recorded: 0 live, 1 recorded, -1 both), oldest
 * first, with its stored JSON line. A non-zero return from cb stops and is
 * returned. */
typedef int (*rung_store_fn)(void *ud, const rung_result *r, const char *json, const char *content);
int rung_store_foreach(rung_store *s, int recorded, rung_store_fn cb, void *ud);
int64_t rung_store_count(rung_store *s, int recorded); /* < 0: an error */

/* Every error of a read is returned, and the first is also kept here: a
 * lookup that shows a failure as "no result" checks this once afterwards,
 * so that a damaged store (a page that does not read, a stored result that
 * does not parse: "PATH: the results store is damaged (...): `rung store
 * check` ...") never looks like an empty one. Returns that error with its
 * message set again, or 0. */
int rung_store_read_error(rung_store *s);
/* 1 when the store has the table, 0 when not (a table made on first write
 * that a read-only store never got). */
int rung_store_has_table(rung_store *s, const char *name);

/* Small key/value settings (e.g. "last_brief"). get: RUNG_ENOTFOUND if unset. */
int rung_store_meta_get(char **out, rung_store *s, const char *name);
int rung_store_meta_set(rung_store *s, const char *name, const char *value);
/* Items already reported (by id, e.g. a hash of a note line): 1 seen, 0 not. */
int rung_store_seen(rung_store *s, const char *id);
int rung_store_mark_seen(rung_store *s, const char *id, int64_t when);

#endif

/* Checking and rebuilding a damaged results store (rung store check, rung
 * store rebuild).
 *
 * A check reads the file without ever writing to it: SQLite's integrity
 * check, then every row of every table, in rowid order, each stored result's
 * JSON parsed. A page that does not read stops a plain scan, so the scan
 * steps past it: a row that cannot be read is counted and skipped; where the
 * table's pages themselves are damaged, the scan finds the next row that can
 * be reached again (doubling, then halving, the distance in rowids) and goes
 * on from there.
 *
 * A rebuild keeps the damaged file under another name (with its -wal and
 * -shm: nothing is deleted), makes a new store beside it (PATH.rebuilding)
 * from every row that can still be read (results through rung_store_put,
 * their columns made again from the JSON; every other table row by row),
 * renames the finished copy to PATH.rebuilt and then over PATH. It is all or
 * nothing: killed while it copies, the store is as it was and a check names
 * the partial copy; killed after the copy, the next rebuild puts it in place. */
#ifndef RUNG_VCS_STORE_REPAIR_H
#define RUNG_VCS_STORE_REPAIR_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
	char name[64];
	int64_t rows;    /* rows read (check) or copied into the new store (rebuild) */
	int64_t bad;     /* rows that could not be read, or results whose JSON does not parse */
	int regions;     /* damaged stretches stepped over (how many rows they held is unknown) */
	bool unreadable; /* nothing of it could be read */
} rung_store_table;

typedef struct {
	bool damaged;    /* anything found wrong */
	char **problems; /* one sentence each, in the order met */
	int nproblems;
	int more; /* problems beyond the ones kept */
	rung_store_table *tables;
	int ntables;
	int64_t live, recorded; /* results that read and parse, by kind */
	char aside[4200];       /* rebuild: where the damaged file went */
	bool resumed;           /* rebuild: an interrupted rebuild's finished copy was put in place (counts: of it) */
} rung_store_report;

/* Checks the store at path. RUNG_ENOTFOUND when there is none; 0 with
 * out->damaged telling the outcome (a file that is not a database at all is
 * damaged too, and so is a store beside which an interrupted rebuild left
 * PATH.rebuilding or PATH.rebuilt). */
int rung_store_check(rung_store_report *out, const char *path);

/* Keeps the store at path as PATH.damaged-YYYYMMDD-HHMMSS (out->aside) and
 * replaces it with a new one made from what can still be read (out: what was
 * copied, what was not). When an interrupted rebuild left PATH.rebuilt, that
 * is put in place instead (out->resumed, out the check of it). RUNG_ENOTFOUND
 * when there is none. Run it while no other rung has the store open: a writer
 * that has it open keeps writing to the file kept aside. */
int rung_store_rebuild(rung_store_report *out, const char *path);

void rung_store_report_clear(rung_store_report *r);

#endif

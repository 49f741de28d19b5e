/* Durability: a child writes results in a burst (one transaction each) and
 * reports each commit on a pipe; it is SIGKILLed mid-burst. The database must
 * pass integrity_check and hold every result reported committed. */
#include "harness.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "core/result.h"
#include "vcs/store.h"

static void fill(rung_result *r, int i)
{
	rung_result_init(r);
	snprintf(r->key, sizeof(r->key), "key-%06d", i);
	snprintf(r->rev, sizeof(r->rev), "%040d", i);
	snprintf(r->label, sizeof(r->label), "burst %d", i);
	r->steps[RUNG_STEP_COMPILE].status = RUNG_S_OK;
	r->bench.valid = true;
	r->bench.median = 1.0 + i;
	r->bench.n = 64;
	r->bench.samples = malloc(64 * sizeof(double));
	for (int k = 0; k < 64; k++)
		r->bench.samples[k] = 1.0 + i + k * 1e-3;
}

static void child(const char *path, int fd, int start)
{
	rung_store *s;
	if (rung_store_open(&s, path) < 0)
		_exit(3);
	for (int i = start;; i++) {
		rung_result r;
		fill(&r, i);
		int e = rung_store_put(s, &r, "content", r.rev);
		rung_result_clear(&r);
		if (e < 0)
			_exit(4);
		int n = i + 1; /* results committed so far */
		if (write(fd, &n, sizeof(n)) != (ssize_t)sizeof(n))
			_exit(5);
	}
}

static int count_present(sqlite3 *db, int n)
{
	sqlite3_stmt *st;
	int present = 0;
	sqlite3_prepare_v2(db, "SELECT count(*) FROM results WHERE key = ? AND median_ms = ?", -1, &st, NULL);
	for (int i = 0; i < n; i++) {
		char key[32];
		snprintf(key, sizeof(key), "key-%06d", i);
		sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_double(st, 2, 1.0 + i);
		if (sqlite3_step(st) == SQLITE_ROW)
			present += sqlite3_column_int(st, 0);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return present;
}

static void test_kill_mid_burst(void)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/results.db", t_tmpdir());
	int committed = 0;
	srand((unsigned)time(NULL));
	for (int round = 0; round < 3; round++) {
		int p[2];
		CHECK_INT(pipe(p), 0);
		pid_t pid = fork();
		if (pid == 0) {
			close(p[0]);
			child(path, p[1], committed);
		}
		close(p[1]);
		int n, target = committed + 40 + rand() % 60;
		while (committed < target && read(p[0], &n, sizeof(n)) == (ssize_t)sizeof(n))
			committed = n;
		/* let it get into its next transactions, then kill it at an arbitrary point */
		usleep((useconds_t)(rand() % 3000));
		kill(pid, SIGKILL);
		int st;
		waitpid(pid, &st, 0);
		CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
		while (read(p[0], &n, sizeof(n)) == (ssize_t)sizeof(n))
			committed = n; /* reports written before the kill */
		close(p[0]);

		sqlite3 *db;
		CHECK_INT(sqlite3_open(path, &db), SQLITE_OK);
		sqlite3_stmt *q;
		CHECK_INT(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &q, NULL), SQLITE_OK);
		CHECK_INT(sqlite3_step(q), SQLITE_ROW);
		CHECK_STR((const char *)sqlite3_column_text(q, 0), "ok");
		sqlite3_finalize(q);
		CHECK_INT(count_present(db, committed), committed);
		sqlite3_close(db);
		printf("round %d: %d results reported committed, all present\n", round, committed);
	}
	CHECK(committed >= 120);
	/* the store opens normally afterwards */
	rung_store *s;
	CHECK_INT(rung_store_open(&s, path), 0);
	CHECK(rung_store_count(s, 0) >= committed);
	rung_store_close(s);
}

int main(void)
{
	T_RUN(test_kill_mid_burst);
	return t_done();
}

/* The workbench's first list on a long history: the first screenful is read
 * before the first frame, the rest arrives from a background thread as
 * RUNG_EV_ROWS_MORE, with the same rows, results (live by content, live by
 * commit, recorded) and notes as a full read (rung_vctx_rows). */
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/err.h"
#include "harness.h"
#include "app/demo.h"
#include "tui/model/model.h"
#include "app/session.h"

#define NCOMMITS 260

/* A repository of NCOMMITS commits holding the sgemm task at its root, every
 * commit changing sgemm.cu by one comment line ("sgemm: try I"). */
static const char *make_repo(void)
{
	static char dir[4096];
	snprintf(dir, sizeof(dir), "%s/long", t_tmpdir());
	char *out = NULL;
	int rc = t_sh(&out,
		      "set -e; git init -q -b main '%s'; T='%s/tasks/sgemm';"
		      "awk -v n=%d -v ini=\"$T/rung.ini\" -v ref=\"$T/reference.cu\" -v ker=\"$T/sgemm.cu\" '"
		      "function slurp(f,   s, l) { s = \"\"; while ((getline l < f) > 0) s = s l \"\\n\"; close(f); return s }"
		      "BEGIN { I = slurp(ini); F = slurp(ref); K = slurp(ker);"
		      " for (i = 1; i <= n; i++) { ts = 1764432000 + i * 60;"
		      "  printf \"commit refs/heads/main\\nauthor Ada <ada@example.com> %%d +0000\\n\", ts;"
		      "  printf \"committer Ada <ada@example.com> %%d +0000\\ndata <<EOM\\nsgemm: try %%d\\nEOM\\n\", ts, i;"
		      "  if (i == 1) { printf \"M 100644 inline rung.ini\\ndata <<EOD\\n%%sEOD\\n\", I;"
		      "   printf \"M 100644 inline reference.cu\\ndata <<EOD\\n%%sEOD\\n\", F }"
		      "  printf \"M 100644 inline sgemm.cu\\ndata <<EOD\\n// try %%d\\n%%sEOD\\n\\n\", i, K } }'"
		      " | git -C '%s' fast-import --quiet; git -C '%s' checkout -q -f main 2>&1",
		      dir, RUNG_TEST_DIR, NCOMMITS, dir, dir);
	if (rc != 0)
		fprintf(stderr, "make_repo: %s\n", out ? out : "");
	free(out);
	return rc == 0 ? dir : NULL;
}

static int find_subject(const rung_vrow *rows, int n, const char *subject)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(rows[i].v.subject, subject))
			return i;
	return -1;
}

/* A stored result for a version (live or recorded) with the given content. */
static void put(rung_store *s, const char *commit, const char *content, double median, bool recorded)
{
	rung_result *r = rung_model_fake_result(commit, median, 1e-7, true, 7);
	rung_result_key(r->key, content, recorded ? "GPU-recorded" : "GPU-here");
	r->recorded = recorded;
	if (recorded)
		snprintf(r->recorded_note, sizeof(r->recorded_note), "recorded on H200");
	CHECK_INT(rung_store_put(s, r, content, commit), 0);
	rung_result_clear(r);
	free(r);
}

/* Applies events until the list is complete (10 s at most). */
static void wait_loaded(rung_model *m)
{
	time_t t0 = time(NULL);
	while (m->loading && time(NULL) - t0 < 10) {
		struct pollfd p = {rung_model_event_fd(m), POLLIN, 0};
		if (poll(&p, 1, 100) > 0)
			rung_model_apply_events(m);
	}
}

static void test_git_incremental(void)
{
	const char *dir = make_repo();
	CHECK(dir != NULL);
	if (!dir)
		return;
	/* results: live by content (try 5), live by commit only (try 7, content of
	 * another spec), recorded by content (try 3), and a note (try 2) */
	rung_vctx c;
	rung_vctx_opts o = {.dir = dir};
	CHECK_INT(rung_vctx_open(&c, "test", &o, RUNG_VCTX_TASK | RUNG_VCTX_STORE), 0);
	rung_vrow *vr = NULL;
	int nv = 0;
	CHECK_INT(rung_vctx_rows(&vr, &nv, &c, NULL, 0), 0);
	CHECK_INT(nv, NCOMMITS);
	int i5 = find_subject(vr, nv, "sgemm: try 5"), i7 = find_subject(vr, nv, "sgemm: try 7");
	int i3 = find_subject(vr, nv, "sgemm: try 3"), i2 = find_subject(vr, nv, "sgemm: try 2");
	int i9 = find_subject(vr, nv, "sgemm: try 9");
	CHECK(i5 > 200 && i7 > 200 && i3 > 200 && i2 > 200 && i9 > 200);
	if (i5 < 0 || i7 < 0 || i3 < 0 || i2 < 0 || i9 < 0)
		return;
	put(c.store, vr[i5].v.id, vr[i5].content, 2.5, false);
	/* try 9's files, measured as another commit: reused by content */
	put(c.store, "2222222222222222222222222222222222222222", vr[i9].content, 5.5, false);
	put(c.store, vr[i7].v.id, "0000000000000000000000000000000000000000000000000000000000000007", 3.5, false);
	put(c.store, "1111111111111111111111111111111111111111", vr[i3].content, 4.5, true);
	CHECK_INT(rung_note_add(c.repo, vr[i2].v.id, RUNG_NOTE_REJECT, "too slow", 0), 0);
	/* what a full read says now */
	rung_vrows_free(vr, nv);
	CHECK_INT(rung_vctx_rows(&vr, &nv, &c, NULL, 0), 0);
	rung_result *rec3 = rung_recorded_lookup(&c, &vr[i3].v, vr[i3].content);
	CHECK(rec3 != NULL);
	CHECK(vr[i5].result && !vr[i5].via_content);
	CHECK(vr[i7].result != NULL);
	CHECK(!vr[i3].result);
	CHECK(vr[i2].has_note);

	rung_model *m = NULL;
	CHECK_INT(rung_model_git_new(&m, dir, NULL), 0);
	if (!m) {
		rung_vrows_free(vr, nv);
		rung_vctx_close(&c);
		return;
	}
	/* before the first frame: the newest screenful only, the rest on its way */
	CHECK(m->loading);
	CHECK(m->nrows >= 100 && m->nrows < NCOMMITS);
	CHECK_STR(m->rows[0].hash, vr[0].v.id);
	wait_loaded(m);
	CHECK(!m->loading);
	CHECK_INT(m->nrows, NCOMMITS);
	int same = 0;
	for (int i = 0; i < m->nrows && i < nv; i++)
		same += !strcmp(m->rows[i].hash, vr[i].v.id) && !strcmp(m->rows[i].subject, vr[i].v.subject);
	CHECK_INT(same, NCOMMITS);
	if (m->nrows == NCOMMITS) {
		const rung_model_row *r5 = &m->rows[i5], *r7 = &m->rows[i7], *r3 = &m->rows[i3], *r2 = &m->rows[i2];
		CHECK(r5->result && !rung_model_row_is_recorded(r5));
		CHECK_NEAR(r5->result ? r5->result->bench.median : NAN, 2.5, 1e-12);
		/* its own live result is not "cached" (a tick); one reused from another
		 * commit with the same files is */
		CHECK(!r5->cached);
		const rung_model_row *r9 = &m->rows[i9];
		CHECK(r9->result && r9->cached);
		CHECK_NEAR(r9->result ? r9->result->bench.median : NAN, 5.5, 1e-12);
		CHECK(r7->result && !rung_model_row_is_recorded(r7));
		CHECK_NEAR(r7->result ? r7->result->bench.median : NAN, 3.5, 1e-12);
		CHECK(rung_model_row_is_recorded(r3));
		CHECK_NEAR(r3->recorded ? r3->recorded->bench.median : NAN, 4.5, 1e-12);
		CHECK_STR(r3->recorded ? r3->recorded->recorded_note : "", rec3->recorded_note);
		CHECK_INT(r2->verdict, RUNG_VERDICT_REJECT);
		CHECK_STR(r2->note, "too slow");
		int live, recorded;
		rung_model_count(m, &live, &recorded);
		CHECK_INT(live, 3);
		CHECK_INT(recorded, 1);
		CHECK_INT(rung_model_best(m), i5); /* 2.5 ms, the fastest live one */
		/* the row's directives, with their ids (rung brief's); one written and
		 * one closed through the model are read back from the note */
		CHECK_INT(r2->ndirs, 1);
		CHECK_INT(r2->ndirs ? (int)strlen(r2->dirs[0].id) : 0, 8);
		CHECK_INT(r2->ndirs ? (int)r2->dirs[0].status : -1, RUNG_DIR_OPEN);
		CHECK_INT(rung_model_set_note(m, vr[i2].v.id, RUNG_VERDICT_REJECT, "try float4"), 0);
		r2 = &m->rows[i2];
		CHECK_INT(r2->ndirs, 2);
		char id[9] = "";
		if (r2->ndirs == 2) {
			CHECK_STR(r2->dirs[1].text, "try float4");
			snprintf(id, sizeof(id), "%s", r2->dirs[1].id);
		}
		CHECK_INT(rung_model_close_directive(m, vr[i2].v.id, id, "not now"), 0);
		r2 = &m->rows[i2];
		if (r2->ndirs == 2) {
			CHECK_INT(r2->dirs[1].status, RUNG_DIR_CLOSED);
			CHECK_STR(r2->dirs[1].reason, "not now");
			CHECK_STR(r2->dirs[1].by, vr[0].v.id); /* the task's newest version */
			CHECK(r2->dirs[1].who[0] != 0);
			CHECK_INT(r2->dirs[0].status, RUNG_DIR_OPEN);
		}
		CHECK_CONTAINS(r2->note, "[closed by ");
		rung_note n;
		CHECK_INT(rung_note_read(&n, c.repo, vr[i2].v.id), 0);
		CHECK_INT(n.ndirectives, 2);
		CHECK(n.ndirectives == 2 && n.directives[1].answer == RUNG_ANSWER_CLOSED && n.directives[1].done);
		rung_note_clear(&n);
		CHECK_INT(rung_model_close_directive(m, vr[i2].v.id, id, "again"), RUNG_EINVAL);
		CHECK_INT(rung_model_close_directive(m, vr[i2].v.id, "deadbeef", "no"), RUNG_ENOTFOUND);
	}
	rung_model_free(m);

	/* quitting while the rest is still loading returns at once */
	CHECK_INT(rung_model_git_new(&m, dir, NULL), 0);
	CHECK(m && m->loading);
	rung_model_free(m);

	rung_result_clear(rec3);
	free(rec3);
	rung_vrows_free(vr, nv);
	rung_vctx_close(&c);
}

/* The model side of RUNG_EV_ROWS_MORE: appends onto the row it continues,
 * drops a stale chunk, `E` while loading queues the rest at the end. */
static void test_rows_more(void)
{
	rung_model *m = NULL;
	CHECK_INT(rung_model_mem_new(&m), 0);
	if (!m)
		return;
	rung_model_row r = {0};
	snprintf(r.hash, sizeof(r.hash), "aaaa");
	CHECK_INT(rung_model_mem_add(m, &r), 0);
	m->loading = true;
	CHECK_INT(rung_model_evaluate_missing(m), 1);
	CHECK(m->evaluate_when_loaded);
	rung_model_apply_events(m);
	CHECK_INT(m->queue_total, 1);

	rung_model_event ev = {.kind = RUNG_EV_ROWS_MORE};
	snprintf(ev.hash, sizeof(ev.hash), "zzzz"); /* not the last row: stale */
	ev.rows = calloc(1, sizeof(*ev.rows));
	ev.nrows = 1;
	snprintf(ev.rows[0].hash, sizeof(ev.rows[0].hash), "stale");
	CHECK_INT(rung_model_post(m, &ev), 0);
	rung_model_apply_events(m);
	CHECK_INT(m->nrows, 1);
	CHECK(m->loading);

	rung_model_event ev2 = {.kind = RUNG_EV_ROWS_MORE, .last = true};
	snprintf(ev2.hash, sizeof(ev2.hash), "aaaa");
	ev2.rows = calloc(2, sizeof(*ev2.rows));
	ev2.nrows = 2;
	snprintf(ev2.rows[0].hash, sizeof(ev2.rows[0].hash), "bbbb");
	snprintf(ev2.rows[1].hash, sizeof(ev2.rows[1].hash), "cccc");
	ev2.rows[1].result = rung_model_fake_result("cccc", 1.0, 1e-7, true, 1);
	rung_model_row_sync_steps(&ev2.rows[1]);
	CHECK_INT(rung_model_post(m, &ev2), 0);
	unsigned gen = m->generation;
	rung_model_apply_events(m); /* appended; E's rest queued: bbbb only (cccc has a result) */
	CHECK(m->generation != gen);
	CHECK_INT(m->nrows, 3);
	CHECK_STR(m->rows[1].hash, "bbbb");
	CHECK_STR(m->rows[2].hash, "cccc");
	CHECK(!m->loading);
	CHECK(!m->evaluate_when_loaded);
	CHECK(m->rows[2].baseline); /* the oldest evaluated row, recomputed on append */
	CHECK(m->rows[2].best);
	rung_model_apply_events(m);
	CHECK_INT(m->queue_total, 2);
	CHECK_INT(m->rows[1].step[0], RUNG_S_PENDING);
	rung_model_free(m);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	T_RUN(test_rows_more);
	T_RUN(test_git_incremental);
	return t_done();
}

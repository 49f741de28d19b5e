/* The workbench's background service (app/workbench.h) on its own, without
 * the curses front end: a sink that records what it is handed. The first
 * rows come on the caller's thread and the rest from the runner after the
 * anchor; an evaluation posts QUEUED before submit returns and its result
 * after (the compile rung at least, GPU or not); a task switch makes an
 * evaluation in flight stale (its result is counted, not handed on); the
 * texter makes a version's PTX once and the cache answers after; the poller
 * hands on a version committed after the list was read; with its results
 * deferred, the first rows come pending and the runner's fill brings their
 * results (once the front end's first frame is out, where it asks so). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/workbench.h"
#include "core/err.h"
#include "core/timing.h"
#include "harness.h"

typedef struct {
	rung_wb_kind kind;
	char hash[41];
	rung_step_id step;
	int nrows;
	char first[41], lastrow[41]; /* the rows' first and last hash */
	bool last, has_result;
	rung_status compile;
	unsigned gen;
	char stats[41]; /* the rows' "pending P recorded R" (rows_fn) */
	char text[64];
} rec;

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	rec ev[256];
	int n;
} sink = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, {{0}}, 0};

/* The sink's rows: the hashes alone. */
static int rows_fn(void **out, void *ud, rung_wb_row *rows, int n)
{
	(void)ud;
	*out = NULL;
	char(*h)[41] = calloc((size_t)n + 1, sizeof(*h));
	int pending = 0, recorded = 0;
	for (int i = 0; h && i < n; i++) {
		snprintf(h[i], sizeof(h[i]), "%s", rows[i].vr.v.id);
		pending += rows[i].pending;
		recorded += rows[i].recorded != NULL;
	}
	if (h) /* after the hashes */
		snprintf(h[n], sizeof(h[n]), "pending %d recorded %d", pending, recorded);
	rung_wb_rows_free(rows, n);
	if (!h)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	*out = h;
	return 0;
}

static void rows_free_fn(void *ud, void *rows, int n)
{
	(void)ud;
	(void)n;
	free(rows);
}

static int post_fn(void *ud, const rung_wb_event *ev)
{
	(void)ud;
	pthread_mutex_lock(&sink.lock);
	if (sink.n < (int)(sizeof(sink.ev) / sizeof(sink.ev[0]))) {
		rec *r = &sink.ev[sink.n++];
		memset(r, 0, sizeof(*r));
		r->kind = ev->kind;
		snprintf(r->hash, sizeof(r->hash), "%s", ev->hash);
		r->step = ev->step;
		r->nrows = ev->nrows;
		char(*h)[41] = ev->rows;
		if (h && ev->nrows) {
			snprintf(r->first, sizeof(r->first), "%s", h[0]);
			snprintf(r->lastrow, sizeof(r->lastrow), "%s", h[ev->nrows - 1]);
			snprintf(r->stats, sizeof(r->stats), "%s", h[ev->nrows]);
		}
		r->gen = ev->gen;
		snprintf(r->text, sizeof(r->text), "%.63s", ev->text);
		r->last = ev->last;
		r->has_result = ev->result != NULL;
		r->compile = ev->result ? ev->result->steps[RUNG_STEP_COMPILE].status : RUNG_S_NONE;
	}
	free(ev->rows);
	if (ev->result) {
		rung_result_clear(ev->result);
		free(ev->result);
	}
	pthread_cond_broadcast(&sink.cond);
	pthread_mutex_unlock(&sink.lock);
	return 0;
}

/* The first event of kind at index >= from (for hash, when given) within
 * 120 s: its index, or -1. */
static int wait_for(rung_wb_kind kind, int from, const char *hash)
{
	time_t t0 = time(NULL);
	pthread_mutex_lock(&sink.lock);
	int found = -1;
	while (found < 0 && time(NULL) - t0 < 120) {
		for (int i = from; i < sink.n && found < 0; i++)
			if (sink.ev[i].kind == kind && (!hash || !strcmp(sink.ev[i].hash, hash)))
				found = i;
		if (found >= 0)
			break;
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 1;
		pthread_cond_timedwait(&sink.cond, &sink.lock, &ts);
	}
	pthread_mutex_unlock(&sink.lock);
	return found;
}

static int events(void)
{
	pthread_mutex_lock(&sink.lock);
	int n = sink.n;
	pthread_mutex_unlock(&sink.lock);
	return n;
}

static rec event(int i)
{
	pthread_mutex_lock(&sink.lock);
	rec r = sink.ev[i];
	pthread_mutex_unlock(&sink.lock);
	return r;
}

/* Four commits of the sgemm task at the root, each changing a comment. */
static const char *make_repo(void)
{
	static char dir[4096];
	snprintf(dir, sizeof(dir), "%s/repo", t_tmpdir());
	char *out = NULL;
	int rc = t_sh(&out,
		      "set -e; git init -q -b main '%s' && cd '%s' && cp '%s'/tasks/sgemm/* . &&"
		      " git add -A && git -c user.name=A -c user.email=a@x commit -qm 'v0' &&"
		      " for i in 1 2 3; do echo \"// v$i\" >> sgemm.cu;"
		      " git -c user.name=A -c user.email=a@x commit -qam \"v$i\"; done 2>&1",
		      dir, dir, RUNG_TEST_DIR);
	if (rc != 0)
		fprintf(stderr, "make_repo: %s\n", out ? out : "");
	free(out);
	return rc == 0 ? dir : NULL;
}

static void test_service(void)
{
	const char *dir = make_repo();
	CHECK(dir != NULL);
	if (!dir)
		return;
	setenv("RUNG_WORKER_EXE", RUNG_BIN, 1); /* the worker is rung's, not this test's */
	rung_wb_opts o = {.dir = dir, .sink = {.rows = rows_fn, .rows_free = rows_free_fn, .post = post_fn}};
	rung_wb *b = NULL;
	rung_vctx ui;
	char note[256];
	CHECK_INT(rung_wb_new(&b, &o, &ui, note, sizeof(note)), 0);
	if (!b)
		return;
	CHECK_STR(note, ""); /* HEAD's spec parses */

	/* the first two rows here, the other two from the runner after them */
	void *rows = NULL;
	int n = 0;
	bool more = false;
	CHECK_INT(rung_wb_first(&rows, &n, &more, b, &ui, 2), 0);
	CHECK_INT(n, 2);
	CHECK(more);
	char hashes[4][41] = {{0}};
	char(*h)[41] = rows;
	for (int i = 0; h && i < n; i++)
		snprintf(hashes[i], sizeof(hashes[i]), "%s", h[i]);
	free(rows);
	CHECK_INT(rung_wb_rest(b, hashes[1]), 0);
	int k = wait_for(RUNG_WB_ROWS_MORE, 0, NULL);
	CHECK(k >= 0);
	if (k >= 0) {
		rec r = event(k);
		CHECK_STR(r.hash, hashes[1]); /* after the row shown last */
		CHECK_INT(r.nrows, 2);
		CHECK(r.last);
		snprintf(hashes[2], sizeof(hashes[2]), "%s", r.first);
		snprintf(hashes[3], sizeof(hashes[3]), "%s", r.lastrow);
		CHECK(strcmp(hashes[2], hashes[1]) && strcmp(hashes[3], hashes[2]));
	}

	/* an evaluation: QUEUED before submit returns, then the result */
	int from = events();
	CHECK_INT(rung_wb_submit(b, hashes[0], 0), 0);
	CHECK(events() > from);
	rec q = event(from);
	CHECK_INT(q.kind, RUNG_WB_QUEUED);
	CHECK_STR(q.hash, hashes[0]);
	CHECK_INT(q.step, RUNG_STEP_COMPILE);
	k = wait_for(RUNG_WB_RESULT, from, hashes[0]);
	CHECK(k >= 0);
	if (k >= 0) {
		rec r = event(k);
		CHECK(r.has_result);
		CHECK_INT(r.compile, RUNG_S_OK);
	}

	/* a task switch while one is queued: its result is counted, not handed on */
	from = events();
	CHECK_INT(rung_wb_submit(b, hashes[1], 0), 0);
	char *same = strdup(dir), *old = NULL;
	rung_wb_set_task(b, same, &old);
	k = wait_for(RUNG_WB_RESULT, from, hashes[1]);
	CHECK(k >= 0);
	if (k >= 0)
		CHECK(!event(k).has_result);
	free(old);

	/* PTX made by the texter once, then from the cache */
	from = events();
	CHECK_INT(rung_wb_text_prepare(b, hashes[2]), 1);
	k = wait_for(RUNG_WB_TEXT, from, hashes[2]);
	CHECK(k >= 0);
	CHECK_INT(rung_wb_text_prepare(b, hashes[2]), 0);
	char *ptx = NULL;
	CHECK_INT(rung_wb_text(&ptx, b, &ui, hashes[2], false), 0);
	CHECK_CONTAINS(ptx, ".entry");
	free(ptx);
	rung_wb_texts_clear(b); /* emptied: asked again, it is made again */
	CHECK_INT(rung_wb_text_prepare(b, hashes[2]), 1);
	rung_wb_text_cancel(b);

	/* a version committed now reaches the list through the poller */
	CHECK_INT(rung_wb_first(&rows, &n, &more, b, &ui, 0), 0); /* marks the list as read now */
	free(rows);
	char *out = NULL;
	CHECK_INT(t_sh(&out, "cd '%s' && echo '// v4' >> sgemm.cu && git -c user.name=A -c user.email=a@x commit -qam v4 && git rev-parse HEAD", dir), 0);
	char head[41] = "";
	if (out)
		snprintf(head, sizeof(head), "%.40s", out);
	free(out);
	from = events();
	CHECK_INT(rung_wb_poll_start(b, 1), 0);
	k = wait_for(RUNG_WB_ROWS_NEW, from, NULL);
	CHECK(k >= 0);
	if (k >= 0) {
		rec r = event(k);
		CHECK_STR(r.hash, hashes[0]); /* above the list's newest commit */
		CHECK_INT(r.nrows, 1);
		CHECK_STR(r.first, head);
	}
	rung_wb_free(b);
	rung_vctx_close(&ui);
	unsetenv("RUNG_WORKER_EXE");
}

/* rung_wb_opts.defer_results (the workbench's first frame, #28): on rung
 * demo's repository, whose store holds a recorded result for each version,
 * the first rows come pending and without any result, and the runner's
 * fill posts the same versions with their recorded results, for the task
 * generation the rows were read at. */
static void test_fill(void)
{
	char dir[4096], *out = NULL;
	snprintf(dir, sizeof(dir), "%s/demo", t_tmpdir());
	CHECK_INT(t_sh(&out, "'%s' demo --no-tui '%s' 2>&1", RUNG_BIN, dir), 0);
	free(out);
	rung_wb_opts o = {.dir = dir,
			  .taskdir = "sgemm",
			  .defer_results = true,
			  .sink = {.rows = rows_fn, .rows_free = rows_free_fn, .post = post_fn}};
	rung_wb *b = NULL;
	rung_vctx ui;
	CHECK_INT(rung_wb_new(&b, &o, &ui, NULL, 0), 0);
	if (!b)
		return;
	int from = events();
	void *rows = NULL;
	int n = 0;
	bool more = true;
	unsigned gen = 99;
	CHECK_INT(rung_wb_first_gen(&rows, &n, &more, &gen, b, &ui, 100), 0);
	CHECK_INT(n, 11);
	CHECK(!more);
	char(*h)[41] = rows;
	char first[41] = "", lastrow[41] = "";
	if (h && n == 11) {
		CHECK_STR(h[n], "pending 11 recorded 0");
		snprintf(first, sizeof(first), "%s", h[0]);
		snprintf(lastrow, sizeof(lastrow), "%s", h[n - 1]);
	}
	free(rows);
	CHECK_INT(gen, 0);
	int k = wait_for(RUNG_WB_FILL, from, NULL);
	CHECK(k >= 0);
	if (k >= 0) {
		rec r = event(k);
		CHECK_INT(r.nrows, 11);
		CHECK_STR(r.first, first);
		CHECK_STR(r.lastrow, lastrow);
		CHECK_STR(r.stats, "pending 0 recorded 11");
		CHECK_INT(r.gen, gen);
		CHECK_STR(r.text, "");
	}
	/* without defer_results, the rows come with their results (test_service's way) */
	rung_wb_free(b);
	rung_vctx_close(&ui);
	o.defer_results = false;
	CHECK_INT(rung_wb_new(&b, &o, &ui, NULL, 0), 0);
	if (!b)
		return;
	from = events();
	CHECK_INT(rung_wb_first(&rows, &n, &more, b, &ui, 100), 0);
	h = rows;
	CHECK(h && n == 11);
	if (h && n == 11)
		CHECK_STR(h[n], "pending 0 recorded 11");
	free(rows);
	rung_wb_free(b);
	rung_vctx_close(&ui);
	for (int i = from; i < events(); i++)
		CHECK(event(i).kind != RUNG_WB_FILL);

	/* fill_after_drawn (the workbench's): no result is read until the front
	 * end's first frame is out (rung_wb_drawn), then the fill comes as above */
	o.defer_results = o.fill_after_drawn = true;
	CHECK_INT(rung_wb_new(&b, &o, &ui, NULL, 0), 0);
	if (!b)
		return;
	from = events();
	CHECK_INT(rung_wb_first_gen(&rows, &n, &more, &gen, b, &ui, 100), 0);
	h = rows;
	CHECK(h && n == 11);
	if (h && n == 11)
		CHECK_STR(h[n], "pending 11 recorded 0");
	free(rows);
	usleep(500 * 1000); /* the fill above took some 20-50 ms */
	for (int i = from; i < events(); i++)
		CHECK(event(i).kind != RUNG_WB_FILL);
	rung_wb_drawn(b);
	k = wait_for(RUNG_WB_FILL, from, NULL);
	CHECK(k >= 0);
	if (k >= 0) {
		rec r = event(k);
		CHECK_INT(r.nrows, 11);
		CHECK_STR(r.stats, "pending 0 recorded 11");
		CHECK_INT(r.gen, gen);
	}
	rung_wb_free(b);
	rung_vctx_close(&ui);

	/* and a quit before the first frame ends the waiting fill: nothing posted */
	CHECK_INT(rung_wb_new(&b, &o, &ui, NULL, 0), 0);
	if (!b)
		return;
	from = events();
	CHECK_INT(rung_wb_first_gen(&rows, &n, &more, &gen, b, &ui, 100), 0);
	free(rows);
	double t0 = rung_now_s();
	rung_wb_free(b);
	CHECK(rung_now_s() - t0 < 5);
	rung_vctx_close(&ui);
	for (int i = from; i < events(); i++)
		CHECK(event(i).kind != RUNG_WB_FILL);
}

int main(void)
{
	T_RUN(test_fill);
	T_RUN(test_service);
	return t_done();
}

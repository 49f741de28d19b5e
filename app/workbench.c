/* The workbench's background service (app/workbench.h): the runner and its
 * queue, the evaluator, the poller. The texter and the text cache are in
 * app/workbench_text.c. */
#include "app/workbench_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/sanitize_gate.h"
#include "core/err.h"
#include "core/timing.h"

int rung__wb_post(rung_wb *b, const rung_wb_event *ev)
{
	return b->sink.post(b->sink.ud, ev);
}

static void post_message(rung_wb *b, const char *fmt, const char *arg)
{
	rung_wb_event ev = {.kind = RUNG_WB_MESSAGE};
	snprintf(ev.text, sizeof(ev.text), fmt, arg);
	rung__wb_post(b, &ev);
}

/* ---- handles on the task ---- */

/* A task's spec at HEAD that does not parse (RUNG_EINVAL, file:line) does
 * not lock the person out: the spec of the newest earlier commit that does
 * parse is used instead, and *note (when given) says so, naming the error.
 * --spec-rev (spec_rev) is taken as it is. */
static int open_task(rung_vtask *t, rung_repo *repo, const char *tdir, const char *spec_rev, char *note, size_t len)
{
	if (note)
		note[0] = 0;
	int e = rung_vtask_open(t, repo, tdir, spec_rev);
	if (e != RUNG_EINVAL || spec_rev)
		return e;
	rung_error_state st;
	rung_error_save(&st);
	char why[256];
	snprintf(why, sizeof(why), "%s", rung_error_last());
	for (int k = 1; k <= 100; k++) {
		char rev[16];
		snprintf(rev, sizeof(rev), "HEAD~%d", k);
		rung_error_clear();
		int ek = rung_vtask_open(t, repo, tdir, rev);
		if (ek == 0) {
			if (note)
				snprintf(note, len, "HEAD's rung.ini is broken (%.150s): using the last good one, of %.7s "
					 "(rung tui --spec-rev REV picks another)", why, t->spec_rev);
			return 0;
		}
		if (ek != RUNG_EINVAL) /* no such commit, or no rung.ini there */
			break;
	}
	st.code = e;
	return rung_error_restore(&st);
}

int rung_wb_open_ctx(rung_vctx *c, rung_wb *b, const char *taskdir, char *note, size_t len)
{
	memset(c, 0, sizeof(*c));
	c->cmd = "tui";
	int e = rung_repo_open(&c->repo, b->dir);
	if (e < 0)
		return e;
	char *tdir = NULL;
	rung_vctx_opts where = {.dir = b->dir, .task = taskdir};
	e = rung_where_task(&tdir, c->repo, &where);
	if (e == RUNG_EINVAL && !taskdir) {
		/* several tasks and none named: the workbench opens the first, and T
		 * switches between them (the command line asks for one instead) */
		char **v = NULL;
		int n = 0;
		if (rung_repo_find_tasks(&v, &n, c->repo) == 0 && n > 1 && (tdir = strdup(v[0]))) {
			rung_error_clear();
			e = 0;
		}
		rung_strv_free(v, n);
	}
	if (e == 0)
		e = open_task(&c->task, c->repo, tdir, b->spec_rev, note, len);
	free(tdir);
	if (e == 0)
		e = rung_store_open_repo_read(&c->store, c->repo); /* writes fail where it is read-only */
	if (e < 0) {
		rung_error_state st;
		rung_error_save(&st);
		rung_vctx_close(c);
		st.code = e;
		return rung_error_restore(&st);
	}
	return 0;
}

char *rung__wb_task_snapshot(rung_wb *b, unsigned *gen)
{
	pthread_mutex_lock(&b->q.lock);
	char *t = b->taskdir ? strdup(b->taskdir) : NULL;
	*gen = b->task_gen;
	pthread_mutex_unlock(&b->q.lock);
	return t;
}

static bool job_current(rung_wb *b, unsigned gen)
{
	pthread_mutex_lock(&b->q.lock);
	bool current = gen == b->task_gen && !b->q.stop;
	pthread_mutex_unlock(&b->q.lock);
	return current;
}

/* ---- rows: the list read a chunk at a time through the one row loader
 * (app/session.h: versions from a revwalk that yields them without walking
 * everything, notes read once and sorted, results looked up per row with the
 * store's cached statements, no content hashed while the store holds no
 * result) ---- */

void rung_wb_rows_free(rung_wb_row *rows, int n)
{
	if (!rows)
		return;
	for (int i = 0; i < n; i++) {
		rung_vrow_clear(&rows[i].vr);
		if (rows[i].recorded) {
			rung_result_clear(rows[i].recorded);
			free(rows[i].recorded);
		}
	}
	free(rows);
}

/* One loader row into *out, with its recorded result (kept apart from the
 * live one: shown only while there is none). vr is taken over. */
static void bench_row(rung_wb_row *out, rung_vctx *c, rung_vrow *vr, bool lookups)
{
	out->vr = *vr;
	memset(vr, 0, sizeof(*vr));
	out->recorded = lookups ? rung_recorded_lookup(c, &out->vr.v, out->vr.content) : NULL;
}

/* The newest commit of rows (a WORKTREE row on top skipped), "" when none. */
static const char *rows_top(const rung_wb_row *rows, int n)
{
	for (int i = 0; i < n && i < 2; i++)
		if (strcmp(rows[i].vr.v.id, "WORKTREE"))
			return rows[i].vr.v.id;
	return "";
}

static bool job_current(rung_wb *b, unsigned gen);

/* Up to max more rows (max <= 0: all) into a new array (ownership to the
 * caller); l->done once history is exhausted. With b, stops early (the rows
 * read so far) once the job of gen is no longer current: a quit waits for
 * one row, not a chunk (#28: the exit after q under 10 ms). */
static int loader_next(rung_wb_row **out, int *n, rung_rows_loader *l, rung_vctx *c, int max, rung_wb *b,
		       unsigned gen)
{
	*out = NULL;
	*n = 0;
	int cap = max > 0 ? max : 256, cnt = 0, e = 0;
	rung_wb_row *rows = calloc((size_t)cap + 1, sizeof(*rows));
	if (!rows)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	while (!l->done && (max <= 0 || cnt < max)) {
		if (b && cnt && !job_current(b, gen))
			break;
		rung_vrow vr;
		e = rung_rows_next(&vr, l, c);
		if (e < 0)
			break;
		if (e == 1) {
			e = 0;
			break;
		}
		if (cnt == cap) {
			rung_wb_row *nr = realloc(rows, ((size_t)cap * 2 + 1) * sizeof(*nr));
			if (!nr) {
				rung_vrow_clear(&vr);
				e = rung_error_set(RUNG_ENOMEM, "out of memory");
				break;
			}
			memset(nr + cap, 0, ((size_t)cap + 1) * sizeof(*nr));
			rows = nr;
			cap *= 2;
		}
		bench_row(&rows[cnt++], c, &vr, l->hash_content);
	}
	if (e < 0) {
		rung_wb_rows_free(rows, cnt);
		return e;
	}
	*out = rows;
	*n = cnt;
	return 0;
}

/* Bench rows into the sink's rows (taken over). */
static int sink_rows(void **out, rung_wb *b, rung_wb_row *rows, int n)
{
	*out = NULL;
	return b->sink.rows(out, b->sink.ud, rows, n);
}

/* Every version of c's task with its result and note, through the sink. */
static int load_rows(void **out, int *n, char top[41], char last[41], rung_wb *b, rung_vctx *c)
{
	rung_rows_loader l;
	rung_wb_row *rows = NULL;
	*out = NULL;
	*n = 0;
	int e = rung_rows_open(&l, c, NULL, false);
	if (e == 0)
		e = loader_next(&rows, n, &l, c, 0, NULL, 0);
	rung_rows_close(&l);
	if (e < 0)
		return e;
	if (top)
		snprintf(top, 41, "%s", rows_top(rows, *n));
	if (last)
		snprintf(last, 41, "%s", *n ? rows[*n - 1].vr.v.id : "");
	if ((e = sink_rows(out, b, rows, *n)) < 0)
		*n = 0;
	return e;
}

/* HEAD's commit into out ("" when unborn or unreadable). */
static void head_of(char out[41], rung_repo *r)
{
	if (rung_repo_resolve(out, r, "HEAD") < 0) {
		out[0] = 0;
		rung_error_clear();
	}
}

/* The list shown was read at HEAD head with newest commit top: the poll looks
 * for commits after it from now on (under q.lock). */
static void poll_mark_locked(rung_wb *b, const char *head, const char *top)
{
	snprintf(b->poll.head, sizeof(b->poll.head), "%s", head);
	snprintf(b->poll.top, sizeof(b->poll.top), "%s", top);
	b->poll.gen++;
}

int rung_wb_load_all(void **rows, int *n, rung_wb *b, rung_vctx *c)
{
	return load_rows(rows, n, NULL, NULL, b, c);
}

static int ensure_runner(rung_wb *b);

/* What a row read pending lacks: its content, live and recorded results
 * (the store's damage is an error, as for rung_rows_next). */
static int row_results(rung_wb_row *row, rung_vctx *c)
{
	rung_vrow_lookup(&row->vr, c);
	row->recorded = rung_recorded_lookup(c, &row->vr.v, row->vr.content);
	row->pending = false;
	return c->store && rung_store_read_error(c->store) < 0 ? rung_store_read_error(c->store) : 0;
}

/* The versions of the rows read pending to the fill asked for (v: n of them,
 * taken over; NULL: none after all). */
static void fill_hand(rung_wb *b, rung_version *v, int n)
{
	pthread_mutex_lock(&b->q.lock);
	free(b->q.fill_v);
	b->q.fill_v = v;
	b->q.fill_n = v ? n : 0;
	b->q.fill_ready = true;
	pthread_cond_signal(&b->q.cond);
	pthread_mutex_unlock(&b->q.lock);
}

int rung_wb_first_gen(void **out, int *n, bool *more, unsigned *gen, rung_wb *b, rung_vctx *c, int max)
{
	rung_rows_loader l;
	rung_wb_row *rows;
	char head[41];
	*out = NULL;
	*n = 0;
	*more = false;
	head_of(head, c->repo);
	int e = rung_rows_open(&l, c, NULL, false);
	if (e < 0)
		return e;
	/* the results deferred (rung_wb_opts.defer_results): no source read, no
	 * content hashed, no result parsed here; the runner reads them (where
	 * it cannot start, they are read now) */
	bool defer = b->defer_results && l.hash_content;
	if (defer && ensure_runner(b) < 0) {
		rung_error_clear();
		defer = false;
	}
	if (defer) {
		l.hash_content = false;
		/* the runner opens its handles while the rows are read here */
		pthread_mutex_lock(&b->q.lock);
		free(b->q.fill_v);
		b->q.fill_v = NULL;
		b->q.fill = true;
		b->q.fill_ready = false;
		b->q.fill_gen = b->task_gen;
		pthread_cond_signal(&b->q.cond);
		pthread_mutex_unlock(&b->q.lock);
	}
	if ((e = loader_next(&rows, n, &l, c, max, NULL, 0)) < 0) {
		rung_rows_close(&l);
		if (defer)
			fill_hand(b, NULL, 0);
		return e;
	}
	*more = !l.done && *n > 0;
	rung_rows_close(&l);
	rung_version *fv = defer && *n ? malloc((size_t)*n * sizeof(*fv)) : NULL;
	for (int i = 0; i < *n && defer; i++) {
		if (fv) { /* the runner's copy of the versions: it walks no history again */
			fv[i] = rows[i].vr.v;
			rows[i].pending = true;
		} else if ((e = row_results(&rows[i], c)) < 0) { /* out of memory: read here and now */
			fill_hand(b, NULL, 0);
			rung_wb_rows_free(rows, *n);
			*n = 0;
			return e;
		}
	}
	if (defer)
		fill_hand(b, fv, *n);
	pthread_mutex_lock(&b->q.lock);
	poll_mark_locked(b, head, rows_top(rows, *n));
	if (gen)
		*gen = b->task_gen;
	pthread_mutex_unlock(&b->q.lock);
	if ((e = sink_rows(out, b, rows, *n)) < 0)
		*n = 0;
	return e;
}

void rung_wb_drawn(rung_wb *b)
{
	pthread_mutex_lock(&b->q.lock);
	if (!b->q.drawn) {
		b->q.drawn = true;
		pthread_cond_signal(&b->q.cond);
	}
	pthread_mutex_unlock(&b->q.lock);
}

int rung_wb_first(void **out, int *n, bool *more, rung_wb *b, rung_vctx *c, int max)
{
	return rung_wb_first_gen(out, n, more, NULL, b, c, max);
}

/* The results of the first list's pending rows (rung_wb_first_gen), before
 * anything else the runner does: its own handles are opened while the rows
 * are read, then their versions (fill_hand) are looked up (content, live and
 * recorded results) and posted as RUNG_WB_FILL, once the first frame is out
 * where the front end asked so (fill_after_drawn). A quit or a task switch
 * stops it between two rows, and nothing is posted. */
static void fill_in_thread(rung_wb *b, unsigned gen)
{
	unsigned tgen;
	char *task = rung__wb_task_snapshot(b, &tgen);
	rung_wb_event ev = {.kind = RUNG_WB_FILL, .gen = gen};
	rung_vctx c;
	int e = tgen == gen ? rung_wb_open_ctx(&c, b, task, NULL, 0) : 0;
	free(task);
	rung_version *v = NULL;
	int n = 0;
	pthread_mutex_lock(&b->q.lock);
	while (((!b->q.fill_ready && !b->q.fill) || (b->fill_after_drawn && !b->q.drawn)) && !b->q.stop &&
	       gen == b->task_gen)
		pthread_cond_wait(&b->q.cond, &b->q.lock);
	bool got = gen == b->task_gen && !b->q.stop && !b->q.fill && b->q.fill_ready;
	if (got) {
		v = b->q.fill_v;
		n = b->q.fill_n;
		b->q.fill_v = NULL;
		b->q.fill_ready = false;
	}
	pthread_mutex_unlock(&b->q.lock);
	if (!got || !v) { /* switched, a quit, or no rows after all */
		if (tgen == gen && e == 0)
			rung_vctx_close(&c);
		rung_error_clear();
		free(v);
		return;
	}
	if (e == 0) {
		rung_wb_row *rows = calloc((size_t)n + 1, sizeof(*rows));
		int cnt = 0;
		if (!rows)
			e = rung_error_set(RUNG_ENOMEM, "out of memory");
		while (e == 0 && cnt < n && job_current(b, gen)) {
			rows[cnt].vr.v = v[cnt];
			e = row_results(&rows[cnt++], &c);
		}
		if (e < 0)
			rung_wb_rows_free(rows, cnt);
		else if ((e = sink_rows(&ev.rows, b, rows, cnt)) == 0)
			ev.nrows = cnt;
		rung_vctx_close(&c);
	}
	free(v);
	if (e < 0) {
		snprintf(ev.text, sizeof(ev.text), "%.255s", rung_error_last());
		rung_error_clear();
	}
	pthread_mutex_lock(&b->q.lock);
	bool current = gen == b->task_gen && !b->q.stop;
	if (current && rung__wb_post(b, &ev) < 0)
		current = false;
	pthread_mutex_unlock(&b->q.lock);
	if (!current && ev.rows)
		b->sink.rows_free(b->sink.ud, ev.rows, ev.nrows);
}

static void reload_in_thread(rung_wb *b)
{
	unsigned gen;
	char *task = rung__wb_task_snapshot(b, &gen);
	rung_vctx c;
	char note[256];
	if (rung_wb_open_ctx(&c, b, task, note, sizeof(note)) < 0) {
		post_message(b, "reload failed: %s", rung_error_last());
		free(task);
		return;
	}
	free(task);
	if (note[0]) /* the reload goes on with the last good spec, and says so */
		post_message(b, "%s", note);
	else
		post_message(b, "%s", "reloaded");
	rung_wb_event ev = {.kind = RUNG_WB_ROWS};
	char head[41], top[41];
	head_of(head, c.repo);
	if (load_rows(&ev.rows, &ev.nrows, top, NULL, b, &c) < 0) {
		post_message(b, "reload failed: %s", rung_error_last());
	} else {
		/* a task switch while loading: these rows belong to the old task */
		pthread_mutex_lock(&b->q.lock);
		bool current = gen == b->task_gen;
		if (current) {
			poll_mark_locked(b, head, top);
			rung__wb_post(b, &ev);
		}
		pthread_mutex_unlock(&b->q.lock);
		if (!current)
			b->sink.rows_free(b->sink.ud, ev.rows, ev.nrows);
	}
	rung_vctx_close(&c);
}

/* Rows posted per RUNG_WB_ROWS_MORE (the UI rebuilds its table per event;
 * a quit stops the chunk being read, loader_next). */
enum { REST_CHUNK = 500 };

/* The rest of the first list: walks past the rows shown (cheap: no sources,
 * no store), then reads the others a chunk at a time and posts each as
 * RUNG_WB_ROWS_MORE; the last one says the list is complete. Stops early
 * on a task switch or quit. When the row shown last is gone (history
 * rewritten in between), posts the whole list as RUNG_WB_ROWS instead. */
static void rest_in_thread(rung_wb *b, const char *anchor, unsigned gen)
{
	unsigned tgen;
	char *task = rung__wb_task_snapshot(b, &tgen);
	rung_vctx c;
	if (tgen != gen || rung_wb_open_ctx(&c, b, task, NULL, 0) < 0) {
		if (tgen == gen)
			post_message(b, "loading failed: %s", rung_error_last());
		free(task);
		goto done;
	}
	free(task);
	rung_rows_loader l;
	int e = rung_rows_open(&l, &c, NULL, false);
	bool found = false;
	while (e == 0 && !found) {
		rung_version v;
		int r = rung_history_next(&v, l.h);
		if (r < 0)
			e = r;
		else if (r == 1)
			break;
		else
			found = !strcmp(v.id, anchor);
	}
	if (e == 0 && !found) {
		rung_rows_close(&l);
		rung_wb_event ev = {.kind = RUNG_WB_ROWS};
		char head[41], top[41], last[41];
		head_of(head, c.repo);
		if ((e = load_rows(&ev.rows, &ev.nrows, top, last, b, &c)) == 0 && job_current(b, gen)) {
			rung_wb_event fin = {.kind = RUNG_WB_ROWS_MORE, .last = true};
			snprintf(fin.hash, sizeof(fin.hash), "%s", last);
			pthread_mutex_lock(&b->q.lock);
			poll_mark_locked(b, head, top);
			pthread_mutex_unlock(&b->q.lock);
			rung__wb_post(b, &ev);
			rung__wb_post(b, &fin);
		} else if (e == 0) {
			b->sink.rows_free(b->sink.ud, ev.rows, ev.nrows);
		}
	}
	char at[41];
	snprintf(at, sizeof(at), "%s", anchor);
	while (e == 0 && found && job_current(b, gen)) {
		rung_wb_event ev = {.kind = RUNG_WB_ROWS_MORE};
		rung_wb_row *rows;
		if ((e = loader_next(&rows, &ev.nrows, &l, &c, REST_CHUNK, b, gen)) < 0)
			break;
		if (!job_current(b, gen)) { /* a quit or a task switch in the chunk */
			rung_wb_rows_free(rows, ev.nrows);
			break;
		}
		snprintf(ev.hash, sizeof(ev.hash), "%s", at);
		if (ev.nrows)
			snprintf(at, sizeof(at), "%s", rows[ev.nrows - 1].vr.v.id);
		ev.last = l.done;
		if ((e = sink_rows(&ev.rows, b, rows, ev.nrows)) < 0)
			break;
		rung__wb_post(b, &ev);
		if (l.done)
			break;
	}
	if (found)
		rung_rows_close(&l);
	rung_vctx_close(&c);
	if (e == 0)
		return;
	post_message(b, "loading failed: %s", rung_error_last());
done:
	/* the list stays as it is: not loading any more */
	if (job_current(b, gen)) {
		rung_wb_event fin = {.kind = RUNG_WB_ROWS_MORE, .last = true};
		snprintf(fin.hash, sizeof(fin.hash), "%s", anchor);
		rung__wb_post(b, &fin);
	}
}

/* ---- evaluation, in this process (app/pipeline.h) ----
 *
 * The runner owns a persistent worker (a rung_evaler: the worker process
 * stays the crash boundary) and its own handles on the task being evaluated.
 * The queue is taken in batches (the items of one task with the same
 * sanitize request) and run through rung_evaler_run_all, whose compile
 * threads work ahead of the GPU. Progress (the protocol's step, fraction and
 * message) and each result arrive as events. */

typedef struct {
	rung_wb *b;
	unsigned gen;
	double last_post; /* monotonic seconds of the last progress event */
	int last_index;
	rung_step_id last_step;
} eval_batch;

static void batch_progress(void *ud, int index, int total, const rung_version *v, rung_step_id step, double frac,
			   const char *msg)
{
	eval_batch *eb = ud;
	(void)total;
	(void)msg;
	double now = rung_now_s();
	/* at most one event per 50 ms within a rung: the UI redraws per event */
	if (index == eb->last_index && step == eb->last_step && now - eb->last_post < 0.05)
		return;
	eb->last_index = index;
	eb->last_step = step;
	eb->last_post = now;
	rung_wb_event ev = {.kind = RUNG_WB_PROGRESS, .step = step, .frac = frac >= 0 && frac <= 1 ? frac : 0};
	snprintf(ev.hash, sizeof(ev.hash), "%s", v ? v->id : "");
	rung__wb_post(eb->b, &ev);
}

/* A version's evaluation ended (err < 0: failed, the message says why): the
 * job's last step, on the thread that runs the batch. Its result goes to the
 * front end when the task is still the one shown (else it is only counted).
 * A step after the evaluation for this version belongs here, before the
 * result is handed on; the sanitize gate, which looks at every version of
 * the task, runs after the batch (gate_after_batch). */
static void batch_done(void *ud, int i, const rung_version *v, rung_result *r, int err)
{
	eval_batch *eb = ud;
	(void)i;
	rung_wb_event ev = {.kind = RUNG_WB_RESULT};
	snprintf(ev.hash, sizeof(ev.hash), "%s", v->id);
	if (err < 0) {
		rung_wb_event msg = {.kind = RUNG_WB_MESSAGE};
		snprintf(msg.text, sizeof(msg.text), "evaluate %.7s: %.200s", v->id, rung_error_last());
		rung__wb_post(eb->b, &msg);
	} else if (job_current(eb->b, eb->gen)) {
		ev.result = malloc(sizeof(*ev.result));
		if (ev.result) {
			*ev.result = *r; /* moved: the front end owns it now */
			rung_result_init(r);
		}
	}
	rung__wb_post(eb->b, &ev);
}

static void post_done_result(rung_wb *b, const char *hash)
{
	rung_wb_event done = {.kind = RUNG_WB_RESULT};
	snprintf(done.hash, sizeof(done.hash), "%s", hash);
	rung__wb_post(b, &done);
}

/* ---- the sanitize gate after a batch (app/sanitize_gate.h) ----
 *
 * As `rung eval` does after its versions: the would-be best (the fastest
 * passing version of the task) is sanitized before it is recommended, here
 * on the runner, with the same step (rung_gate_batch). Its start is posted as
 * RUNG_WB_QUEUED with the sanitize step (the front end marks the version
 * "sanitizing"), the sanitize rung's progress as RUNG_WB_PROGRESS, its end
 * as RUNG_WB_RESULT with the result as stored (the front end decides the
 * best again) and a message in the CLI's words. A task switch or quit kills
 * the worker under compute-sanitizer (gate_cancel): neither waits for it. */

typedef struct {
	rung_wb *b;
	unsigned gen;
	bool started;    /* QUEUED posted for hash, RESULT not yet */
	char hash[41], short_id[16];
	double last_post;
} gate_run;

static void gate_progress(void *ud, rung_step_id step, double frac, const char *msg)
{
	gate_run *g = ud;
	(void)step;
	(void)msg;
	double now = rung_now_s();
	if (!g->started || now - g->last_post < 0.05)
		return;
	g->last_post = now;
	rung_wb_event ev = {.kind = RUNG_WB_PROGRESS, .step = RUNG_STEP_SANITIZE, .frac = frac >= 0 && frac <= 1 ? frac : 0};
	snprintf(ev.hash, sizeof(ev.hash), "%s", g->hash);
	rung__wb_post(g->b, &ev);
}

/* A copy of r for the front end (NULL when out of memory). */
static rung_result *result_copy(const rung_result *r)
{
	char *j = rung_result_to_json(r);
	rung_result *c = j ? malloc(sizeof(*c)) : NULL;
	if (c && rung_result_from_json(c, j) < 0) {
		free(c);
		c = NULL;
		rung_error_clear();
	}
	if (c) /* as its evaluation here gave it (the store's copy reads as reused) */
		c->cached = false;
	free(j);
	return c;
}

static void gate_event(void *ud, const rung_gate_event *ev)
{
	gate_run *g = ud;
	rung_wb_event msg = {.kind = RUNG_WB_MESSAGE};
	if (ev->kind == RUNG_GATE_EV_START) {
		snprintf(g->hash, sizeof(g->hash), "%s", ev->v->id);
		snprintf(g->short_id, sizeof(g->short_id), "%s", ev->v->short_id);
		rung_wb_event q = {.kind = RUNG_WB_QUEUED, .step = RUNG_STEP_SANITIZE};
		snprintf(q.hash, sizeof(q.hash), "%s", g->hash);
		g->started = rung__wb_post(g->b, &q) == 0;
		char tl[128];
		rung_san_tools_format(tl, sizeof(tl), ev->tools);
		snprintf(msg.text, sizeof(msg.text), "sanitizing %s before it is recommended (the fastest passing version, %.4g ms): %s",
			 g->short_id, ev->median_ms, tl);
		rung__wb_post(g->b, &msg);
		return;
	}
	char d[700];
	rung_gate_describe(d, sizeof(d), ev->r, ev->tools, ev->state == RUNG_GATE_UNSANITIZED ? ev->why : NULL);
	if (ev->state == RUNG_GATE_UNSANITIZED)
		snprintf(msg.text, sizeof(msg.text), "%s: unsanitized (%.200s)", ev->v->short_id, ev->why);
	else if (snprintf(msg.text, sizeof(msg.text), "%s: %.200s%s%s", ev->v->short_id, d,
			  ev->reused ? " (the run of the same machine code)" : "",
			  ev->state == RUNG_GATE_FAILED ? "; not best" : "") < 0)
		msg.text[0] = 0; /* a long line is cut: the status bar shows its head */
	if (g->started && !strcmp(g->hash, ev->v->id)) {
		rung_wb_event res = {.kind = RUNG_WB_RESULT};
		snprintf(res.hash, sizeof(res.hash), "%s", g->hash);
		if (job_current(g->b, g->gen))
			res.result = result_copy(ev->r);
		if (rung__wb_post(g->b, &res) < 0 && res.result) {
			rung_result_clear(res.result);
			free(res.result);
		}
		g->started = false;
	}
	rung__wb_post(g->b, &msg);
}

/* The gate for the task of generation gen (the evaluator's handles are on
 * it: a batch or the probe opened them), unless it was switched since or
 * the service is stopping. On the runner, when nothing else is queued. */
static void gate_after_batch(rung_wb *b, unsigned gen)
{
	rung__wb_eval *x = &b->eval;
	rung_evaler *ev = &x->evaler;
	if (!ev->env.valid || (ev->opts.flags & RUNG_EVAL_COMPILE_ONLY) || ev->cancel)
		return; /* no GPU: the best stays provisional (the front end says why) */
	pthread_mutex_lock(&b->q.lock);
	bool current = gen == b->task_gen && !b->q.stop && x->ctx_open && x->gen == gen;
	if (current)
		x->gate_cancel = 0;
	pthread_mutex_unlock(&b->q.lock);
	if (!current)
		return;
	gate_run g = {.b = b, .gen = gen};
	rung_eval_opts keep = ev->opts;
	ev->opts.cancel = &x->gate_cancel;
	ev->opts.sanitize_set = false; /* the gate's tools are its own (rung_gate_tools) */
	rung_gate_report rep;
	int e = rung_gate_batch(&rep, ev, gate_event, gate_progress, &g);
	ev->opts = keep;
	if (g.started) { /* stopped in the middle (a task switch, a quit): counted, the row as it was */
		post_done_result(b, g.hash);
		g.started = false;
	}
	if (e < 0 && x->gate_cancel)
		post_message(b, "%s", "sanitize stopped: the task was switched");
	else if (e < 0)
		post_message(b, "sanitize before best: %s", rung_error_last());
	rung_error_clear();
}

/* The handles and the worker for task (taskdir, gen): opened on first use,
 * the handles again after a task switch; the worker is kept. */
static int eval_open(rung_wb *b, const char *taskdir, unsigned gen, bool quiet)
{
	rung__wb_eval *x = &b->eval;
	if (x->ctx_open && x->gen == gen)
		return 0;
	if (x->ctx_open) {
		rung_vctx_close(&x->ctx);
		x->ctx_open = false;
	}
	int e = rung_wb_open_ctx(&x->ctx, b, taskdir, NULL, 0);
	if (e < 0)
		return e;
	x->ctx_open = true;
	x->gen = gen;
	if (!x->evaler_open) {
		/* One local worker, or the pool (--workers) opened now; a pooled
		 * batch posts no progress messages (app/pipeline.h): the rows go
		 * from queued to their result, the workers' status says who runs
		 * what (rung_wb_workers). */
		if (x->pooled && !x->pool_open) {
			if ((e = rung_pool_open(&x->pool)) < 0)
				return e;
			x->pool_open = true;
		}
		if ((e = x->pooled ? rung_evaler_open_pool(&x->evaler, &x->ctx, 0, &x->pool)
				   : rung_evaler_open(&x->evaler, &x->ctx, 0)) < 0)
			return e;
		x->evaler_open = true;
		if (!x->evaler.env.valid && !quiet) {
			rung_wb_event msg = {.kind = RUNG_WB_MESSAGE};
			snprintf(msg.text, sizeof(msg.text), "no GPU: %.200s (the compile rung runs; its verdict is kept)",
				 x->evaler.no_gpu);
			rung__wb_post(b, &msg);
		}
	} else {
		rung_evaler_retarget(&x->evaler, &x->ctx);
	}
	return 0;
}

/* Each item counted done without a result. */
static void post_done(rung_wb *b, const char *hash)
{
	rung_wb_event done = {.kind = RUNG_WB_RESULT};
	snprintf(done.hash, sizeof(done.hash), "%s", hash);
	rung__wb_post(b, &done);
}

/* Evaluates items[0..n) (one task, one sanitize request) in this process. */
static void evaluate_batch(rung_wb *b, const rung__wb_item *items, int n)
{
	rung__wb_eval *x = &b->eval;
	unsigned gen = items[0].gen;
	rung_version *vs = calloc((size_t)n, sizeof(*vs));
	int nv = 0;
	int e = vs ? eval_open(b, items[0].taskdir, gen, false) : rung_error_set(RUNG_ENOMEM, "out of memory");
	for (int i = 0; e == 0 && i < n; i++) {
		if (rung_version_at(&vs[nv], x->ctx.repo, items[i].hash, x->ctx.task.kernel_path) == 0) {
			nv++;
			continue;
		}
		rung_wb_event msg = {.kind = RUNG_WB_MESSAGE};
		snprintf(msg.text, sizeof(msg.text), "evaluate %.7s: %.200s", items[i].hash, rung_error_last());
		rung__wb_post(b, &msg);
		post_done(b, items[i].hash);
	}
	if (e < 0) { /* nothing ran: each item is counted done, the reason shown */
		post_message(b, "evaluate: %s", rung_error_last());
		for (int i = 0; i < n; i++)
			post_done(b, items[i].hash);
		free(vs);
		return;
	}
	rung_evaler *ev = &x->evaler;
	ev->opts.sanitize_set = items[0].sanitize != 0;
	ev->opts.sanitize = items[0].sanitize;
	eval_batch eb = {.b = b, .gen = gen, .last_index = -1, .last_step = RUNG_NSTEPS};
	ev->progress = batch_progress;
	ev->progress_ud = &eb;
	ev->cancel = 0;
	/* a quit that came before this reset still stops the batch */
	pthread_mutex_lock(&b->q.lock);
	if (b->q.stop)
		ev->cancel = 1;
	pthread_mutex_unlock(&b->q.lock);
	if (nv && rung_evaler_run_all(ev, vs, nv, x->jobs, batch_done, &eb) < 0)
		post_message(b, "evaluate: %s", rung_error_last());
	/* versions a task switch or quit left: counted, not run */
	if (ev->cancel)
		post_message(b, "%s", "evaluation stopped: the task was switched");
	ev->progress = NULL;
	/* no version recommended before it passed the sanitizer: once the
	 * queue is empty (the runner) */
	if (nv) {
		pthread_mutex_lock(&b->q.lock);
		b->q.gate = true;
		b->q.gate_at = rung_now_s();
		b->q.gate_gen = gen;
		pthread_mutex_unlock(&b->q.lock);
	}
	free(vs);
}

/* Seconds the gate waits after the probe for the evaluations it leads to. */
#define GATE_SETTLE_S 1.0

/* The probe: the worker that evaluations use is opened now (no second
 * worker, one CUDA context) and says whether there is a GPU. */
static void probe_in_thread(rung_wb *b)
{
	unsigned gen;
	char *task = rung__wb_task_snapshot(b, &gen);
	int e = eval_open(b, task, gen, true);
	free(task);
	if (e < 0) {
		post_message(b, "auto-evaluation: %s", rung_error_last());
		return;
	}
	rung_wb_event ev = {.kind = RUNG_WB_PROBE, .gpu = b->eval.evaler.env.valid};
	snprintf(ev.text, sizeof(ev.text), "%.255s", ev.gpu ? b->eval.evaler.env.gpu : b->eval.evaler.no_gpu);
	rung__wb_post(b, &ev);
	/* a would-be best stored unsanitized gets the gate even when nothing is
	 * evaluated (as `rung eval` with nothing to evaluate); after a moment,
	 * so that the evaluations the probe's answer queues go first */
	if (ev.gpu) {
		pthread_mutex_lock(&b->q.lock);
		b->q.gate = true;
		b->q.gate_at = rung_now_s() + GATE_SETTLE_S;
		b->q.gate_gen = gen;
		pthread_mutex_unlock(&b->q.lock);
	}
}

/* ---- the runner ---- */

/* Waits (under q.lock) until at (monotonic seconds: the probe's time, the
 * gate's) or a signal. */
static void wait_until_locked(rung_wb *b, double at)
{
	/* the worker process (NVRTC loaded, the driver probed: ~40 ms) starts
	 * once the first frames are up: a person who quits at once is not
	 * kept waiting for it (#28, first frame and exit against tig) */
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	double left = at - rung_now_s();
	long ns = ts.tv_nsec + (long)(left * 1e9);
	ts.tv_sec += ns / 1000000000L;
	ts.tv_nsec = ns % 1000000000L;
	pthread_cond_timedwait(&b->q.cond, &b->q.lock, &ts);
}

/* The leading items of one task with the same sanitize request, taken off
 * the queue (under q.lock) into a new array (*one when out of memory). */
static rung__wb_item *take_batch_locked(rung_wb *b, int *n, rung__wb_item *one)
{
	rung__wb_queue *q = &b->q;
	int k = 1;
	while (k < q->n && q->items[k].gen == q->items[0].gen && q->items[k].sanitize == q->items[0].sanitize)
		k++;
	rung__wb_item *batch = malloc((size_t)k * sizeof(*batch));
	if (batch) {
		memcpy(batch, q->items, (size_t)k * sizeof(*batch));
	} else {
		k = 1;
		*one = q->items[0];
		batch = one;
	}
	memmove(q->items, q->items + k, (size_t)(q->n - k) * sizeof(q->items[0]));
	q->n -= k;
	*n = k;
	return batch;
}

static void *runner_main(void *arg)
{
	rung_wb *b = arg;
	rung__wb_queue *q = &b->q;
	pthread_mutex_lock(&q->lock);
	while (!q->stop) {
		if (q->fill) {
			unsigned gen = q->fill_gen;
			q->fill = false;
			pthread_mutex_unlock(&q->lock);
			fill_in_thread(b, gen);
			pthread_mutex_lock(&q->lock);
			continue;
		}
		if (!q->rest && !q->reload && !q->n && !q->probe && q->gate) {
			/* the sanitize gate, when nothing else is queued */
			if (rung_now_s() < q->gate_at) {
				wait_until_locked(b, q->gate_at);
				continue;
			}
			q->gate = false;
			unsigned gen = q->gate_gen;
			pthread_mutex_unlock(&q->lock);
			gate_after_batch(b, gen);
			pthread_mutex_lock(&q->lock);
			continue;
		}
		if (!q->rest && !q->reload && !q->n && !q->probe) {
			pthread_cond_wait(&q->cond, &q->lock);
			continue;
		}
		if (q->rest) {
			char anchor[41];
			unsigned gen = q->rest_gen;
			snprintf(anchor, sizeof(anchor), "%s", q->rest_anchor);
			q->rest = false;
			pthread_mutex_unlock(&q->lock);
			rest_in_thread(b, anchor, gen);
			pthread_mutex_lock(&q->lock);
			continue;
		}
		if (q->probe && !q->n && !q->reload && rung_now_s() < q->probe_at) {
			wait_until_locked(b, q->probe_at);
			continue;
		}
		if (q->probe) {
			q->probe = false;
			pthread_mutex_unlock(&q->lock);
			probe_in_thread(b);
			pthread_mutex_lock(&q->lock);
			continue;
		}
		if (q->n) {
			rung__wb_item one;
			int n;
			rung__wb_item *batch = take_batch_locked(b, &n, &one);
			pthread_mutex_unlock(&q->lock);
			evaluate_batch(b, batch, n);
			for (int i = 0; i < n; i++)
				free(batch[i].taskdir);
			if (batch != &one)
				free(batch);
			pthread_mutex_lock(&q->lock);
			continue;
		}
		q->reload = false;
		pthread_mutex_unlock(&q->lock);
		reload_in_thread(b);
		pthread_mutex_lock(&q->lock);
	}
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

static int ensure_runner(rung_wb *b)
{
	if (b->q.running)
		return 0;
	if (pthread_create(&b->q.thread, NULL, runner_main, b) != 0)
		return rung_error_set(RUNG_EIO, "cannot start the background thread");
	b->q.running = true;
	return 0;
}

int rung_wb_rest(rung_wb *b, const char *anchor)
{
	int e = ensure_runner(b);
	if (e < 0)
		return e;
	pthread_mutex_lock(&b->q.lock);
	b->q.rest = true;
	b->q.rest_gen = b->task_gen;
	snprintf(b->q.rest_anchor, sizeof(b->q.rest_anchor), "%s", anchor);
	pthread_cond_signal(&b->q.cond);
	pthread_mutex_unlock(&b->q.lock);
	return 0;
}

int rung_wb_reload(rung_wb *b)
{
	int e = ensure_runner(b);
	if (e < 0)
		return e;
	pthread_mutex_lock(&b->q.lock);
	b->q.reload = true;
	pthread_cond_signal(&b->q.cond);
	pthread_mutex_unlock(&b->q.lock);
	return 0;
}

int rung_wb_probe(rung_wb *b, double delay_s)
{
	int e = ensure_runner(b);
	if (e < 0)
		return e;
	pthread_mutex_lock(&b->q.lock);
	b->q.probe = true;
	b->q.probe_at = rung_now_s() + delay_s;
	pthread_cond_signal(&b->q.cond);
	pthread_mutex_unlock(&b->q.lock);
	return 0;
}

int rung_wb_submit(rung_wb *b, const char *hash, unsigned sanitize)
{
	rung__wb_queue *q = &b->q;
	int e = ensure_runner(b);
	if (e < 0)
		return e;
	pthread_mutex_lock(&q->lock);
	if (q->n == q->cap) {
		int cap = q->cap ? q->cap * 2 : 16;
		rung__wb_item *ni = realloc(q->items, (size_t)cap * sizeof(*ni));
		if (!ni) {
			pthread_mutex_unlock(&q->lock);
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		}
		q->items = ni;
		q->cap = cap;
	}
	/* QUEUED goes out before the runner can see the item: posted after it,
	 * a quick evaluation's RESULT (a compile-only one without a GPU) could
	 * land first and leave the row pending for good */
	rung_wb_event ev = {.kind = RUNG_WB_QUEUED, .step = sanitize ? RUNG_STEP_SANITIZE : RUNG_STEP_COMPILE};
	snprintf(ev.hash, sizeof(ev.hash), "%s", hash);
	if ((e = rung__wb_post(b, &ev)) < 0) {
		pthread_mutex_unlock(&q->lock);
		return e;
	}
	rung__wb_item *it = &q->items[q->n++];
	snprintf(it->hash, sizeof(it->hash), "%s", hash);
	it->taskdir = b->taskdir ? strdup(b->taskdir) : NULL;
	it->gen = b->task_gen;
	it->sanitize = sanitize;
	pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
	return 0;
}

void rung_wb_set_task(rung_wb *b, char *taskdir, char **old)
{
	pthread_mutex_lock(&b->q.lock);
	char *was = b->taskdir;
	b->taskdir = taskdir;
	b->task_gen++;
	b->eval.gate_cancel = 1; /* the old task's sanitize run is killed, not waited for */
	pthread_mutex_unlock(&b->q.lock);
	if (old)
		*old = was;
	else
		free(was);
}

/* ---- new commits: HEAD looked at every interval ----
 *
 * A thread of its own (an evaluation may keep the runner for minutes) with
 * its own repository handle: when HEAD moves, the versions newer than the
 * list's newest commit are read (with their results and notes, as a reload
 * reads them) and posted as RUNG_WB_ROWS_NEW; when that commit is no
 * longer in the history (amend, reset, rebase) the whole list is posted as
 * RUNG_WB_ROWS. Nothing is posted when a reload or a task switch read the
 * list in between (poll.gen): the next look compares with that. */

/* The versions of c newer than top (all of them when top is gone: *found
 * false), with their results and notes. */
static int rows_since(rung_wb_row **out, int *count, bool *found, rung_vctx *c, const char *top)
{
	rung_rows_loader l;
	rung_wb_row *rows = NULL;
	int n = 0, cap = 0, e;
	*found = false;
	if ((e = rung_rows_open(&l, c, NULL, false)) == 0) {
		while (!*found) {
			rung_vrow vr;
			int r = rung_rows_next(&vr, &l, c);
			if (r < 0) {
				e = r;
				break;
			}
			if (r == 1) {
				*found = !top[0]; /* the list had no commit: all are new */
				break;
			}
			if (top[0] && !strcmp(vr.v.id, top)) {
				rung_vrow_clear(&vr);
				*found = true;
				break;
			}
			if (n == cap) {
				int nc = cap ? cap * 2 : 8;
				rung_wb_row *nr = realloc(rows, (size_t)nc * sizeof(*nr));
				if (!nr) {
					rung_vrow_clear(&vr);
					e = rung_error_set(RUNG_ENOMEM, "out of memory");
					break;
				}
				memset(nr + cap, 0, (size_t)(nc - cap) * sizeof(*nr));
				rows = nr;
				cap = nc;
			}
			bench_row(&rows[n++], c, &vr, l.hash_content);
		}
		rung_rows_close(&l);
	}
	if (e < 0) {
		rung_wb_rows_free(rows, n);
		return e;
	}
	*out = rows;
	*count = n;
	return 0;
}

static void poll_once(rung_wb *b, rung_repo **repo, const char *head, const char *top, unsigned pgen)
{
	if (!*repo && rung_repo_open(repo, b->dir) < 0) {
		rung_error_clear();
		*repo = NULL;
		return;
	}
	char now[41];
	head_of(now, *repo);
	if (!strcmp(now, head))
		return;
	unsigned tgen;
	char *task = rung__wb_task_snapshot(b, &tgen);
	rung_vctx c;
	char note[256];
	int e = rung_wb_open_ctx(&c, b, task, note, sizeof(note));
	free(task);
	/* a broken spec at the new HEAD is said once (the last good one is
	 * used meanwhile); so is an error that keeps the list from being read */
	char said[256];
	snprintf(said, sizeof(said), "%s", e < 0 ? rung_error_last() : note);
	pthread_mutex_lock(&b->q.lock);
	bool say = strcmp(said, b->poll.said) != 0;
	snprintf(b->poll.said, sizeof(b->poll.said), "%s", said);
	pthread_mutex_unlock(&b->q.lock);
	if (say && said[0] && e < 0)
		post_message(b, "new commits not shown: %.200s", said);
	if (e < 0) {
		rung_error_clear();
		return;
	}
	rung_wb_row *rows = NULL;
	int n = 0;
	bool found = false;
	e = rows_since(&rows, &n, &found, &c, top);
	rung_vctx_close(&c);
	char nt[41];
	if (e == 0)
		snprintf(nt, sizeof(nt), "%s", rows_top(rows, n));
	/* found: rows are the new ones (maybe only a WORKTREE row, or none when
	 * HEAD moved without a new version); else the history was rewritten and
	 * rows are all of it */
	rung_wb_event ev = {.kind = found ? RUNG_WB_ROWS_NEW : RUNG_WB_ROWS, .nrows = n};
	if (e == 0 && (e = sink_rows(&ev.rows, b, rows, n)) < 0)
		ev.nrows = 0;
	if (e < 0) {
		rung_error_clear();
		return;
	}
	snprintf(ev.hash, sizeof(ev.hash), "%s", top);
	pthread_mutex_lock(&b->q.lock);
	bool current = pgen == b->poll.gen && tgen == b->task_gen && !b->q.stop;
	if (current) {
		poll_mark_locked(b, now, found && !nt[0] ? top : nt);
		rung__wb_post(b, &ev); /* none new: a stale WORKTREE row still goes */
		if (say && said[0]) /* after the rows, so that "new version ..." does not hide it */
			post_message(b, "%s", said);
	}
	pthread_mutex_unlock(&b->q.lock);
	if (!current)
		b->sink.rows_free(b->sink.ud, ev.rows, ev.nrows);
}

static void *poll_main(void *arg)
{
	rung_wb *b = arg;
	rung_repo *repo = NULL;
	pthread_mutex_lock(&b->q.lock);
	while (!b->q.stop) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += b->poll.interval_s;
		pthread_cond_timedwait(&b->poll.cond, &b->q.lock, &ts);
		if (b->q.stop)
			break;
		char head[41], top[41];
		snprintf(head, sizeof(head), "%s", b->poll.head);
		snprintf(top, sizeof(top), "%s", b->poll.top);
		unsigned pgen = b->poll.gen;
		pthread_mutex_unlock(&b->q.lock);
		poll_once(b, &repo, head, top, pgen);
		pthread_mutex_lock(&b->q.lock);
	}
	pthread_mutex_unlock(&b->q.lock);
	rung_repo_free(repo);
	return NULL;
}

int rung_wb_poll_start(rung_wb *b, int interval_s)
{
	if (b->poll.running)
		return 0;
	b->poll.interval_s = interval_s > 0 ? interval_s : 1;
	if (pthread_create(&b->poll.thread, NULL, poll_main, b) != 0)
		return rung_error_set(RUNG_EIO, "cannot start the poll thread");
	b->poll.running = true;
	return 0;
}

/* ---- life ---- */

/* The locks, the texts and the strings of b (not b itself). */
static void bench_destroy(rung_wb *b)
{
	pthread_mutex_destroy(&b->q.lock);
	pthread_cond_destroy(&b->q.cond);
	pthread_cond_destroy(&b->poll.cond);
	rung__wb_texts_destroy(&b->texts);
	free(b->dir);
	free(b->taskdir);
	free(b->spec_rev);
}

int rung_wb_new(rung_wb **out, const rung_wb_opts *o, rung_vctx *c, char *note, size_t len)
{
	*out = NULL;
	rung_wb *b = calloc(1, sizeof(*b));
	if (!b)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	pthread_mutex_init(&b->q.lock, NULL);
	pthread_cond_init(&b->q.cond, NULL);
	pthread_cond_init(&b->poll.cond, NULL);
	rung__wb_texts_init(&b->texts);
	b->sink = o->sink;
	b->defer_results = o->defer_results;
	b->fill_after_drawn = o->fill_after_drawn;
	b->eval.jobs = o->jobs > 0 ? o->jobs : 3;
	if (o->workers && *o->workers) {
		int e = rung_pool_parse(&b->eval.pool, o->workers);
		if (e < 0) {
			rung_error_state st;
			rung_error_save(&st);
			bench_destroy(b);
			free(b);
			st.code = e;
			return rung_error_restore(&st);
		}
		b->eval.pooled = true;
	}
	if ((o->dir && !(b->dir = strdup(o->dir))) || (o->taskdir && !(b->taskdir = strdup(o->taskdir))) ||
	    (o->spec_rev && !(b->spec_rev = strdup(o->spec_rev)))) {
		bench_destroy(b);
		free(b);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	if (c) {
		int e = rung_wb_open_ctx(c, b, o->taskdir, note, len);
		if (e < 0) {
			rung_error_state st;
			rung_error_save(&st);
			bench_destroy(b);
			free(b);
			st.code = e;
			return rung_error_restore(&st);
		}
	}
	*out = b;
	return 0;
}

int rung_wb_workers(rung_wb *b, rung_pool_status *out, int max)
{
	if (!b || !b->eval.pooled)
		return 0;
	return rung_pool_status_get(&b->eval.pool, out, max);
}

void rung_wb_free(rung_wb *b)
{
	if (!b)
		return;
	pthread_mutex_lock(&b->q.lock);
	b->q.stop = true;
	b->eval.evaler.cancel = 1; /* the version on the GPU finishes; the rest are left */
	b->eval.gate_cancel = 1;   /* a sanitize run's worker is killed */
	pthread_cond_signal(&b->q.cond);
	pthread_cond_signal(&b->poll.cond);
	pthread_mutex_unlock(&b->q.lock);
	if (b->q.running)
		pthread_join(b->q.thread, NULL);
	if (b->poll.running)
		pthread_join(b->poll.thread, NULL);
	rung__wb_texts_stop(&b->texts);
	if (b->texts.ctx_open)
		rung_vctx_close(&b->texts.ctx);
	b->texts.ctx_open = false;
	if (b->eval.evaler_open)
		rung_evaler_close(&b->eval.evaler);
	if (b->eval.pool_open)
		rung_pool_close(&b->eval.pool);
	if (b->eval.ctx_open)
		rung_vctx_close(&b->eval.ctx);
	for (int i = 0; i < b->q.n; i++)
		free(b->q.items[i].taskdir);
	free(b->q.items);
	free(b->q.fill_v);
	bench_destroy(b);
	free(b);
}

/* The model on a git repository: versions from vcs/history, results from the
 * store, verdicts and directives from git notes (refs/notes/rung). PTX and
 * SASS are compiled on demand with NVRTC (no GPU needed) and cached.
 *
 * Threads, each with its own handles; the UI never waits for any of them:
 * - the UI thread owns `ui` handles (notes, texts made on the spot);
 * - the background thread reads the rest of the first list, runs reloads (R,
 *   RUNG_EV_ROWS), the auto-evaluation probe (RUNG_EV_AUTO) and the
 *   evaluations, in this process with one persistent worker (RUNG_EV_PROGRESS,
 *   RUNG_EV_RESULT);
 * - the poller looks at HEAD every RUNG_MODEL_POLL_S and posts the versions
 *   committed since (RUNG_EV_ROWS_NEW);
 * - the texter makes the PTX and SASS asked for by text_prepare (compare),
 *   RUNG_EV_TEXT. */
#include "tui/model/model.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "core/sidecar.h"
#include "core/err.h"
#include "core/roofline.h"
#include "gpu/compile.h"
#include "gpu/nvdisasm.h"
#include "app/demo.h"
#include "app/directives.h"
#include "core/inert.h"
#include "tui/model/prof.h"
#include "app/pipeline.h"
#include "app/session.h"
#include "app/task.h"
#include "core/timing.h"
#include "gpu/sanitize.h"
#include "app/goal.h"
#include "vcs/ceil_store.h"

typedef struct {
	char hash[41];
	char *ptx, *sass;
	int err;         /* < 0: the compile failed (error says why): not tried again */
	char error[512];
} text_cache;

/* A queued evaluation: the version and the task it belongs to (at queue time). */
typedef struct {
	char hash[41];
	char *taskdir; /* NULL: as picked */
	unsigned gen;
	unsigned sanitize; /* the sanitize rung only, with these tools (RUNG_SAN_BIT mask) */
} qitem;

typedef struct {
	char *dir;     /* as given (-C) */
	char *taskdir; /* as given (NULL: pick) */
	char *spec_rev; /* rung tui --spec-rev (NULL: HEAD's, else the last good one) */
	/* the last broken-spec note the poll posted ("" none), so that it is said once per HEAD */
	char spec_said[256];
	rung_vctx ui;  /* UI-thread handles */
	text_cache *cache;
	int ncache;

	pthread_t thread;
	bool thread_running;
	pthread_mutex_t qlock;
	pthread_cond_t qcond;
	qitem *queue;
	int nqueue, cap;
	bool reload;
	bool stop;
	unsigned task_gen; /* bumped by a task switch (under qlock): older reloads are dropped */
	/* the rest of the first list, after row rest_anchor (under qlock); runs
	 * before queued evaluations and reloads */
	bool rest;
	char rest_anchor[41];
	unsigned rest_gen;

	/* rung_model_auto_evaluate: the scopes the probe picks from (under qlock),
	 * run on the background thread with its worker */
	bool probe;
	rung_auto_scope probe_gpu, probe_nogpu;
	double probe_at; /* monotonic seconds before which the probe waits (nothing else to do meanwhile) */

	/* new commits: a thread looks at HEAD every RUNG_MODEL_POLL_S. Under
	 * qlock: HEAD and the newest commit of the list as last read (load_first,
	 * a reload); poll_gen is bumped by each such read. */
	pthread_t poller;
	bool poller_running;
	pthread_cond_t pcond;
	char poll_head[41], poll_top[41];
	unsigned poll_gen;

	/* texts (PTX, SASS) made in the background (text_prepare): a thread of
	 * its own, so that a compare never waits for an evaluation. tlock guards
	 * the cache (the UI thread reads it), the queue and text_gen (bumped when
	 * the cache is cleared: a text made before is dropped). */
	pthread_t texter;
	bool texter_running, tstop;
	pthread_mutex_t tlock;
	pthread_cond_t tcond;
	char (*tq)[41];
	int ntq, tqcap;
	char tbusy[41];
	unsigned text_gen;
	rung_vctx tctx; /* the texter's handles on the task (tctx_gen) */
	bool tctx_open;
	unsigned tctx_gen;

	/* evaluation on the background thread (evaluate_batch) */
	rung_vctx ev_ctx;    /* its handles on the task evaluated */
	bool ev_ctx_open;
	unsigned ev_gen;
	rung_evaler evaler;  /* the persistent worker */
	bool evaler_open;
	int jobs;            /* versions in flight (compile threads + 1) */
	bool evaluating;     /* a batch runs (under qlock) */
	unsigned running_gen;
} git_impl;

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

static int open_ctx_note(rung_vctx *c, git_impl *g, const char *dir, const char *taskdir, char *note, size_t len);

static int open_ctx(rung_vctx *c, git_impl *g, const char *dir, const char *taskdir)
{
	return open_ctx_note(c, g, dir, taskdir, NULL, 0);
}

static int open_ctx_note(rung_vctx *c, git_impl *g, const char *dir, const char *taskdir, char *note, size_t len)
{
	memset(c, 0, sizeof(*c));
	c->cmd = "tui";
	int e = rung_repo_open(&c->repo, dir);
	if (e < 0)
		return e;
	char *tdir = NULL;
	rung_vctx_opts where = {.dir = dir, .task = taskdir};
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
		e = open_task(&c->task, c->repo, tdir, g->spec_rev, note, len);
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

/* The note's last entry, a directive's status in front when it is not a
 * plain open one: "[declined by 3c452f7: smem] try 64x64 tiles",
 * "[task-wide] never loosen tolerances" (the versions table's note). */
static const char *note_line(const rung_note *n, char *buf, size_t len)
{
	for (int k = n->ndirectives - 1; k >= 0; k--) {
		const rung_directive *d = &n->directives[k];
		if (!d->text)
			continue;
		rung_dstatus st = rung_directive_status(d);
		if (d->remark || (st == RUNG_DSTATUS_OPEN && !d->task_wide))
			return d->text;
		snprintf(buf, len, "[%s%s%s%s%.7s%s%s] %s", d->task_wide ? "task-wide" : "",
			 d->task_wide && st != RUNG_DSTATUS_OPEN ? ", " : "", st != RUNG_DSTATUS_OPEN ? rung_dstatus_name(st) : "",
			 d->answer_version[0] ? " by " : "", d->answer_version, d->answer_text ? ": " : "",
			 d->answer_text ? d->answer_text : "", d->text);
		return buf;
	}
	return n->other ? n->other : "";
}

/* src's first line into dst, cut at a whole UTF-8 character. */
static void copy_line(char *dst, size_t len, const char *src)
{
	if (!src)
		src = "";
	const char *eol = strchr(src, '\n');
	size_t n = eol ? (size_t)(eol - src) : strlen(src);
	if (n >= len)
		n = rung_utf8_whole(src, len - 1);
	memcpy(dst, src, n);
	dst[n] = 0;
}

/* The note's verdict, last entry and directives into the row (n NULL: none). */
static void row_from_note(rung_model_row *r, const rung_note *n)
{
	free(r->dirs);
	r->dirs = NULL;
	r->ndirs = 0;
	r->note[0] = 0;
	r->verdict = RUNG_VERDICT_NONE;
	if (!n)
		return;
	r->verdict = (rung_verdict)n->verdict;
	char line[512];
	copy_line(r->note, sizeof(r->note), note_line(n, line, sizeof(line)));
	int cnt = 0;
	for (int k = 0; k < n->ndirectives; k++)
		cnt += !n->directives[k].remark;
	if (!cnt || !(r->dirs = calloc((size_t)cnt, sizeof(*r->dirs))))
		return; /* out of memory: the row shows its note line alone */
	for (int k = 0; k < n->ndirectives; k++) {
		const rung_directive *d = &n->directives[k];
		if (d->remark)
			continue;
		rung_model_directive *md = &r->dirs[r->ndirs++];
		rung_directive_id(md->id, n, k);
		md->status = (rung_dir_status)rung_directive_status(d);
		md->task_wide = d->task_wide;
		md->task_done = d->task_wide && d->task_done;
		copy_line(md->text, sizeof(md->text), d->text);
		copy_line(md->author, sizeof(md->author), d->author);
		snprintf(md->by, sizeof(md->by), "%s", d->answer_version);
		copy_line(md->who, sizeof(md->who), d->answer_author);
		copy_line(md->reason, sizeof(md->reason), d->answer_text);
	}
}

/* The list read a chunk at a time through the one row loader (app/session.h:
 * versions from a revwalk that yields them without walking everything, notes
 * read once and sorted, results looked up per row with the store's cached
 * statements, no content hashed while the store holds no result). */
typedef rung_rows_loader loader;

static void loader_close(loader *l)
{
	rung_rows_close(l);
}

static int loader_open(loader *l, rung_vctx *c)
{
	return rung_rows_open(l, c, NULL, false);
}

/* One version into a row: its live result and note (the loader's), and its
 * recorded result. */
static void fill_row(rung_model_row *r, rung_vctx *c, rung_vrow *vr, bool lookups)
{
	const rung_version *v = &vr->v;
	snprintf(r->hash, sizeof(r->hash), "%s", v->id);
	snprintf(r->subject, sizeof(r->subject), "%s", v->subject);
	snprintf(r->author, sizeof(r->author), "%.63s", v->author);
	r->date = v->time;
	r->result = vr->result; /* taken over */
	vr->result = NULL;
	/* every row's result comes from the store: "cached" (the glyph) is
	 * kept for one measured on another version with the same files */
	if (r->result)
		r->result->cached = vr->via_content;
	/* kept apart from the live one: shown only while there is no live result */
	if (lookups)
		r->recorded = rung_recorded_lookup(c, v, vr->content);
	rung_model_row_sync_steps(r);
	if (vr->has_note)
		row_from_note(r, &vr->note);
}

/* Up to max more rows (max <= 0: all) into a new array (ownership to the
 * caller); l->done once history is exhausted. */
static int loader_next(rung_model_row **out, int *n, loader *l, rung_vctx *c, int max)
{
	*out = NULL;
	*n = 0;
	int cap = max > 0 ? max : 256, cnt = 0, e = 0;
	rung_model_row *rows = calloc((size_t)cap + 1, sizeof(*rows));
	if (!rows)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	while (!l->done && (max <= 0 || cnt < max)) {
		rung_vrow vr;
		e = rung_rows_next(&vr, l, c);
		if (e < 0)
			break;
		if (e == 1) {
			e = 0;
			break;
		}
		if (cnt == cap) {
			rung_model_row *nr = realloc(rows, ((size_t)cap * 2 + 1) * sizeof(*nr));
			if (!nr) {
				rung_vrow_clear(&vr);
				e = rung_error_set(RUNG_ENOMEM, "out of memory");
				break;
			}
			memset(nr + cap, 0, ((size_t)cap + 1) * sizeof(*nr));
			rows = nr;
			cap *= 2;
		}
		fill_row(&rows[cnt++], c, &vr, l->hash_content);
		rung_vrow_clear(&vr);
	}
	if (e < 0) {
		rung_model_rows_free(rows, cnt);
		return e;
	}
	*out = rows;
	*n = cnt;
	return 0;
}

/* Reads every version with its result and note into rows (ownership to caller). */
static int load_rows(rung_model_row **out, int *n, rung_vctx *c)
{
	loader l;
	*out = NULL;
	*n = 0;
	int e = loader_open(&l, c);
	if (e == 0)
		e = loader_next(out, n, &l, c, 0);
	loader_close(&l);
	return e;
}

/* Rows read before the first frame; the rest come from the background
 * (RUNG_EV_ROWS_MORE). A screenful at least, and twice a tall terminal's. */
static int first_rows(void)
{
	struct winsize ws;
	int n = 100;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row * 2 > n)
		n = ws.ws_row * 2;
	return n;
}

/* Rows posted per RUNG_EV_ROWS_MORE (the UI rebuilds its table per event;
 * a quit waits for at most one chunk). */
enum { REST_CHUNK = 500 };

static void post_message(rung_model *m, const char *fmt, const char *arg)
{
	rung_model_event ev = {.kind = RUNG_EV_MESSAGE};
	snprintf(ev.text, sizeof(ev.text), fmt, arg);
	rung_model_post(m, &ev);
}

/* The newest commit of rows (a WORKTREE row on top skipped), "" when none. */
static const char *rows_top(const rung_model_row *rows, int n)
{
	for (int i = 0; i < n && i < 2; i++)
		if (strcmp(rows[i].hash, "WORKTREE"))
			return rows[i].hash;
	return "";
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
 * for commits after it from now on (under qlock). */
static void poll_mark_locked(git_impl *g, const char *head, const char *top)
{
	snprintf(g->poll_head, sizeof(g->poll_head), "%s", head);
	snprintf(g->poll_top, sizeof(g->poll_top), "%s", top);
	g->poll_gen++;
}

/* The task directory and generation a background job works on (under qlock). */
static char *task_snapshot(git_impl *g, unsigned *gen)
{
	pthread_mutex_lock(&g->qlock);
	char *t = g->taskdir ? strdup(g->taskdir) : NULL;
	*gen = g->task_gen;
	pthread_mutex_unlock(&g->qlock);
	return t;
}

static void reload_in_thread(rung_model *m, git_impl *g)
{
	unsigned gen;
	char *task = task_snapshot(g, &gen);
	rung_vctx c;
	char note[256];
	if (open_ctx_note(&c, g, g->dir, task, note, sizeof(note)) < 0) {
		post_message(m, "reload failed: %s", rung_error_last());
		free(task);
		return;
	}
	free(task);
	if (note[0]) /* the reload goes on with the last good spec, and says so */
		post_message(m, "%s", note);
	else
		post_message(m, "%s", "reloaded");
	rung_model_event ev = {.kind = RUNG_EV_ROWS};
	char head[41];
	head_of(head, c.repo);
	if (load_rows(&ev.rows, &ev.nrows, &c) < 0) {
		post_message(m, "reload failed: %s", rung_error_last());
	} else {
		/* a task switch while loading: these rows belong to the old task */
		pthread_mutex_lock(&g->qlock);
		bool current = gen == g->task_gen;
		if (current) {
			poll_mark_locked(g, head, rows_top(ev.rows, ev.nrows));
			rung_model_post(m, &ev);
		}
		pthread_mutex_unlock(&g->qlock);
		if (!current)
			rung_model_rows_free(ev.rows, ev.nrows);
	}
	rung_vctx_close(&c);
}

static bool job_current(git_impl *g, unsigned gen)
{
	pthread_mutex_lock(&g->qlock);
	bool current = gen == g->task_gen && !g->stop;
	pthread_mutex_unlock(&g->qlock);
	return current;
}

/* The rest of the first list: walks past the rows shown (cheap: no sources,
 * no store), then reads the others a chunk at a time and posts each as
 * RUNG_EV_ROWS_MORE; the last one says the list is complete. Stops early on a
 * task switch or quit. When the row shown last is gone (history rewritten in
 * between), posts the whole list as RUNG_EV_ROWS instead. */
static void rest_in_thread(rung_model *m, git_impl *g, const char *anchor, unsigned gen)
{
	unsigned tgen;
	char *task = task_snapshot(g, &tgen);
	rung_vctx c;
	if (tgen != gen || open_ctx(&c, g, g->dir, task) < 0) {
		if (tgen == gen)
			post_message(m, "loading failed: %s", rung_error_last());
		free(task);
		goto done;
	}
	free(task);
	loader l;
	int e = loader_open(&l, &c);
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
		loader_close(&l);
		rung_model_event ev = {.kind = RUNG_EV_ROWS};
		char head[41];
		head_of(head, c.repo);
		if ((e = load_rows(&ev.rows, &ev.nrows, &c)) == 0 && job_current(g, gen)) {
			rung_model_event fin = {.kind = RUNG_EV_ROWS_MORE, .last = true};
			snprintf(fin.hash, sizeof(fin.hash), "%s", ev.nrows ? ev.rows[ev.nrows - 1].hash : "");
			pthread_mutex_lock(&g->qlock);
			poll_mark_locked(g, head, rows_top(ev.rows, ev.nrows));
			pthread_mutex_unlock(&g->qlock);
			rung_model_post(m, &ev);
			rung_model_post(m, &fin);
		} else {
			rung_model_rows_free(ev.rows, ev.nrows);
		}
	}
	char at[41];
	snprintf(at, sizeof(at), "%s", anchor);
	while (e == 0 && found && job_current(g, gen)) {
		rung_model_event ev = {.kind = RUNG_EV_ROWS_MORE};
		if ((e = loader_next(&ev.rows, &ev.nrows, &l, &c, REST_CHUNK)) < 0)
			break;
		snprintf(ev.hash, sizeof(ev.hash), "%s", at);
		if (ev.nrows)
			snprintf(at, sizeof(at), "%s", ev.rows[ev.nrows - 1].hash);
		ev.last = l.done;
		rung_model_post(m, &ev);
		if (l.done)
			break;
	}
	if (found)
		loader_close(&l);
	rung_vctx_close(&c);
	if (e == 0)
		return;
	post_message(m, "loading failed: %s", rung_error_last());
done:
	/* the list stays as it is: not loading any more */
	if (job_current(g, gen)) {
		rung_model_event fin = {.kind = RUNG_EV_ROWS_MORE, .last = true};
		snprintf(fin.hash, sizeof(fin.hash), "%s", anchor);
		rung_model_post(m, &fin);
	}
}

/* ---- evaluation, in this process (app/pipeline.h) ----
 *
 * The background thread owns a persistent worker (a rung_evaler: the worker
 * process stays the crash boundary) and its own handles on the task being
 * evaluated. The queue is taken in batches (the items of one task with the
 * same sanitize request) and run through rung_evaler_run_all, whose compile
 * threads work ahead of the GPU. Progress (the protocol's step, fraction and
 * message) and each result arrive as model events: the changed row is
 * updated, with no reload. */

typedef struct {
	rung_model *m;
	git_impl *g;
	unsigned gen;
	double last_post; /* monotonic seconds of the last progress event */
	int last_index;
	rung_step_id last_step;
} eval_batch;

static bool gen_current(git_impl *g, unsigned gen)
{
	pthread_mutex_lock(&g->qlock);
	bool current = gen == g->task_gen && !g->stop;
	pthread_mutex_unlock(&g->qlock);
	return current;
}

static void batch_progress(void *ud, int index, int total, const rung_version *v, rung_step_id step, double frac,
			   const char *msg)
{
	eval_batch *b = ud;
	(void)total;
	(void)msg;
	double now = rung_now_s();
	/* at most one event per 50 ms within a rung: the UI redraws per event */
	if (index == b->last_index && step == b->last_step && now - b->last_post < 0.05)
		return;
	b->last_index = index;
	b->last_step = step;
	b->last_post = now;
	rung_model_event ev = {.kind = RUNG_EV_PROGRESS, .step = step, .frac = frac >= 0 && frac <= 1 ? frac : 0};
	snprintf(ev.hash, sizeof(ev.hash), "%s", v ? v->id : "");
	rung_model_post(b->m, &ev);
}

static void batch_done(void *ud, int i, const rung_version *v, rung_result *r, int err)
{
	eval_batch *b = ud;
	(void)i;
	rung_model_event ev = {.kind = RUNG_EV_RESULT};
	snprintf(ev.hash, sizeof(ev.hash), "%s", v->id);
	if (err < 0) {
		rung_model_event msg = {.kind = RUNG_EV_MESSAGE};
		snprintf(msg.text, sizeof(msg.text), "evaluate %.7s: %.200s", v->id, rung_error_last());
		rung_model_post(b->m, &msg);
	} else if (gen_current(b->g, b->gen)) { /* else a row of another task: only counted */
		ev.result = malloc(sizeof(*ev.result));
		if (ev.result) {
			*ev.result = *r; /* moved: the model owns it now */
			rung_result_init(r);
		}
	}
	rung_model_post(b->m, &ev);
}

/* The handles and the worker for task (taskdir, gen): opened on first use,
 * the handles again after a task switch; the worker is kept. */
static int eval_open(rung_model *m, git_impl *g, const char *taskdir, unsigned gen, bool quiet)
{
	if (g->ev_ctx_open && g->ev_gen == gen)
		return 0;
	if (g->ev_ctx_open) {
		rung_vctx_close(&g->ev_ctx);
		g->ev_ctx_open = false;
	}
	int e = open_ctx(&g->ev_ctx, g, g->dir, taskdir);
	if (e < 0)
		return e;
	g->ev_ctx_open = true;
	g->ev_gen = gen;
	if (!g->evaler_open) {
		if ((e = rung_evaler_open(&g->evaler, &g->ev_ctx, 0)) < 0)
			return e;
		g->evaler_open = true;
		if (!g->evaler.env.valid && !quiet) {
			rung_model_event msg = {.kind = RUNG_EV_MESSAGE};
			snprintf(msg.text, sizeof(msg.text), "no GPU: %.200s (the compile rung runs; nothing is stored)",
				 g->evaler.no_gpu);
			rung_model_post(m, &msg);
		}
	} else {
		rung_evaler_retarget(&g->evaler, &g->ev_ctx);
	}
	return 0;
}

/* Evaluates items[0..n) (one task, one sanitize request) in this process. */
static void evaluate_batch(rung_model *m, git_impl *g, const qitem *items, int n)
{
	unsigned gen = items[0].gen;
	rung_version *vs = calloc((size_t)n, sizeof(*vs));
	int nv = 0;
	int e = vs ? eval_open(m, g, items[0].taskdir, gen, false) : rung_error_set(RUNG_ENOMEM, "out of memory");
	for (int i = 0; e == 0 && i < n; i++) {
		if (rung_version_at(&vs[nv], g->ev_ctx.repo, items[i].hash, g->ev_ctx.task.kernel_path) == 0) {
			nv++;
			continue;
		}
		rung_model_event msg = {.kind = RUNG_EV_MESSAGE};
		snprintf(msg.text, sizeof(msg.text), "evaluate %.7s: %.200s", items[i].hash, rung_error_last());
		rung_model_post(m, &msg);
		rung_model_event done = {.kind = RUNG_EV_RESULT};
		snprintf(done.hash, sizeof(done.hash), "%s", items[i].hash);
		rung_model_post(m, &done);
	}
	if (e < 0) { /* nothing ran: each item is counted done, the reason shown */
		post_message(m, "evaluate: %s", rung_error_last());
		for (int i = 0; i < n; i++) {
			rung_model_event done = {.kind = RUNG_EV_RESULT};
			snprintf(done.hash, sizeof(done.hash), "%s", items[i].hash);
			rung_model_post(m, &done);
		}
		free(vs);
		return;
	}
	rung_evaler *ev = &g->evaler;
	ev->opts.sanitize_set = items[0].sanitize != 0;
	ev->opts.sanitize = items[0].sanitize;
	eval_batch b = {.m = m, .g = g, .gen = gen, .last_index = -1, .last_step = RUNG_NSTEPS};
	ev->progress = batch_progress;
	ev->progress_ud = &b;
	ev->cancel = 0;
	if (nv && rung_evaler_run_all(ev, vs, nv, g->jobs, batch_done, &b) < 0)
		post_message(m, "evaluate: %s", rung_error_last());
	/* versions a task switch or quit left: counted, not run */
	if (ev->cancel)
		post_message(m, "%s", "evaluation stopped: the task was switched");
	ev->progress = NULL;
	free(vs);
}

/* rung_model_auto_evaluate's probe: the worker that evaluations use is
 * opened now (no second worker, one CUDA context) and says whether there is a
 * GPU; the scope follows from that. */
static void probe_in_thread(rung_model *m, git_impl *g, rung_auto_scope with_gpu, rung_auto_scope without_gpu)
{
	unsigned gen;
	char *task = task_snapshot(g, &gen);
	int e = eval_open(m, g, task, gen, true);
	free(task);
	if (e < 0) {
		post_message(m, "auto-evaluation: %s", rung_error_last());
		return;
	}
	bool gpu = g->evaler.env.valid;
	rung_auto_scope scope = gpu ? with_gpu : without_gpu;
	rung_model_event ev = {.kind = RUNG_EV_MESSAGE};
	if (gpu)
		snprintf(ev.text, sizeof(ev.text), "%.120s: evaluating every version %s", g->evaler.env.gpu,
			 scope == RUNG_AUTO_MISSING ? "without a live result here" : "of your own here");
	else if (scope == RUNG_AUTO_MISSING)
		snprintf(ev.text, sizeof(ev.text), "no GPU: the compile rung of every version runs (%.180s)",
			 g->evaler.no_gpu);
	else
		snprintf(ev.text, sizeof(ev.text), "no GPU: showing recorded results (%.160s)%s", g->evaler.no_gpu,
			 scope == RUNG_AUTO_UNSEEN ? "; versions without any get their compile rung" : "");
	rung_model_post(m, &ev);
	rung_model_event go = {.kind = RUNG_EV_AUTO, .scope = scope};
	rung_model_post(m, &go);
}

static void *worker_main(void *arg)
{
	rung_model *m = arg;
	git_impl *g = m->impl;
	pthread_mutex_lock(&g->qlock);
	while (!g->stop) {
		if (!g->rest && !g->reload && !g->nqueue && !g->probe) {
			pthread_cond_wait(&g->qcond, &g->qlock);
			continue;
		}
		if (g->rest) {
			char anchor[41];
			unsigned gen = g->rest_gen;
			snprintf(anchor, sizeof(anchor), "%s", g->rest_anchor);
			g->rest = false;
			pthread_mutex_unlock(&g->qlock);
			rest_in_thread(m, g, anchor, gen);
			pthread_mutex_lock(&g->qlock);
			continue;
		}
		if (g->probe && !g->nqueue && !g->reload && rung_now_s() < g->probe_at) {
			/* the worker process (NVRTC loaded, the driver probed: ~40 ms) starts
			 * once the first frames are up: a person who quits at once is not
			 * kept waiting for it (#28, first frame and exit against tig) */
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			double left = g->probe_at - rung_now_s();
			long ns = ts.tv_nsec + (long)(left * 1e9);
			ts.tv_sec += ns / 1000000000L;
			ts.tv_nsec = ns % 1000000000L;
			pthread_cond_timedwait(&g->qcond, &g->qlock, &ts);
			continue;
		}
		if (g->probe) {
			rung_auto_scope with = g->probe_gpu, without = g->probe_nogpu;
			g->probe = false;
			pthread_mutex_unlock(&g->qlock);
			probe_in_thread(m, g, with, without);
			pthread_mutex_lock(&g->qlock);
			continue;
		}
		if (g->nqueue) {
			/* a batch: the leading items of one task with the same sanitize request */
			int n = 1;
			while (n < g->nqueue && g->queue[n].gen == g->queue[0].gen &&
			       g->queue[n].sanitize == g->queue[0].sanitize)
				n++;
			qitem *batch = malloc((size_t)n * sizeof(*batch));
			if (!batch)
				n = 1, batch = NULL;
			qitem one = g->queue[0];
			if (batch)
				memcpy(batch, g->queue, (size_t)n * sizeof(*batch));
			memmove(g->queue, g->queue + n, (size_t)(g->nqueue - n) * sizeof(g->queue[0]));
			g->nqueue -= n;
			g->running_gen = batch ? batch[0].gen : one.gen;
			g->evaluating = true;
			pthread_mutex_unlock(&g->qlock);
			evaluate_batch(m, g, batch ? batch : &one, n);
			for (int i = 0; i < n; i++)
				free((batch ? batch : &one)[i].taskdir);
			free(batch);
			pthread_mutex_lock(&g->qlock);
			g->evaluating = false;
			continue;
		}
		g->reload = false;
		pthread_mutex_unlock(&g->qlock);
		reload_in_thread(m, g);
		pthread_mutex_lock(&g->qlock);
	}
	pthread_mutex_unlock(&g->qlock);
	return NULL;
}

static int ensure_thread(rung_model *m)
{
	git_impl *g = m->impl;
	if (g->thread_running)
		return 0;
	if (pthread_create(&g->thread, NULL, worker_main, m) != 0)
		return rung_error_set(RUNG_EIO, "cannot start the background thread");
	g->thread_running = true;
	return 0;
}

/* ---- new commits: HEAD looked at every RUNG_MODEL_POLL_S ----
 *
 * A thread of its own (an evaluation may keep the background thread for
 * minutes) with its own repository handle: when HEAD moves, the versions
 * newer than the list's newest commit are read (with their results and
 * notes, as a reload reads them) and posted as RUNG_EV_ROWS_NEW; when that
 * commit is no longer in the history (amend, reset, rebase) the whole list is
 * posted as RUNG_EV_ROWS. Nothing is posted when a reload or a task switch
 * read the list in between (poll_gen): the next look compares with that. */

static void poll_once(rung_model *m, git_impl *g, rung_repo **repo, const char *head, const char *top,
		      unsigned pgen)
{
	if (!*repo && rung_repo_open(repo, g->dir) < 0) {
		rung_error_clear();
		*repo = NULL;
		return;
	}
	char now[41];
	head_of(now, *repo);
	if (!strcmp(now, head))
		return;
	unsigned tgen;
	char *task = task_snapshot(g, &tgen);
	rung_vctx c;
	char note[256];
	int e = open_ctx_note(&c, g, g->dir, task, note, sizeof(note));
	free(task);
	/* a broken spec at the new HEAD is said once (the last good one is
	 * used meanwhile); so is an error that keeps the list from being read */
	char said[256];
	snprintf(said, sizeof(said), "%s", e < 0 ? rung_error_last() : note);
	pthread_mutex_lock(&g->qlock);
	bool say = strcmp(said, g->spec_said) != 0;
	snprintf(g->spec_said, sizeof(g->spec_said), "%s", said);
	pthread_mutex_unlock(&g->qlock);
	if (say && said[0] && e < 0)
		post_message(m, "new commits not shown: %.200s", said);
	if (e < 0) {
		rung_error_clear();
		return;
	}
	loader l;
	rung_model_row *rows = NULL;
	int n = 0, cap = 0;
	bool found = false;
	if ((e = loader_open(&l, &c)) == 0) {
		while (!found) {
			rung_vrow vr;
			int r = rung_rows_next(&vr, &l, &c);
			if (r < 0) {
				e = r;
				break;
			}
			if (r == 1) {
				found = !top[0]; /* the list had no commit: all are new */
				break;
			}
			if (top[0] && !strcmp(vr.v.id, top)) {
				rung_vrow_clear(&vr);
				found = true;
				break;
			}
			if (n == cap) {
				int nc = cap ? cap * 2 : 8;
				rung_model_row *nr = realloc(rows, (size_t)nc * sizeof(*nr));
				if (!nr) {
					rung_vrow_clear(&vr);
					e = rung_error_set(RUNG_ENOMEM, "out of memory");
					break;
				}
				memset(nr + cap, 0, (size_t)(nc - cap) * sizeof(*nr));
				rows = nr;
				cap = nc;
			}
			fill_row(&rows[n++], &c, &vr, l.hash_content);
			rung_vrow_clear(&vr);
		}
		loader_close(&l);
	}
	rung_vctx_close(&c);
	if (e < 0) {
		rung_error_clear();
		rung_model_rows_free(rows, n);
		return;
	}
	/* found: rows are the new ones (maybe only a WORKTREE row, or none when
	 * HEAD moved without a new version); else the history was rewritten and
	 * rows are all of it */
	rung_model_event ev = {.kind = found ? RUNG_EV_ROWS_NEW : RUNG_EV_ROWS, .rows = rows, .nrows = n};
	snprintf(ev.hash, sizeof(ev.hash), "%s", top);
	pthread_mutex_lock(&g->qlock);
	bool current = pgen == g->poll_gen && tgen == g->task_gen && !g->stop;
	if (current) {
		const char *nt = rows_top(rows, n);
		poll_mark_locked(g, now, found && !nt[0] ? top : nt);
		rung_model_post(m, &ev); /* none new: a stale WORKTREE row still goes */
		if (say && said[0]) /* after the rows, so that "new version ..." does not hide it */
			post_message(m, "%s", said);
	}
	pthread_mutex_unlock(&g->qlock);
	if (!current)
		rung_model_rows_free(rows, n);
}

static void *poll_main(void *arg)
{
	rung_model *m = arg;
	git_impl *g = m->impl;
	rung_repo *repo = NULL;
	pthread_mutex_lock(&g->qlock);
	while (!g->stop) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += RUNG_MODEL_POLL_S;
		pthread_cond_timedwait(&g->pcond, &g->qlock, &ts);
		if (g->stop)
			break;
		char head[41], top[41];
		snprintf(head, sizeof(head), "%s", g->poll_head);
		snprintf(top, sizeof(top), "%s", g->poll_top);
		unsigned pgen = g->poll_gen;
		pthread_mutex_unlock(&g->qlock);
		poll_once(m, g, &repo, head, top, pgen);
		pthread_mutex_lock(&g->qlock);
	}
	pthread_mutex_unlock(&g->qlock);
	rung_repo_free(repo);
	return NULL;
}

/* Reads the first rows of the task open in c into m (before the first frame)
 * and, when there are more, has the background thread read the rest
 * (m->loading until RUNG_EV_ROWS_MORE says the list is complete). Navigation,
 * search and sort work on the rows so far: the versions screen rebuilds its
 * table (filter and sort included) whenever rows arrive, keeping the selected
 * version under the cursor. `E` queues the rows loaded and the rest once they
 * are all there (rung_model_evaluate_missing). A reload (R) or an evaluation
 * runs after the list is complete (same thread). */
static int load_first(rung_model *m, rung_vctx *c)
{
	git_impl *g = m->impl;
	loader l;
	rung_model_row *rows;
	char head[41];
	head_of(head, c->repo);
	int n, e = loader_open(&l, c);
	if (e < 0)
		return e;
	if ((e = loader_next(&rows, &n, &l, c, first_rows())) < 0) {
		loader_close(&l);
		return e;
	}
	bool more = !l.done && n > 0;
	loader_close(&l);
	m->loading = more;
	m->evaluate_when_loaded = false;
	rung_model_set_rows(m, rows, n);
	pthread_mutex_lock(&g->qlock);
	poll_mark_locked(g, head, rows_top(m->rows, m->nrows));
	pthread_mutex_unlock(&g->qlock);
	if (!more)
		return 0;
	if ((e = ensure_thread(m)) < 0) { /* no thread: the rest now, on this one */
		rung_error_clear();
		m->loading = false;
		if ((e = load_rows(&rows, &n, c)) < 0)
			return e;
		rung_model_set_rows(m, rows, n);
		return 0;
	}
	pthread_mutex_lock(&g->qlock);
	g->rest = true;
	g->rest_gen = g->task_gen;
	snprintf(g->rest_anchor, sizeof(g->rest_anchor), "%s", m->rows[n - 1].hash);
	pthread_cond_signal(&g->qcond);
	pthread_mutex_unlock(&g->qlock);
	return 0;
}

static void clear_texts(git_impl *g);

static int git_refresh(rung_model *m)
{
	git_impl *g = m->impl;
	clear_texts(g); /* a changed work tree is compiled again */
	int e = ensure_thread(m);
	if (e < 0)
		return e;
	pthread_mutex_lock(&g->qlock);
	g->reload = true;
	pthread_cond_signal(&g->qcond);
	pthread_mutex_unlock(&g->qlock);
	return 0;
}

static int queue_item(rung_model *m, const char *hash, unsigned sanitize)
{
	git_impl *g = m->impl;
	int e = ensure_thread(m);
	if (e < 0)
		return e;
	pthread_mutex_lock(&g->qlock);
	if (g->nqueue == g->cap) {
		int cap = g->cap ? g->cap * 2 : 16;
		qitem *q = realloc(g->queue, (size_t)cap * sizeof(*q));
		if (!q) {
			pthread_mutex_unlock(&g->qlock);
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		}
		g->queue = q;
		g->cap = cap;
	}
	/* QUEUED goes on the event queue before the worker can see the item:
	 * posted after it, a quick evaluation's RESULT (a compile-only one
	 * without a GPU) could land first and leave the row pending for good */
	rung_model_event ev = {.kind = RUNG_EV_QUEUED, .step = sanitize ? RUNG_STEP_SANITIZE : RUNG_STEP_COMPILE};
	snprintf(ev.hash, sizeof(ev.hash), "%s", hash);
	e = rung_model_post(m, &ev);
	if (e < 0) {
		pthread_mutex_unlock(&g->qlock);
		return e;
	}
	qitem *it = &g->queue[g->nqueue++];
	snprintf(it->hash, sizeof(it->hash), "%s", hash);
	it->taskdir = g->taskdir ? strdup(g->taskdir) : NULL;
	it->gen = g->task_gen;
	it->sanitize = sanitize;
	pthread_cond_signal(&g->qcond);
	pthread_mutex_unlock(&g->qlock);
	return 0;
}

static int git_evaluate(rung_model *m, const char *hash)
{
	return queue_item(m, hash, 0);
}

/* The sanitize rung of a version in the background (as `rung eval --sanitize=TOOLS HASH`): the task's tools, else memcheck and racecheck. */
static int git_sanitize(rung_model *m, const char *hash)
{
	git_impl *g = m->impl;
	unsigned tools = g->ui.task.spec && g->ui.task.spec->sanitize ? g->ui.task.spec->sanitize : RUNG_SAN_DEFAULT;
	return queue_item(m, hash, tools);
}

/* PTX and SASS of tc->hash compiled with the task of c (NVRTC, then
 * nvdisasm): into tc, or tc->err and tc->error when the compile fails. */
static int compile_texts(rung_vctx *c, text_cache *tc)
{
	rung_source src;
	int e = rung_vtask_source_at(&src, &c->task, tc->hash);
	if (e == 0) {
		/* the version's compile as the evaluation makes it (app/task.h):
		 * an #include outside the repository fails it, file:line */
		rung_version v;
		memset(&v, 0, sizeof(v));
		v.worktree = !strcmp(tc->hash, "WORKTREE");
		snprintf(v.id, sizeof(v.id), "%s", tc->hash);
		snprintf(v.kernel_path, sizeof(v.kernel_path), "%s", src.path);
		rung_compiled cc;
		e = rung_version_compile(&cc, c->repo, &c->task, &src, &v);
		if (e == 0) {
			tc->ptx = cc.ptx ? strndup(cc.ptx, cc.ptx_len) : NULL;
			if (cc.cubin && rung_sass_from_cubin(&tc->sass, cc.cubin, cc.cubin_len) < 0)
				tc->sass = NULL;
			rung_error_clear();
		} else {
			e = rung_error_set(e, "%s", cc.error[0] ? cc.error : rung_error_last());
		}
		rung_compiled_clear(&cc);
		rung_source_clear(&src);
	}
	if (e < 0) {
		tc->err = e;
		snprintf(tc->error, sizeof(tc->error), "%s", rung_error_last());
	}
	return e;
}

/* The cache entry of hash (under tlock), NULL when none. */
static text_cache *cache_find(git_impl *g, const char *hash)
{
	for (int i = 0; i < g->ncache; i++)
		if (!strcmp(g->cache[i].hash, hash))
			return &g->cache[i];
	return NULL;
}

static void text_cache_clear(text_cache *tc)
{
	free(tc->ptx);
	free(tc->sass);
	tc->ptx = tc->sass = NULL;
}

/* Adds *tc to the cache (under tlock; taken over, or freed when hash is
 * there already). */
static void cache_add(git_impl *g, text_cache *tc)
{
	if (cache_find(g, tc->hash)) {
		text_cache_clear(tc);
		return;
	}
	text_cache *nc = realloc(g->cache, (size_t)(g->ncache + 1) * sizeof(*nc));
	if (!nc) {
		text_cache_clear(tc);
		return;
	}
	g->cache = nc;
	g->cache[g->ncache++] = *tc;
}

/* The texts of kind from a cache entry (under tlock) into *out. */
static int cache_text(char **out, const text_cache *tc, rung_text_kind kind)
{
	if (tc->err < 0)
		return rung_error_set(tc->err, "%s", tc->error);
	const char *t = kind == RUNG_TEXT_PTX ? tc->ptx : tc->sass;
	if (!t)
		return rung_error_set(RUNG_ENOTFOUND, "no %s for %.7s%s", rung_text_kind_name(kind), tc->hash,
				      kind == RUNG_TEXT_SASS ? " (nvdisasm not found?)" : "");
	*out = strdup(t);
	return *out ? 0 : rung_error_set(RUNG_ENOMEM, "out of memory");
}

static int git_text(char **out, rung_model *m, const char *hash, rung_text_kind kind)
{
	git_impl *g = m->impl;
	*out = NULL;
	if (kind == RUNG_TEXT_SOURCE) {
		rung_source src;
		int e = rung_vtask_source_at(&src, &g->ui.task, hash);
		if (e < 0)
			return e;
		*out = src.text;
		src.text = NULL;
		rung_source_clear(&src);
		return 0;
	}
	pthread_mutex_lock(&g->tlock);
	text_cache *tc = cache_find(g, hash);
	int e = tc ? cache_text(out, tc, kind) : 1;
	pthread_mutex_unlock(&g->tlock);
	if (e <= 0)
		return e;
	/* not made yet: here and now (text_prepare makes it in the background) */
	text_cache nt = {0};
	snprintf(nt.hash, sizeof(nt.hash), "%s", hash);
	compile_texts(&g->ui, &nt);
	pthread_mutex_lock(&g->tlock);
	e = cache_text(out, &nt, kind);
	cache_add(g, &nt);
	pthread_mutex_unlock(&g->tlock);
	return e;
}

/* The texter: makes the texts asked for by text_prepare, one at a time, with
 * handles of its own on the task shown. */
static void *texter_main(void *arg)
{
	rung_model *m = arg;
	git_impl *g = m->impl;
	pthread_mutex_lock(&g->tlock);
	while (!g->tstop) {
		if (!g->ntq) {
			pthread_cond_wait(&g->tcond, &g->tlock);
			continue;
		}
		text_cache tc = {0};
		snprintf(tc.hash, sizeof(tc.hash), "%s", g->tq[0]);
		memmove(g->tq, g->tq + 1, (size_t)(g->ntq - 1) * sizeof(*g->tq));
		g->ntq--;
		snprintf(g->tbusy, sizeof(g->tbusy), "%s", tc.hash);
		unsigned tgen = g->text_gen;
		pthread_mutex_unlock(&g->tlock);
		unsigned gen;
		char *task = task_snapshot(g, &gen);
		int e = 0;
		if (g->tctx_open && g->tctx_gen != gen) {
			rung_vctx_close(&g->tctx);
			g->tctx_open = false;
		}
		if (!g->tctx_open && (e = open_ctx(&g->tctx, g, g->dir, task)) == 0) {
			g->tctx_open = true;
			g->tctx_gen = gen;
		}
		free(task);
		if (e < 0) {
			tc.err = e;
			snprintf(tc.error, sizeof(tc.error), "%s", rung_error_last());
		} else {
			compile_texts(&g->tctx, &tc);
		}
		pthread_mutex_lock(&g->tlock);
		g->tbusy[0] = 0;
		if (tgen == g->text_gen)
			cache_add(g, &tc);
		else /* the cache was cleared meanwhile (another task) */
			text_cache_clear(&tc);
		rung_model_event ev = {.kind = RUNG_EV_TEXT};
		snprintf(ev.hash, sizeof(ev.hash), "%s", tc.hash);
		rung_model_post(m, &ev);
	}
	pthread_mutex_unlock(&g->tlock);
	return NULL;
}

static int git_text_prepare(rung_model *m, const char *hash)
{
	git_impl *g = m->impl;
	pthread_mutex_lock(&g->tlock);
	int e = 1;
	if (cache_find(g, hash)) {
		e = 0;
		goto out;
	}
	if (!strcmp(g->tbusy, hash))
		goto out;
	for (int i = 0; i < g->ntq; i++)
		if (!strcmp(g->tq[i], hash))
			goto out;
	if (!g->texter_running) {
		if (pthread_create(&g->texter, NULL, texter_main, m) != 0) {
			e = 0; /* no thread: text makes it when asked */
			goto out;
		}
		g->texter_running = true;
	}
	if (g->ntq == g->tqcap) {
		int cap = g->tqcap ? g->tqcap * 2 : 4;
		char(*q)[41] = realloc(g->tq, (size_t)cap * sizeof(*q));
		if (!q) {
			e = rung_error_set(RUNG_ENOMEM, "out of memory");
			goto out;
		}
		g->tq = q;
		g->tqcap = cap;
	}
	snprintf(g->tq[g->ntq++], sizeof(g->tq[0]), "%s", hash);
	pthread_cond_signal(&g->tcond);
out:
	pthread_mutex_unlock(&g->tlock);
	return e;
}

static void git_text_cancel(rung_model *m)
{
	git_impl *g = m->impl;
	pthread_mutex_lock(&g->tlock);
	g->ntq = 0;
	pthread_mutex_unlock(&g->tlock);
}

static int git_set_note(rung_model *m, const char *hash, rung_verdict v, const char *text)
{
	git_impl *g = m->impl;
	rung_note_verdict nv = (rung_note_verdict)v;
	if (v == RUNG_VERDICT_NONE && (!text || !*text))
		return rung_note_set_verdict(g->ui.repo, hash, RUNG_NOTE_NONE);
	int e = rung_note_add(g->ui.repo, hash, nv, text, 0);
	if (e < 0)
		return e;
	return 0;
}

static int git_close_directive(rung_model *m, const char *hash, const char *id, const char *reason)
{
	git_impl *g = m->impl;
	return rung_directive_answer_on(&g->ui, hash, id, RUNG_ANSWER_CLOSED, NULL, reason, NULL);
}

static int git_reread_note(rung_model *m, rung_model_row *row)
{
	git_impl *g = m->impl;
	if (!strcmp(row->hash, "WORKTREE"))
		return 0;
	rung_note n;
	int e = rung_note_read(&n, g->ui.repo, row->hash);
	if (e == RUNG_ENOTFOUND) {
		rung_error_clear();
		row_from_note(row, NULL);
		return 0;
	}
	if (e < 0)
		return e;
	row_from_note(row, &n);
	rung_note_clear(&n);
	return 0;
}

static void clear_texts(git_impl *g)
{
	pthread_mutex_lock(&g->tlock);
	for (int i = 0; i < g->ncache; i++)
		text_cache_clear(&g->cache[i]);
	free(g->cache);
	g->cache = NULL;
	g->ncache = 0;
	g->ntq = 0;
	g->text_gen++;
	pthread_mutex_unlock(&g->tlock);
}

static void git_free(rung_model *m)
{
	git_impl *g = m->impl;
	if (!g)
		return;
	pthread_mutex_lock(&g->qlock);
	g->stop = true;
	g->evaler.cancel = 1; /* the version on the GPU finishes; the rest are left */
	pthread_cond_signal(&g->qcond);
	pthread_cond_signal(&g->pcond);
	pthread_mutex_unlock(&g->qlock);
	if (g->thread_running)
		pthread_join(g->thread, NULL);
	if (g->poller_running)
		pthread_join(g->poller, NULL);
	if (g->texter_running) { /* the text being made is finished first */
		pthread_mutex_lock(&g->tlock);
		g->tstop = true;
		pthread_cond_signal(&g->tcond);
		pthread_mutex_unlock(&g->tlock);
		pthread_join(g->texter, NULL);
	}
	if (g->tctx_open)
		rung_vctx_close(&g->tctx);
	if (g->evaler_open)
		rung_evaler_close(&g->evaler);
	if (g->ev_ctx_open)
		rung_vctx_close(&g->ev_ctx);
	for (int i = 0; i < g->nqueue; i++)
		free(g->queue[i].taskdir);
	clear_texts(g);
	free(g->queue);
	free(g->tq);
	rung_vctx_close(&g->ui);
	pthread_mutex_destroy(&g->qlock);
	pthread_cond_destroy(&g->qcond);
	pthread_cond_destroy(&g->pcond);
	pthread_mutex_destroy(&g->tlock);
	pthread_cond_destroy(&g->tcond);
	free(g->dir);
	free(g->taskdir);
	free(g->spec_rev);
	free(g);
}

/* Ceilings for the device of the newest result (live first, else recorded):
 * the speed-of-light guard's (rung_model_ceilings_from): the datasheet's for
 * its chip and clocks, raised by the ones measured on it and stored (`rung
 * ceilings`); m->ceil.source says which. */
static void set_ceilings(rung_model *m, rung_store *store)
{
	rung_model_ceilings_clear(&m->ceil);
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < m->nrows; i++) {
			const rung_result *r = rung_model_row_result(&m->rows[i], pass == 1);
			if (!r || !r->env.valid)
				continue;
			rung_ceilings meas;
			const rung_ceilings *mp = rung_store_guard_ceilings(&meas, store, &r->env);
			if (rung_model_ceilings_from(&m->ceil, &r->env, mp) == 0)
				return;
			rung_error_clear();
		}
}

/* m->tasks from the repository, m->task = the one open. */
static void set_tasks(rung_model *m, git_impl *g)
{
	char **v = NULL;
	int n = 0;
	m->ntasks = m->task = 0;
	if (rung_repo_find_tasks(&v, &n, g->ui.repo) < 0) {
		rung_error_clear();
		return;
	}
	for (int i = 0; i < n && m->ntasks < (int)(sizeof(m->tasks) / sizeof(m->tasks[0])); i++) {
		snprintf(m->tasks[m->ntasks], sizeof(m->tasks[0]), "%s", v[i]);
		if (!strcmp(v[i], g->ui.task.dir ? g->ui.task.dir : ""))
			m->task = m->ntasks;
		m->ntasks++;
	}
	rung_strv_free(v, n);
}

static void set_title(rung_model *m, git_impl *g)
{
	/* a spec other than HEAD's (the last good one, or --spec-rev) is labelled */
	char head[41] = "";
	head_of(head, g->ui.repo);
	bool other = strcmp(g->ui.task.spec_rev, "WORKTREE") && strcmp(g->ui.task.spec_rev, head);
	snprintf(m->title, sizeof(m->title), "%.80s%s%.7s%s", g->ui.task.spec->name ? g->ui.task.spec->name : g->ui.task.dir,
		 other ? " (spec of " : "", other ? g->ui.task.spec_rev : "", other ? ")" : "");
	m->goal = g->ui.task.spec->goal; /* the stop rule's (rung_model_goal) */
	m->goal_dtype = rung_goal_dtype(g->ui.task.spec);
	m->goal_valid = false;
}

/* Opens task i on the UI thread (like the first load); background jobs of the
 * old task finish but their reloads are dropped. */
static int git_set_task(rung_model *m, int i)
{
	git_impl *g = m->impl;
	char path[4096];
	const char *wd = rung_repo_workdir(g->ui.repo);
	size_t wl = wd ? strlen(wd) : 0;
	snprintf(path, sizeof(path), "%.*s%s%s", (int)wl, wd ? wd : "", wl && wd[wl - 1] != '/' ? "/" : "",
		 m->tasks[i][0] ? m->tasks[i] : ".");
	rung_vctx c;
	char note[256];
	int e = open_ctx_note(&c, g, g->dir, path, note, sizeof(note));
	if (e < 0)
		return e;
	if (note[0])
		snprintf(m->message, sizeof(m->message), "%s", note);
	char *nt = strdup(path);
	if (!nt) {
		rung_vctx_close(&c);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	/* the new task first: a background job of the old one stops at its next chunk */
	pthread_mutex_lock(&g->qlock);
	char *old = g->taskdir;
	g->taskdir = nt;
	g->task_gen++;
	pthread_mutex_unlock(&g->qlock);
	/* the queue keeps running for the old task (its results are counted,
	 * not shown) */
	if ((e = load_first(m, &c)) < 0) {
		pthread_mutex_lock(&g->qlock);
		g->taskdir = old;
		g->task_gen++;
		if (m->loading && m->nrows) { /* the old task's list was still arriving: again */
			g->rest = true;
			g->rest_gen = g->task_gen;
			snprintf(g->rest_anchor, sizeof(g->rest_anchor), "%s", m->rows[m->nrows - 1].hash);
			pthread_cond_signal(&g->qcond);
		}
		pthread_mutex_unlock(&g->qlock);
		free(nt);
		rung_vctx_close(&c);
		return e;
	}
	free(old);
	rung_vctx_close(&g->ui);
	g->ui = c;
	clear_texts(g);
	set_ceilings(m, g->ui.store);
	set_title(m, g);
	return 0;
}

static const rung_model_ops git_ops;

int rung_model_auto_evaluate(rung_model *m, rung_auto_scope with_gpu, rung_auto_scope without_gpu)
{
	if (m->ops != &git_ops)
		return rung_error_set(RUNG_EUNSUPPORTED, "only a repository can be evaluated");
	git_impl *g = m->impl;
	int e = ensure_thread(m);
	if (e < 0)
		return e;
	pthread_mutex_lock(&g->qlock);
	g->probe = true;
	g->probe_gpu = with_gpu;
	g->probe_nogpu = without_gpu;
	g->probe_at = rung_now_s() + RUNG_MODEL_PROBE_DELAY_S;
	pthread_cond_signal(&g->qcond);
	pthread_mutex_unlock(&g->qlock);
	return 0;
}

/* Profile side data beside the row's live result (tui/model/prof.h). */
static int git_extra(char **out, rung_model *m, const char *hash, const char *kind)
{
	git_impl *g = m->impl;
	int row = rung_model_find(m, hash);
	return rung_model_store_extra(out, g->ui.store, row >= 0 ? &m->rows[row] : NULL, kind);
}

/* The version's launch line (or the spec's [launch]) at the spec's [dims]. */
static int git_launch(rung_geom *out, rung_model *m, const char *hash)
{
	git_impl *g = m->impl;
	const rung_spec *spec = g->ui.task.spec;
	if (!spec)
		return rung_error_set(RUNG_ENOTFOUND, "no task spec");
	rung_source src;
	int e = rung_vtask_source_at(&src, &g->ui.task, hash);
	if (e < 0)
		return e;
	rung_launch l = {0};
	e = rung_launch_with_sidecar(&l, spec, src.text, src.path, src.sidecar, src.sidecar_len, src.sidecar_path);
	if (e >= 0)
		e = rung_launch_eval(out, &l, &spec->dims);
	rung_launch_clear(&l);
	rung_source_clear(&src);
	return e < 0 ? e : 0;
}

static const rung_model_ops git_ops = {
	.name = "git",
	.refresh = git_refresh,
	.text = git_text,
	.evaluate = git_evaluate,
	.sanitize = git_sanitize,
	.set_note = git_set_note,
	.close_directive = git_close_directive,
	.reread_note = git_reread_note,
	.free = git_free,
	.set_task = git_set_task,
	.extra = git_extra,
	.launch = git_launch,
	.text_prepare = git_text_prepare,
	.text_cancel = git_text_cancel,
};

int rung_model_git_new(rung_model **out, const char *dir, const char *taskdir)
{
	return rung_model_git_open(out, dir, taskdir, NULL);
}

int rung_model_git_open(rung_model **out, const char *dir, const char *taskdir, const char *spec_rev)
{
	*out = NULL;
	rung_model *m = calloc(1, sizeof(*m));
	git_impl *g = calloc(1, sizeof(*g));
	if (!m || !g) {
		free(m);
		free(g);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	g->dir = dir ? strdup(dir) : NULL;
	g->taskdir = taskdir ? strdup(taskdir) : NULL;
	g->spec_rev = spec_rev ? strdup(spec_rev) : NULL;
	g->jobs = 3;
	pthread_mutex_init(&g->qlock, NULL);
	pthread_cond_init(&g->qcond, NULL);
	pthread_cond_init(&g->pcond, NULL);
	pthread_mutex_init(&g->tlock, NULL);
	pthread_cond_init(&g->tcond, NULL);
	int e = rung_model_init(m, &git_ops, g);
	if (e == 0)
		e = open_ctx_note(&g->ui, g, dir, taskdir, m->message, sizeof(m->message));
	if (e < 0) {
		rung_error_state st;
		rung_error_save(&st);
		m->ops = NULL;
		if (m->pipe_fd[0] || m->pipe_fd[1])
			rung_model_free(m);
		else
			free(m);
		pthread_mutex_destroy(&g->qlock);
		pthread_cond_destroy(&g->qcond);
		pthread_cond_destroy(&g->pcond);
		pthread_mutex_destroy(&g->tlock);
		pthread_cond_destroy(&g->tcond);
		free(g->dir);
		free(g->taskdir);
		free(g->spec_rev);
		free(g);
		st.code = e;
		return rung_error_restore(&st);
	}
	set_title(m, g);
	set_tasks(m, g);
	/* the first screenful is read here, before the first frame, the rest in the
	 * background (load_first); later reloads run in the background too */
	if ((e = load_first(m, &g->ui)) < 0) {
		rung_model_free(m); /* git_free closes the handles */
		return e;
	}
	set_ceilings(m, g->ui.store);
	/* new commits appear while the workbench is open (no thread: only R reloads) */
	if (pthread_create(&g->poller, NULL, poll_main, m) == 0)
		g->poller_running = true;
	*out = m;
	return 0;
}

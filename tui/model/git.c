/* The model on a git repository: versions from vcs/history, results from the
 * store, verdicts and directives from git notes (refs/notes/rung), through
 * the workbench's service (app/workbench.h), which runs the background work:
 * the rest of the first list, reloads, the auto-evaluation probe and the
 * evaluations (its runner thread, one persistent worker), the look at HEAD
 * for new commits (its poller), and the PTX and SASS made ahead of a compare
 * (its texter, and the text cache). This file keeps the view's side: the
 * service's rows and events become the model's (rung_model_post), on
 * whichever service thread they come from, and the requests the UI makes
 * on the spot (notes, sources, launch geometry, a task switch) use the UI
 * thread's own handles (`ui`). The UI never waits for the service's
 * threads (app/workbench.h says which calls read before the first frame). */
#include "tui/model/model.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "app/workbench.h"
#include "app/sanitize_gate.h"
#include "app/directives.h"
#include "app/goal.h"
#include "app/session.h"
#include "app/task.h"
#include "core/err.h"
#include "core/inert.h"
#include "core/sidecar.h"
#include "gpu/sanitize.h"
#include "tui/model/prof.h"
#include "vcs/ceil_store.h"

typedef struct {
	rung_model *m;
	rung_wb *bench; /* the background service */
	rung_vctx ui;      /* UI-thread handles */
	/* rung_model_auto_evaluate's scopes (under plock: the probe's answer
	 * picks one on the service's runner) */
	pthread_mutex_t plock;
	rung_auto_scope probe_gpu, probe_nogpu;
} git_impl;

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


/* The service's row into a model row (taken over): its live result and note
 * (the loader's), and its recorded result. */
static void fill_row(rung_model_row *r, rung_wb_row *br)
{
	rung_vrow *vr = &br->vr;
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
	r->recorded = br->recorded;
	br->recorded = NULL;
	r->pending = br->pending; /* its results follow (RUNG_EV_FILL) */
	rung_model_row_sync_steps(r);
	if (vr->has_note)
		row_from_note(r, &vr->note);
}

/* The sink's rows (app/workbench.h): on a service thread, or this one for the
 * first list. */
static int sink_rows(void **out, void *ud, rung_wb_row *rows, int n)
{
	(void)ud;
	*out = NULL;
	if (!rows)
		return 0;
	rung_model_row *mr = calloc((size_t)n + 1, sizeof(*mr));
	if (!mr) {
		rung_wb_rows_free(rows, n);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	for (int i = 0; i < n; i++)
		fill_row(&mr[i], &rows[i]);
	rung_wb_rows_free(rows, n);
	*out = mr;
	return 0;
}

static void sink_rows_free(void *ud, void *rows, int n)
{
	(void)ud;
	rung_model_rows_free(rows, n);
}

/* The probe's answer: what is evaluated without asking from now on. */
static int probe_answer(git_impl *g, const rung_wb_event *be)
{
	pthread_mutex_lock(&g->plock);
	rung_auto_scope scope = be->gpu ? g->probe_gpu : g->probe_nogpu;
	pthread_mutex_unlock(&g->plock);
	rung_model_event ev = {.kind = RUNG_EV_MESSAGE};
	if (be->gpu)
		snprintf(ev.text, sizeof(ev.text), "%.120s: evaluating every version %s", be->text,
			 scope == RUNG_AUTO_MISSING ? "without a live result here" : "of your own here");
	else if (scope == RUNG_AUTO_MISSING)
		snprintf(ev.text, sizeof(ev.text), "no GPU: the compile rung of every version runs (%.180s)", be->text);
	else
		snprintf(ev.text, sizeof(ev.text), "no GPU: showing recorded results (%.160s)%s", be->text,
			 scope == RUNG_AUTO_UNSEEN ? "; versions without any get their compile rung" : "");
	rung_model_post(g->m, &ev);
	rung_model_event go = {.kind = RUNG_EV_AUTO, .scope = scope};
	if (!be->gpu) /* the sanitize gate cannot run here either: the best is provisional */
		snprintf(go.text, sizeof(go.text), "no GPU");
	return rung_model_post(g->m, &go);
}

/* The service's events as the model's (any service thread; must not call
 * the service). */
static int sink_post(void *ud, const rung_wb_event *be)
{
	git_impl *g = ud;
	static const rung_event_kind kinds[] = {
		[RUNG_WB_QUEUED] = RUNG_EV_QUEUED,       [RUNG_WB_PROGRESS] = RUNG_EV_PROGRESS,
		[RUNG_WB_RESULT] = RUNG_EV_RESULT,       [RUNG_WB_MESSAGE] = RUNG_EV_MESSAGE,
		[RUNG_WB_ROWS] = RUNG_EV_ROWS,           [RUNG_WB_ROWS_MORE] = RUNG_EV_ROWS_MORE,
		[RUNG_WB_ROWS_NEW] = RUNG_EV_ROWS_NEW,   [RUNG_WB_TEXT] = RUNG_EV_TEXT,
		[RUNG_WB_FILL] = RUNG_EV_FILL,
	};
	if (be->kind == RUNG_WB_PROBE)
		return probe_answer(g, be);
	rung_model_event ev = {.kind = kinds[be->kind], .step = be->step, .frac = be->frac, .result = be->result,
			       .rows = be->rows, .nrows = be->nrows, .last = be->last, .gen = be->gen};
	snprintf(ev.hash, sizeof(ev.hash), "%s", be->hash);
	snprintf(ev.text, sizeof(ev.text), "%s", be->text);
	return rung_model_post(g->m, &ev);
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

/* Reads the first rows of the task open in c into m (before the first frame:
 * the versions and their notes; their results, when the store holds any,
 * follow as RUNG_EV_FILL, read on the service's runner before anything else)
 * and, when there are more, has the service read the rest (m->loading until
 * RUNG_EV_ROWS_MORE says the list is complete). Navigation, search and sort
 * work on the rows so far: the versions screen rebuilds its table (filter
 * and sort included) whenever rows arrive, keeping the selected version
 * under the cursor. `E` queues the rows loaded and the rest once they are
 * all there (rung_model_evaluate_missing). A reload (R) or an evaluation
 * runs after the list is complete (the same thread). */
static int load_first(rung_model *m, rung_vctx *c)
{
	git_impl *g = m->impl;
	void *rows;
	int n;
	bool more;
	unsigned gen = 0;
	int e = rung_wb_first_gen(&rows, &n, &more, &gen, g->bench, c, first_rows());
	if (e < 0)
		return e;
	m->fill_gen = gen;
	m->loading = more;
	m->evaluate_when_loaded = false;
	rung_model_set_rows(m, rows, n);
	if (!more)
		return 0;
	if ((e = rung_wb_rest(g->bench, m->rows[n - 1].hash)) < 0) { /* no thread: the rest now, on this one */
		rung_error_clear();
		m->loading = false;
		if ((e = rung_wb_load_all(&rows, &n, g->bench, c)) < 0)
			return e;
		rung_model_set_rows(m, rows, n);
	}
	return 0;
}

static int git_refresh(rung_model *m)
{
	git_impl *g = m->impl;
	rung_wb_texts_clear(g->bench); /* a changed work tree is compiled again */
	return rung_wb_reload(g->bench);
}

static int git_evaluate(rung_model *m, const char *hash)
{
	git_impl *g = m->impl;
	return rung_wb_submit(g->bench, hash, 0);
}

/* The sanitize rung of a version in the background (as `rung eval --sanitize=TOOLS HASH`): the task's tools, else memcheck and racecheck. */
static int git_sanitize(rung_model *m, const char *hash)
{
	git_impl *g = m->impl;
	unsigned tools = g->ui.task.spec && g->ui.task.spec->sanitize ? g->ui.task.spec->sanitize : RUNG_SAN_DEFAULT;
	return rung_wb_submit(g->bench, hash, tools);
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
	return rung_wb_text(out, g->bench, &g->ui, hash, kind == RUNG_TEXT_SASS);
}

static int git_text_prepare(rung_model *m, const char *hash)
{
	git_impl *g = m->impl;
	return rung_wb_text_prepare(g->bench, hash);
}

static void git_text_cancel(rung_model *m)
{
	git_impl *g = m->impl;
	rung_wb_text_cancel(g->bench);
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

static void git_free(rung_model *m)
{
	git_impl *g = m->impl;
	if (!g)
		return;
	rung_wb_free(g->bench); /* its threads first: they post to m */
	rung_vctx_close(&g->ui);
	pthread_mutex_destroy(&g->plock);
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

/* The pending rows got their results (RUNG_EV_FILL): the ceilings of their device. */
static void git_filled(rung_model *m)
{
	git_impl *g = m->impl;
	set_ceilings(m, g->ui.store);
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

/* HEAD's commit into out ("" when unborn or unreadable). */
static void head_of(char out[41], rung_repo *r)
{
	if (rung_repo_resolve(out, r, "HEAD") < 0) {
		out[0] = 0;
		rung_error_clear();
	}
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
	/* no version best before it passed the sanitizer (app/sanitize_gate.h);
	 * where compute-sanitizer is missing, the best is provisional and says why */
	m->gate_tools = rung_gate_tools(g->ui.task.spec);
	if (!rung_gate_unavailable(m->gate_why, sizeof(m->gate_why)))
		m->gate_why[0] = 0;
	m->goal_dtype = rung_goal_dtype(g->ui.task.spec);
	m->goal_cache.valid = false;
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
	int e = rung_wb_open_ctx(&c, g->bench, path, note, sizeof(note));
	if (e < 0)
		return e;
	if (note[0])
		snprintf(m->message, sizeof(m->message), "%s", note);
	char *nt = strdup(path), *old = NULL;
	if (!nt) {
		rung_vctx_close(&c);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	/* the new task first: a background job of the old one stops at its next
	 * chunk; the queue keeps running for the old task (its results are
	 * counted, not shown) */
	rung_wb_set_task(g->bench, nt, &old);
	if ((e = load_first(m, &c)) < 0) {
		rung_error_state st;
		rung_error_save(&st);
		rung_wb_set_task(g->bench, old, &nt);
		free(nt);
		if (m->loading && m->nrows && rung_wb_rest(g->bench, m->rows[m->nrows - 1].hash) < 0)
			rung_error_clear(); /* the old task's list was still arriving: again */
		rung_vctx_close(&c);
		st.code = e;
		return rung_error_restore(&st);
	}
	free(old);
	rung_vctx_close(&g->ui);
	g->ui = c;
	rung_wb_texts_clear(g->bench);
	set_ceilings(m, g->ui.store);
	set_title(m, g);
	return 0;
}

static const rung_model_ops git_ops;

static void git_drawn(rung_model *m)
{
	git_impl *g = m->impl;
	rung_wb_drawn(g->bench);
}

int rung_model_auto_evaluate(rung_model *m, rung_auto_scope with_gpu, rung_auto_scope without_gpu)
{
	if (m->ops != &git_ops)
		return rung_error_set(RUNG_EUNSUPPORTED, "only a repository can be evaluated");
	git_impl *g = m->impl;
	pthread_mutex_lock(&g->plock);
	g->probe_gpu = with_gpu;
	g->probe_nogpu = without_gpu;
	pthread_mutex_unlock(&g->plock);
	return rung_wb_probe(g->bench, RUNG_MODEL_PROBE_DELAY_S);
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

static int git_workers(rung_model *m, rung_model_worker *out, int max)
{
	git_impl *g = m->impl;
	rung_pool_status st[16];
	int n = rung_wb_workers(g->bench, st, 16);
	for (int i = 0; i < n && i < 16 && i < max; i++) {
		rung_model_worker *w = &out[i];
		memset(w, 0, sizeof(*w));
		snprintf(w->label, sizeof(w->label), "%.*s", (int)sizeof(w->label) - 1, st[i].label);
		snprintf(w->host, sizeof(w->host), "%.*s", (int)sizeof(w->host) - 1, st[i].host);
		snprintf(w->gpu, sizeof(w->gpu), "%.*s", (int)sizeof(w->gpu) - 1, st[i].gpu);
		snprintf(w->doing, sizeof(w->doing), "%.*s", (int)sizeof(w->doing) - 1, st[i].doing);
		w->done = st[i].done_total;
		w->failed = st[i].failed_total;
		w->waiting = st[i].waiting_gpu;
		w->retired = st[i].retired;
	}
	return n;
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
	.workers = git_workers,
	.filled = git_filled,
	.drawn = git_drawn,
};

int rung_model_git_new(rung_model **out, const char *dir, const char *taskdir)
{
	return rung_model_git_open(out, dir, taskdir, NULL);
}

static int git_open(rung_model **out, const char *dir, const char *taskdir, const char *spec_rev,
		    const char *workers, bool after_drawn);

int rung_model_git_open(rung_model **out, const char *dir, const char *taskdir, const char *spec_rev)
{
	return git_open(out, dir, taskdir, spec_rev, NULL, false);
}

int rung_model_git_open_pool(rung_model **out, const char *dir, const char *taskdir, const char *spec_rev,
			     const char *workers)
{
	return git_open(out, dir, taskdir, spec_rev, workers, true);
}

static int git_open(rung_model **out, const char *dir, const char *taskdir, const char *spec_rev,
		    const char *workers, bool after_drawn)
{
	*out = NULL;
	rung_model *m = calloc(1, sizeof(*m));
	git_impl *g = calloc(1, sizeof(*g));
	if (!m || !g) {
		free(m);
		free(g);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	g->m = m;
	pthread_mutex_init(&g->plock, NULL);
	rung_wb_opts o = {
		.dir = dir,
		.taskdir = taskdir,
		.spec_rev = spec_rev,
		.jobs = 3,
		.workers = workers,
		.defer_results = true, /* the first frame before the results are parsed */
		.fill_after_drawn = after_drawn, /* ... and before they are (rung_model_drawn) */
		.sink = {.ud = g, .rows = sink_rows, .rows_free = sink_rows_free, .post = sink_post},
	};
	int e = rung_model_init(m, &git_ops, g);
	if (e == 0)
		e = rung_wb_new(&g->bench, &o, &g->ui, m->message, sizeof(m->message));
	if (e < 0) {
		rung_error_state st;
		rung_error_save(&st);
		m->ops = NULL;
		if (m->events.pipe_fd[0] || m->events.pipe_fd[1])
			rung_model_free(m);
		else
			free(m);
		pthread_mutex_destroy(&g->plock);
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
	if (rung_wb_poll_start(g->bench, RUNG_MODEL_POLL_S) < 0)
		rung_error_clear();
	*out = m;
	return 0;
}

/* The generic part of the model: rows, the cross-thread event queue, lookups. */
#include "tui/model/model.h"

#include "app/session.h"

#include "app/goal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/ptxscan.h"
#include "core/roofline_guard.h"

static const char *const verdict_names[] = {
#define RUNG_VERDICT_NAME(id, name) name,
	RUNG_VERDICT_LIST(RUNG_VERDICT_NAME)
#undef RUNG_VERDICT_NAME
};

const char *rung_verdict_name(rung_verdict v)
{
	return (unsigned)v < RUNG_NVERDICTS ? verdict_names[v] : "";
}

int rung_verdict_parse(rung_verdict *out, const char *s)
{
	for (int i = 0; i < RUNG_NVERDICTS; i++)
		if (!strcmp(s, verdict_names[i])) {
			*out = (rung_verdict)i;
			return 0;
		}
	if (!strcmp(s, "none")) {
		*out = RUNG_VERDICT_NONE;
		return 0;
	}
	return rung_error_set(RUNG_EINVAL, "unknown verdict '%s' (keep, reject, baseline, best)", s);
}

const char *rung_dir_status_name(rung_dir_status s)
{
	static const char *const n[] = {"open", "done", "declined", "closed"};
	return (unsigned)s < RUNG_NDIR_STATUS ? n[s] : "open";
}

const char *rung_text_kind_name(rung_text_kind k)
{
	static const char *const n[] = {"source", "PTX", "SASS"};
	return (unsigned)k < RUNG_NTEXT ? n[k] : "?";
}

void rung_model_ceilings_clear(rung_model_ceilings *c)
{
	memset(c, 0, sizeof(*c));
	c->bw_bytes_s = c->l2_bytes_s = c->l1_bytes_s = c->fp32_flop_s = c->tensor_flop_s = NAN;
	for (int t = 0; t < RUNG_TC_COUNT; t++)
		c->tensor_tc[t] = NAN;
}

static double present(const rung_ceiling *c)
{
	return c->src != RUNG_CEIL_NONE ? c->value : NAN;
}

int rung_model_ceilings_from(rung_model_ceilings *out, const rung_env *env, const rung_ceilings *measured)
{
	rung_model_ceilings_clear(out);
	rung_ceilings c;
	rung_ceilings_guard(&c, env, measured);
	if (c.dram.src == RUNG_CEIL_NONE || c.fp32.src == RUNG_CEIL_NONE)
		return rung_error_set(RUNG_EINVAL, "roofline: no DRAM or FP32 ceiling for %s",
				      env && env->arch[0] ? env->arch : "this device");
	out->bw_bytes_s = c.dram.value;
	out->fp32_flop_s = c.fp32.value;
	out->tensor_flop_s = present(&c.tensor[RUNG_TC_F16]);
	for (int t = 0; t < RUNG_TC_COUNT; t++) {
		out->tensor_tc[t] = present(&c.tensor[t]);
		out->src_tc[t] = c.tensor[t].src;
	}
	out->l2_bytes_s = present(&c.l2);
	out->l1_bytes_s = present(&c.l1);
	out->src_dram = c.dram.src;
	out->src_fp32 = c.fp32.src;
	out->src_tensor = c.tensor[RUNG_TC_F16].src;
	out->src_l2 = c.l2.src;
	out->src_l1 = c.l1.src;
	bool meas = c.dram.src == RUNG_CEIL_MEASURED || c.fp32.src == RUNG_CEIL_MEASURED;
	snprintf(out->source, sizeof(out->source), "%s", rung_ceil_src_name(meas ? RUNG_CEIL_MEASURED : RUNG_CEIL_DATASHEET));
	return 0;
}

int rung_model_init(rung_model *m, const rung_model_ops *ops, void *impl)
{
	memset(m, 0, sizeof(*m));
	m->ops = ops;
	m->impl = impl;
	m->gate_pending = -1;
	rung_model_ceilings_clear(&m->ceil);
	if (pipe(m->events.pipe_fd) < 0)
		return rung_error_set(RUNG_EIO, "pipe: %s", strerror(errno));
	for (int i = 0; i < 2; i++) {
		fcntl(m->events.pipe_fd[i], F_SETFL, fcntl(m->events.pipe_fd[i], F_GETFL) | O_NONBLOCK);
		fcntl(m->events.pipe_fd[i], F_SETFD, FD_CLOEXEC);
	}
	pthread_mutex_init(&m->events.lock, NULL);
	return 0;
}

static void result_free(rung_result *r)
{
	if (r) {
		rung_result_clear(r);
		free(r);
	}
}

/* Frees the live result (the recorded one stays); result becomes the recorded one. */
static void row_drop_live(rung_model_row *r)
{
	if (r->result != r->recorded)
		result_free(r->result);
	r->result = r->recorded;
}

void rung_model_rows_free(rung_model_row *rows, int n)
{
	if (!rows)
		return;
	for (int i = 0; i < n; i++) {
		row_drop_live(&rows[i]);
		result_free(rows[i].recorded);
		free(rows[i].dirs);
	}
	free(rows);
}

bool rung_model_row_is_recorded(const rung_model_row *r)
{
	return r->result && (r->result == r->recorded || r->result->recorded);
}

const rung_result *rung_model_row_result(const rung_model_row *r, bool recorded)
{
	if (recorded)
		return r->recorded ? r->recorded : rung_model_row_is_recorded(r) ? r->result : NULL;
	return rung_model_row_is_recorded(r) ? NULL : r->result;
}

void rung_model_count(const rung_model *m, int *live, int *recorded)
{
	*live = *recorded = 0;
	for (int i = 0; i < m->nrows; i++) {
		if (rung_model_row_is_recorded(&m->rows[i]))
			(*recorded)++;
		else if (m->rows[i].result)
			(*live)++;
	}
}

static void event_free(rung_model_event *e)
{
	if (e->result) {
		rung_result_clear(e->result);
		free(e->result);
	}
	rung_model_rows_free(e->rows, e->nrows);
	free(e);
}

void rung_model_free(rung_model *m)
{
	if (!m)
		return;
	if (m->ops && m->ops->free)
		m->ops->free(m); /* stops background threads before the queue goes */
	for (rung_model_event *e = m->events.head, *n; e; e = n) {
		n = e->next;
		event_free(e);
	}
	rung_model_rows_free(m->rows, m->nrows);
	if (m->goal_cache.status) {
		rung_goal_status_clear(m->goal_cache.status);
		free(m->goal_cache.status);
	}
	close(m->events.pipe_fd[0]);
	close(m->events.pipe_fd[1]);
	pthread_mutex_destroy(&m->events.lock);
	free(m);
}

int rung_model_post(rung_model *m, const rung_model_event *ev)
{
	rung_model_event *e = malloc(sizeof(*e));
	if (!e)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	*e = *ev;
	e->next = NULL;
	pthread_mutex_lock(&m->events.lock);
	if (m->events.tail)
		m->events.tail->next = e;
	else
		m->events.head = e;
	m->events.tail = e;
	pthread_mutex_unlock(&m->events.lock);
	char b = 1;
	/* A full pipe already wakes the UI: EAGAIN is fine. */
	while (write(m->events.pipe_fd[1], &b, 1) < 0 && errno == EINTR)
		;
	return 0;
}

int rung_model_event_fd(const rung_model *m)
{
	return m->events.pipe_fd[0];
}

void rung_model_row_sync_steps(rung_model_row *row)
{
	if (!row->result && row->recorded)
		row->result = row->recorded;
	for (int s = 0; s < RUNG_NSTEPS; s++)
		row->step[s] = row->result ? row->result->steps[s].status : RUNG_S_NONE;
	row->cached = row->result && row->result->cached;
}

static double kind_median(const rung_model_row *row, bool recorded)
{
	const rung_result *r = rung_model_row_result(row, recorded);
	if (!r || !r->bench.valid || rung_result_status(r) == RUNG_S_FAILED)
		return NAN;
	return r->bench.median;
}

static bool rows_kind_recorded(const rung_model_row *rows, int n);

const rung_goal_status *rung_model_goal(rung_model *m)
{
	if (m->goal_cache.status && m->goal_cache.valid && m->goal_cache.gen == m->generation)
		return m->goal_cache.status;
	if (!m->goal_cache.status && !(m->goal_cache.status = calloc(1, sizeof(*m->goal_cache.status))))
		return NULL;
	rung_goal_status_clear(m->goal_cache.status);
	int n = m->nrows;
	rung_goal_version *v = calloc((size_t)(n > 0 ? n : 1), sizeof(*v));
	if (!v)
		return NULL;
	bool recorded = rows_kind_recorded(m->rows, n);
	rung_goal_done done;
	memset(&done, 0, sizeof(done));
	for (int i = 0; i < n; i++) {
		const rung_model_row *row = &m->rows[n - 1 - i]; /* oldest first */
		v[i].r = rung_model_row_result(row, recorded);
		snprintf(v[i].short_id, sizeof(v[i].short_id), "%.7s", row->hash);
		v[i].baseline = row->verdict == RUNG_VERDICT_BASELINE;
		v[i].rejected = row->verdict == RUNG_VERDICT_REJECT;
		/* the newest done verdict in force: rows are read oldest first, so the last one found */
		for (int k = 0; k < row->ndirs; k++) {
			const rung_model_directive *d = &row->dirs[k];
			if (!d->task_done || d->status == RUNG_DIR_CLOSED)
				continue;
			done.in_force = true;
			snprintf(done.reason, sizeof(done.reason), "%s", d->text);
			snprintf(done.who, sizeof(done.who), "%s", d->author);
			snprintf(done.id, sizeof(done.id), "%s", d->id);
			snprintf(done.version, sizeof(done.version), "%.7s", row->hash);
		}
	}
	if (rung_goal_compute(m->goal_cache.status, m->goal.line ? &m->goal : NULL, m->goal_dtype, v, n, &done, NULL) < 0) {
		free(v);
		return NULL;
	}
	bool any = false;
	for (int i = 0; i < n; i++)
		any |= v[i].r != NULL;
	rung_goal_set_recorded(m->goal_cache.status, recorded && any);
	m->goal_cache.status->own_v = v;
	m->goal_cache.status->nown = 0;
	m->goal_cache.gen = m->generation;
	m->goal_cache.valid = true;
	return m->goal_cache.status;
}

/* The kind baseline and best are computed in: live when any row has a live
 * result, else recorded (recorded and live are never compared). */
static bool rows_kind_recorded(const rung_model_row *rows, int n)
{
	for (int i = 0; i < n; i++)
		if (rows[i].result && !rung_model_row_is_recorded(&rows[i]))
			return false;
	return true;
}

rung_gate_state rung_model_row_gate(const rung_model *m, const rung_model_row *r)
{
	if (!m->gate_tools || !r->result || rung_model_row_is_recorded(r))
		return RUNG_GATE_NA;
	rung_gate_state s = rung_gate_of(r->result, m->gate_tools);
	if (s == RUNG_GATE_NA)
		return s;
	if (r->step[RUNG_STEP_SANITIZE] == RUNG_S_PENDING || r->step[RUNG_STEP_SANITIZE] == RUNG_S_RUNNING)
		return RUNG_GATE_SANITIZING;
	if (s == RUNG_GATE_NOT_SANITIZED && m->gate_why[0])
		return RUNG_GATE_UNSANITIZED;
	return s;
}

void rung_model_gate_describe(char *buf, size_t len, const rung_model *m, const rung_model_row *r)
{
	rung_gate_state s = rung_model_row_gate(m, r);
	if (s == RUNG_GATE_NA) {
		buf[0] = 0;
	} else if (s == RUNG_GATE_SANITIZING) {
		char tl[128];
		rung_san_tools_format(tl, sizeof(tl), m->gate_tools);
		snprintf(buf, len, "sanitizing (%s)", tl);
	} else {
		rung_gate_describe(buf, len, r->result, m->gate_tools, m->gate_why[0] ? m->gate_why : NULL);
	}
}

/* The fastest correct row of the kind shown (rec), timed alone on the GPU
 * unless none was; sanitized: only rows that passed the sanitize gate. */
static int fastest_row(const rung_model *m, bool rec, bool sanitized)
{
#define row_median(r) kind_median((r), rec)
	int best = -1;
	/* a timing beside another process on the GPU only when every one was so (rung_vrows_best) */
	for (int pass = 0; pass < 2 && best < 0; pass++) {
		for (int i = 0; i < m->nrows; i++) {
			double t = row_median(&m->rows[i]);
			if (isnan(t) || m->rows[i].verdict == RUNG_VERDICT_REJECT)
				continue;
			if (sanitized && rung_model_row_gate(m, &m->rows[i]) != RUNG_GATE_SANITIZED)
				continue;
			if (!pass && rung_bench_shared(&rung_model_row_result(&m->rows[i], rec)->bench))
				continue;
			if (best < 0 || t < row_median(&m->rows[best]))
				best = i;
		}
	}
#undef row_median
	return best;
}

/* Best = fastest correct version of the kind shown (live, else recorded),
 * timed alone on the GPU unless none was, unless a row is marked best by a
 * note. Under the sanitize gate (live results, m->gate_tools) as `rung eval`
 * and `rung brief` pick it (rung_gate_pick_rows): the fastest when it passed
 * the sanitizer, else the fastest that did (the faster one is pending), else
 * the fastest, provisional. */
static void recompute_best(rung_model *m)
{
	m->gate_pending = -1;
	m->gate_provisional = false;
	for (int i = 0; i < m->nrows; i++)
		if (m->rows[i].verdict == RUNG_VERDICT_BEST)
			return;
	bool rec = rows_kind_recorded(m->rows, m->nrows);
	for (int i = 0; i < m->nrows; i++)
		m->rows[i].best = false;
	int best = fastest_row(m, rec, false);
	if (best >= 0 && m->gate_tools && !rec && rung_model_row_gate(m, &m->rows[best]) != RUNG_GATE_SANITIZED) {
		int sb = fastest_row(m, rec, true);
		if (sb >= 0) {
			m->gate_pending = best;
			best = sb;
		} else {
			m->gate_provisional = true;
		}
	}
	if (best >= 0)
		m->rows[best].best = true;
}

/* No baseline chosen by a verdict: the oldest evaluated version of the kind shown. */
static void recompute_baseline(rung_model *m)
{
	for (int i = 0; i < m->nrows; i++)
		if (m->rows[i].verdict == RUNG_VERDICT_BASELINE)
			return;
	bool rec = rows_kind_recorded(m->rows, m->nrows);
	for (int i = 0; i < m->nrows; i++)
		m->rows[i].baseline = false;
	for (int i = m->nrows - 1; i >= 0; i--)
		if (!isnan(kind_median(&m->rows[i], rec))) {
			m->rows[i].baseline = true;
			break;
		}
}

/* Flags from verdicts, the automatic baseline and the best, over m->rows
 * (appended: the baseline flags already set may be automatic ones). */
static void rows_changed(rung_model *m, bool appended)
{
	int n = m->nrows;
	rung_model_row *rows = m->rows;
	bool have_base = false;
	for (int i = 0; i < n; i++) {
		if (rows[i].verdict == RUNG_VERDICT_BASELINE)
			rows[i].baseline = true;
		if (rows[i].verdict == RUNG_VERDICT_BEST)
			rows[i].best = true;
		have_base |= appended ? rows[i].verdict == RUNG_VERDICT_BASELINE : rows[i].baseline;
	}
	/* No baseline chosen: the oldest evaluated version (of the kind shown) is the baseline. */
	m->auto_baseline = !have_base;
	if (!have_base)
		recompute_baseline(m);
	recompute_best(m);
	m->generation++;
}

void rung_model_set_rows(rung_model *m, rung_model_row *rows, int n)
{
	rung_model_rows_free(m->rows, m->nrows);
	m->rows = rows;
	m->nrows = n;
	m->filling = m->fill_failed = false;
	for (int i = 0; i < n; i++)
		m->filling |= rows[i].pending;
	rows_changed(m, false);
}

static void after_loaded(rung_model *m)
{
	if (m->evaluate_when_loaded && !m->loading && !m->filling) {
		m->evaluate_when_loaded = false;
		if (rung_model_evaluate_missing(m) < 0)
			snprintf(m->message, sizeof(m->message), "evaluate: %s", rung_error_last());
	}
}

static void auto_queue(rung_model *m);

/* RUNG_EV_FILL: the pending rows take their results (a live result that came
 * first stays), then baseline, best and the backend's ceilings are computed
 * as for a list read whole. */
static void fill_rows(rung_model *m, rung_model_event *e)
{
	if (!m->filling || e->gen != m->fill_gen)
		return; /* stale: a reload or a task switch replaced the rows */
	m->filling = false;
	if (e->text[0]) { /* the rows stay pending: their cells say so */
		m->fill_failed = true;
		snprintf(m->message, sizeof(m->message), "reading the results failed: %.200s", e->text);
		after_loaded(m);
		return;
	}
	for (int k = 0; k < e->nrows; k++) {
		rung_model_row *src = &e->rows[k];
		int i = k < m->nrows && !strcmp(m->rows[k].hash, src->hash) ? k : -1;
		for (int j = 0; i < 0 && j < m->nrows; j++)
			if (!strcmp(m->rows[j].hash, src->hash))
				i = j;
		if (i < 0 || !m->rows[i].pending)
			continue;
		rung_model_row *r = &m->rows[i];
		bool busy = false; /* queued or running here meanwhile: its rungs say so */
		for (int s = 0; s < RUNG_NSTEPS; s++)
			busy |= r->step[s] == RUNG_S_PENDING || r->step[s] == RUNG_S_RUNNING;
		/* src->result is its live one, or its recorded one (the alias) */
		rung_result *live = src->result != src->recorded ? src->result : NULL, *rec = src->recorded;
		src->result = src->recorded = NULL;
		if (r->result) /* a live result came first: it stays */
			result_free(live);
		else
			r->result = live;
		result_free(r->recorded);
		r->recorded = rec;
		r->pending = false;
		if (!busy)
			rung_model_row_sync_steps(r);
		else if (!r->result)
			r->result = r->recorded;
	}
	bool left = false;
	for (int i = 0; i < m->nrows; i++)
		left |= m->rows[i].pending;
	/* the automatic baseline is chosen again, as for a list read whole */
	if (m->auto_baseline)
		for (int i = 0; i < m->nrows; i++)
			if (m->rows[i].verdict != RUNG_VERDICT_BASELINE)
				m->rows[i].baseline = false;
	rows_changed(m, false);
	if (m->ops && m->ops->filled)
		m->ops->filled(m);
	if (left && rung_model_refresh(m) < 0) /* the history moved in between: all of it again */
		snprintf(m->message, sizeof(m->message), "reload: %.240s", rung_error_last());
	after_loaded(m);
	auto_queue(m);
}

/* RUNG_EV_ROWS_MORE: appends when the list still ends where the chunk starts
 * (a task switch or a reload in between makes it stale: dropped). */
static void append_rows(rung_model *m, rung_model_event *e)
{
	bool fits = m->nrows > 0 ? !strcmp(m->rows[m->nrows - 1].hash, e->hash) : !e->hash[0];
	if (!fits)
		return;
	if (e->nrows > 0) {
		rung_model_row *nr = realloc(m->rows, (size_t)(m->nrows + e->nrows) * sizeof(*nr));
		if (!nr) {
			snprintf(m->message, sizeof(m->message), "loading: out of memory");
			m->loading = false;
			return;
		}
		memcpy(nr + m->nrows, e->rows, (size_t)e->nrows * sizeof(*nr));
		m->rows = nr;
		m->nrows += e->nrows;
		free(e->rows); /* the rows' results now belong to m->rows */
		e->rows = NULL;
		e->nrows = 0;
		rows_changed(m, true);
	}
	if (e->last) {
		m->loading = false;
		after_loaded(m);
	}
}

/* Queues the rows of the auto-evaluation scope (rows arrived, or the scope
 * was set); a failure goes to the status bar. */
static void auto_queue(rung_model *m)
{
	if (m->auto_scope != RUNG_AUTO_NONE && rung_model_evaluate_scope(m, m->auto_scope) < 0)
		snprintf(m->message, sizeof(m->message), "evaluate: %.240s", rung_error_last());
}

static bool is_worktree_row(const rung_model_row *r)
{
	return !strcmp(r->hash, "WORKTREE");
}

/* RUNG_EV_ROWS_NEW: the new commits go on top when the list's newest commit
 * is the one they were read after (a WORKTREE row on top gives way to
 * theirs); rows already there (a reload got them first) are dropped; a list
 * that does not fit (history rewritten) is read again. */
static void prepend_rows(rung_model *m, rung_model_event *e)
{
	int start = m->nrows && is_worktree_row(&m->rows[0]) ? 1 : 0;
	bool fits = start < m->nrows ? !strcmp(m->rows[start].hash, e->hash) : !e->hash[0];
	if (!fits) {
		for (int k = 0; k < e->nrows; k++)
			if (!is_worktree_row(&e->rows[k]) && rung_model_find(m, e->rows[k].hash) >= 0)
				return; /* already shown */
		if (rung_model_refresh(m) < 0)
			snprintf(m->message, sizeof(m->message), "reload: %.240s", rung_error_last());
		return;
	}
	int keep = m->nrows - start, n = e->nrows + keep;
	rung_model_row *nr = malloc((size_t)(n > 0 ? n : 1) * sizeof(*nr));
	if (!nr) {
		snprintf(m->message, sizeof(m->message), "new versions: out of memory");
		return;
	}
	int fresh = 0, newest = -1; /* index in e->rows, the same in nr */
	for (int k = 0; k < e->nrows; k++)
		if (!is_worktree_row(&e->rows[k])) {
			fresh++;
			if (newest < 0)
				newest = k;
		}
	if (e->nrows)
		memcpy(nr, e->rows, (size_t)e->nrows * sizeof(*nr));
	if (keep)
		memcpy(nr + e->nrows, m->rows + start, (size_t)keep * sizeof(*nr));
	if (start) /* the old WORKTREE row */
		rung_model_rows_free(m->rows, 1);
	else
		free(m->rows);
	free(e->rows); /* the rows and their results now belong to m->rows */
	e->rows = NULL;
	e->nrows = 0;
	m->rows = nr;
	m->nrows = n;
	rows_changed(m, true);
	const rung_model_row *nw = newest >= 0 ? &m->rows[newest] : NULL;
	if (fresh == 1)
		snprintf(m->message, sizeof(m->message), "new version %.7s: %.200s", nw->hash, nw->subject);
	else if (fresh > 1)
		snprintf(m->message, sizeof(m->message), "%d new versions, the newest %.7s: %.200s", fresh, nw->hash,
			 nw->subject);
	auto_queue(m);
}

static void apply_one(rung_model *m, rung_model_event *e)
{
	int i = e->kind == RUNG_EV_ROWS || e->kind == RUNG_EV_ROWS_MORE || e->kind == RUNG_EV_MESSAGE ||
			e->kind == RUNG_EV_ROWS_NEW || e->kind == RUNG_EV_AUTO || e->kind == RUNG_EV_TEXT ||
			e->kind == RUNG_EV_FILL
		    ? -1
		    : rung_model_find(m, e->hash);
	rung_model_row *r = i >= 0 ? &m->rows[i] : NULL;
	switch (e->kind) {
	case RUNG_EV_QUEUED:
		m->queue_total++;
		if (r && e->step == RUNG_STEP_SANITIZE) {
			r->step[RUNG_STEP_SANITIZE] = RUNG_S_PENDING; /* the other rungs stay as they are */
			recompute_best(m); /* sanitizing: not best until it passed */
		} else if (r)
			for (int s = 0; s < RUNG_STEP_SANITIZE; s++) /* the sanitize rung runs on request */
				r->step[s] = RUNG_S_PENDING;
		break;
	case RUNG_EV_PROGRESS:
		snprintf(m->queue_hash, sizeof(m->queue_hash), "%s", e->hash);
		m->queue_step = e->step;
		m->queue_frac = e->frac;
		if (r) {
			for (int s = 0; s < (int)e->step && s < RUNG_NSTEPS; s++)
				if (r->step[s] == RUNG_S_PENDING || r->step[s] == RUNG_S_RUNNING)
					r->step[s] = RUNG_S_OK;
			if ((unsigned)e->step < RUNG_NSTEPS)
				r->step[e->step] = RUNG_S_RUNNING;
		}
		break;
	case RUNG_EV_RESULT:
		if (m->queue_total > m->queue_done)
			m->queue_done++;
		if (m->queue_done >= m->queue_total) {
			m->queue_done = m->queue_total = 0;
			m->queue_hash[0] = 0;
		}
		/* (a compile verdict kept with no GPU is no measurement: the new compile
		 * rung replaces it on display, #28 D-16) */
		if (r && e->result && r->recorded && !rung_result_compile_verdict(r->recorded) &&
		    e->result->steps[RUNG_STEP_RUN].status == RUNG_S_SKIPPED &&
		    e->result->steps[RUNG_STEP_COMPILE].status == RUNG_S_OK) {
			/* no GPU here: a recorded measurement stays on display rather than
			 * a row of SKIPPED rungs (the compile rung is the recorded one's);
			 * the row's rungs show it again, and the status line says what ran */
			const rung_result *lr = e->result;
			snprintf(m->message, sizeof(m->message),
				 "%.7s: the compile rung ran here (%s, %d registers); run, check and bench need a GPU: "
				 "the recorded result stays",
				 r->hash, rung_status_name(lr->steps[RUNG_STEP_COMPILE].status), lr->compile.kernel.regs);
			result_free(e->result);
			e->result = NULL;
			rung_model_row_sync_steps(r);
		} else if (r && !e->result) {
			/* nothing came back (an error, said in a message): the row shows what it had */
			rung_model_row_sync_steps(r);
			recompute_best(m);
		} else if (r && e->result) {
			/* a live result replaces the recorded one on display (which stays in r->recorded) */
			row_drop_live(r);
			r->result = e->result;
			e->result = NULL;
			rung_model_row_sync_steps(r);
			if (m->auto_baseline)
				recompute_baseline(m);
			recompute_best(m);
		}
		break;
	case RUNG_EV_ROWS:
		rung_model_set_rows(m, e->rows, e->nrows);
		e->rows = NULL;
		e->nrows = 0;
		auto_queue(m);
		break;
	case RUNG_EV_NOTE:
		if (r) {
			r->verdict = e->verdict;
			const char *nl = strchr(e->text, '\n');
			int len = nl ? (int)(nl - e->text) : (int)strlen(e->text);
			snprintf(r->note, sizeof(r->note), "%.*s", len, e->text);
		}
		break;
	case RUNG_EV_MESSAGE:
		snprintf(m->message, sizeof(m->message), "%s", e->text);
		break;
	case RUNG_EV_EVALUATE_MISSING: {
		int n = rung_model_evaluate_missing(m);
		if (n < 0)
			snprintf(m->message, sizeof(m->message), "evaluate: %s", rung_error_last());
		break;
	}
	case RUNG_EV_TASKS:
		break;
	case RUNG_EV_ROWS_MORE:
		append_rows(m, e);
		auto_queue(m);
		break;
	case RUNG_EV_ROWS_NEW:
		prepend_rows(m, e);
		break;
	case RUNG_EV_AUTO:
		m->auto_scope = e->scope;
		if (e->text[0]) { /* why the sanitize gate cannot run here ("no GPU") */
			snprintf(m->gate_why, sizeof(m->gate_why), "%.120s", e->text);
			recompute_best(m);
		}
		auto_queue(m);
		break;
	case RUNG_EV_TEXT:
		break;
	case RUNG_EV_FILL:
		fill_rows(m, e);
		break;
	}
	m->generation++;
}

int rung_model_apply_events(rung_model *m)
{
	char buf[256];
	while (read(m->events.pipe_fd[0], buf, sizeof(buf)) > 0)
		;
	pthread_mutex_lock(&m->events.lock);
	rung_model_event *e = m->events.head;
	m->events.head = m->events.tail = NULL;
	pthread_mutex_unlock(&m->events.lock);
	int n = 0;
	while (e) {
		rung_model_event *next = e->next;
		apply_one(m, e);
		event_free(e);
		e = next;
		n++;
	}
	return n;
}

int rung_model_refresh(rung_model *m)
{
	return m->ops && m->ops->refresh ? m->ops->refresh(m) : 0;
}

int rung_model_text(char **out, rung_model *m, const char *hash, rung_text_kind kind)
{
	*out = NULL;
	if (!m->ops || !m->ops->text)
		return rung_error_set(RUNG_EUNSUPPORTED, "this model has no %s text", rung_text_kind_name(kind));
	return m->ops->text(out, m, hash, kind);
}

bool rung_model_row_mma(rung_model *m, int i)
{
	if (i < 0 || i >= m->nrows)
		return false;
	rung_model_row *r = &m->rows[i];
	if (!r->mma) {
		char *src = NULL;
		r->mma = rung_model_text(&src, m, r->hash, RUNG_TEXT_SOURCE) == 0 && rung_text_uses_mma(src) ? 1 : -1;
		free(src);
		rung_error_clear();
	}
	return r->mma > 0;
}

int rung_model_launch(rung_geom *out, rung_model *m, const char *hash)
{
	memset(out, 0, sizeof(*out));
	if (!m->ops || !m->ops->launch)
		return rung_error_set(RUNG_EUNSUPPORTED, "this model has no launch geometry");
	return m->ops->launch(out, m, hash);
}

int rung_model_evaluate(rung_model *m, const char *hash)
{
	if (!m->ops || !m->ops->evaluate)
		return rung_error_set(RUNG_EUNSUPPORTED, "this model cannot evaluate");
	return m->ops->evaluate(m, hash);
}

int rung_model_sanitize(rung_model *m, const char *hash)
{
	if (!m->ops || !m->ops->sanitize)
		return rung_error_set(RUNG_EUNSUPPORTED, "this workbench has no repository to store the result in");
	return m->ops->sanitize(m, hash);
}

/* The row is in scope and not queued or running already. */
static bool in_scope(const rung_model_row *r, rung_auto_scope scope)
{
	if (r->step[0] == RUNG_S_PENDING || r->step[0] == RUNG_S_RUNNING || r->pending)
		return false; /* a pending row's results are not known yet (RUNG_EV_FILL) */
	switch (scope) {
	case RUNG_AUTO_MISSING: /* a recorded result is not an evaluation on this machine */
		return !r->result || rung_model_row_is_recorded(r);
	case RUNG_AUTO_UNSEEN:
		return !r->result && !r->recorded;
	case RUNG_AUTO_NONE:
		break;
	}
	return false;
}

int rung_model_evaluate_scope(rung_model *m, rung_auto_scope scope)
{
	int n = 0;
	/* oldest first, so results arrive in commit order */
	for (int i = m->nrows - 1; i >= 0; i--) {
		rung_model_row *r = &m->rows[i];
		if (!in_scope(r, scope))
			continue;
		int err = rung_model_evaluate(m, r->hash);
		if (err < 0)
			return err;
		n++;
	}
	return n;
}

int rung_model_evaluate_missing(rung_model *m)
{
	/* while the first list is still arriving: the rows loaded now, the rest
	 * when it is complete (rows already queued are skipped then) */
	if (m->loading || m->filling)
		m->evaluate_when_loaded = true;
	return rung_model_evaluate_scope(m, RUNG_AUTO_MISSING);
}

int rung_model_text_prepare(rung_model *m, const char *hash)
{
	return m->ops && m->ops->text_prepare ? m->ops->text_prepare(m, hash) : 0;
}

void rung_model_drawn(rung_model *m)
{
	if (m->ops && m->ops->drawn)
		m->ops->drawn(m);
}

void rung_model_text_cancel(rung_model *m)
{
	if (m->ops && m->ops->text_cancel)
		m->ops->text_cancel(m);
}

int rung_model_set_note(rung_model *m, const char *hash, rung_verdict v, const char *text)
{
	int i = rung_model_find(m, hash);
	if (i < 0)
		return rung_error_set(RUNG_ENOTFOUND, "no version %s", hash);
	if (m->ops && m->ops->set_note) {
		int err = m->ops->set_note(m, m->rows[i].hash, v, text);
		if (err < 0)
			return err;
	}
	rung_model_row *r = &m->rows[i];
	if (v == RUNG_VERDICT_BASELINE || (r->baseline && v != RUNG_VERDICT_BASELINE))
		for (int j = 0; j < m->nrows; j++)
			m->rows[j].baseline = j == i && v == RUNG_VERDICT_BASELINE;
	if (v == RUNG_VERDICT_BASELINE)
		m->auto_baseline = false;
	if (v == RUNG_VERDICT_BEST)
		for (int j = 0; j < m->nrows; j++)
			m->rows[j].best = j == i;
	r->verdict = v;
	if (text && text[0]) { /* a verdict alone leaves the note as it is (it is still in git) */
		const char *nl = strchr(text, '\n');
		int len = nl ? (int)(nl - text) : (int)strlen(text);
		snprintf(r->note, sizeof(r->note), "%.*s", len, text);
	}
	if (m->ops && m->ops->reread_note && m->ops->reread_note(m, r) < 0) /* written, not read back: R shows it */
		snprintf(m->message, sizeof(m->message), "note written; reading it back: %.200s", rung_error_last());
	if (v != RUNG_VERDICT_BEST)
		recompute_best(m);
	m->generation++;
	return 0;
}

int rung_model_row_set_dirs(rung_model_row *r, const rung_model_directive *dirs, int n)
{
	rung_model_directive *nd = NULL;
	if (n > 0) {
		if (!(nd = malloc((size_t)n * sizeof(*nd))))
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		memcpy(nd, dirs, (size_t)n * sizeof(*nd));
	}
	free(r->dirs);
	r->dirs = nd;
	r->ndirs = n > 0 ? n : 0;
	return 0;
}

int rung_model_close_directive(rung_model *m, const char *hash, const char *id, const char *reason)
{
	int i = rung_model_find(m, hash);
	if (i < 0)
		return rung_error_set(RUNG_ENOTFOUND, "no version %s", hash);
	if (!m->ops || !m->ops->close_directive)
		return rung_error_set(RUNG_EUNSUPPORTED, "this model cannot close directives");
	rung_model_row *r = &m->rows[i];
	for (int k = 0; k < r->ndirs; k++)
		if (!strcmp(r->dirs[k].id, id) && r->dirs[k].status != RUNG_DIR_OPEN) /* its answer stays */
			return rung_error_set(RUNG_EINVAL, "directive %s is already %s", id,
					      rung_dir_status_name(r->dirs[k].status));
	int e = m->ops->close_directive(m, r->hash, id, reason ? reason : "");
	if (e < 0)
		return e;
	if (m->ops->reread_note && m->ops->reread_note(m, r) < 0)
		snprintf(m->message, sizeof(m->message), "closed; reading the note back: %.200s", rung_error_last());
	m->generation++;
	return 0;
}

int rung_model_set_task(rung_model *m, int i)
{
	if (!m->ops || !m->ops->set_task || m->ntasks < 2)
		return rung_error_set(RUNG_EUNSUPPORTED, "this repository has one task");
	if (i < 0 || i >= m->ntasks)
		return rung_error_set(RUNG_EINVAL, "no task %d (of %d)", i + 1, m->ntasks);
	int e = m->ops->set_task(m, i);
	if (e < 0)
		return e;
	m->task = i;
	m->generation++;
	auto_queue(m); /* the other task's versions in scope too */
	return 0;
}

int rung_model_find(const rung_model *m, const char *hash)
{
	size_t len = strlen(hash);
	if (!len)
		return -1;
	for (int i = 0; i < m->nrows; i++)
		if (!strncmp(m->rows[i].hash, hash, len))
			return i;
	return -1;
}

int rung_model_baseline(const rung_model *m)
{
	for (int i = 0; i < m->nrows; i++)
		if (m->rows[i].baseline)
			return i;
	return -1;
}

int rung_model_best(const rung_model *m)
{
	for (int i = 0; i < m->nrows; i++)
		if (m->rows[i].best)
			return i;
	return -1;
}

int rung_model_workers(rung_model *m, rung_model_worker *out, int max)
{
	return m && m->ops && m->ops->workers ? m->ops->workers(m, out, max) : 0;
}

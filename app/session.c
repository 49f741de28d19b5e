#include "app/session.h"
#include "core/sidecar.h"

#include <inttypes.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/metric_table.h"
#include "app/suspects.h"

/* Task errors are the task's: a task directory whose files are not there is
 * RUNG_ESPEC here (the picking itself, several tasks and none named, is
 * RUNG_EINVAL; a --task that names no task, RUNG_EUSAGE). */
static int task_fail(int e)
{
	if (e == RUNG_ENOMEM || e == RUNG_EIO || e == RUNG_EVCS || e == RUNG_ESTORE || e == RUNG_EUSAGE)
		return e;
	return e == RUNG_EINVAL ? e : rung_error_recode(RUNG_ESPEC);
}

int rung_vctx_open(rung_vctx *c, const char *cmd, const rung_vctx_opts *o, unsigned need)
{
	memset(c, 0, sizeof(*c));
	c->cmd = cmd;
	int e = rung_repo_open(&c->repo, o->dir);
	if (e < 0)
		return rung_where_repo_fail(o, e);
	if (need & (RUNG_VCTX_TASK | RUNG_VCTX_TASK_IF_ONE)) {
		char *dir = NULL;
		e = rung_where_task(&dir, c->repo, o);
		if (e < 0 && !o->task && !(need & RUNG_VCTX_TASK) && (e == RUNG_EINVAL || e == RUNG_ENOTFOUND)) {
			rung_error_clear(); /* several tasks and none named: none */
			e = 0;
		} else if (e == 0) {
			e = rung_vtask_open(&c->task, c->repo, dir, o->spec_rev);
		}
		free(dir);
		if (e < 0) {
			e = task_fail(e);
			rung_vctx_close(c);
			return e;
		}
	}
	if (!(need & (RUNG_VCTX_TASK | RUNG_VCTX_TASK_IF_ONE)) && o->task) {
		/* a command that works on the repository: a task named must still be
		 * one (`rung import --task nosuch` is refused as every command refuses it) */
		char *dir = NULL;
		e = rung_where_task(&dir, c->repo, o);
		free(dir);
		if (e < 0) {
			e = task_fail(e);
			rung_vctx_close(c);
			return e;
		}
	}
	if (need & (RUNG_VCTX_STORE | RUNG_VCTX_STORE_READ)) {
		e = need & RUNG_VCTX_STORE ? rung_store_open_repo(&c->store, c->repo)
					   : rung_store_open_repo_read(&c->store, c->repo);
		if (e < 0) {
			rung_vctx_close(c);
			return e;
		}
	}
	return 0;
}

void rung_vctx_close(rung_vctx *c)
{
	rung_store_close(c->store);
	rung_vtask_clear(&c->task);
	rung_repo_free(c->repo);
	memset(c, 0, sizeof(*c));
}

rung_result *rung_recorded_lookup(rung_vctx *c, const rung_version *v, const char *content)
{
	if (!c->store)
		return NULL;
	rung_result *r = malloc(sizeof(*r));
	if (!r)
		return NULL;
	rung_result_init(r); /* the WORKTREE row skips the commit lookup, which would init it */
	if (!v->worktree && rung_store_get_commit(r, c->store, v->id, true) == 0 && r->recorded)
		return r;
	rung_result_clear(r);
	/* the newest recorded result with this content (one indexed query) */
	if (content && content[0] && rung_store_get_recorded_content(r, c->store, content) == 0)
		return r;
	rung_error_clear();
	rung_result_clear(r);
	free(r);
	return NULL;
}

/* The verdict of a version whose kernel's `// rung:` line is broken, as the
 * evaluation gives it (app/task_rev.c, rung_task_of_version): compile FAILED
 * with the file:line message; not stored (key ""). NULL when the line is fine
 * or the source cannot be read. */
static rung_result *launch_verdict(rung_vctx *c, const rung_version *v)
{
	if (!c->task.spec)
		return NULL;
	rung_source src;
	if (rung_vtask_source(&src, &c->task, v->worktree ? "WORKTREE" : v->id, v->kernel_path) < 0) {
		rung_error_clear();
		return NULL;
	}
	rung_launch l;
	int e = rung_launch_with_sidecar(&l, c->task.spec, src.text, v->kernel_path, src.sidecar, src.sidecar_len,
					 src.sidecar_path);
	rung_launch_clear(&l);
	rung_source_clear(&src);
	if (e >= 0 || e == RUNG_ENOMEM) {
		rung_error_clear();
		return NULL;
	}
	rung_result *r = malloc(sizeof(*r));
	if (r) {
		rung_result_init(r);
		snprintf(r->rev, sizeof(r->rev), "%s", v->worktree ? "WORKTREE" : v->id);
		snprintf(r->label, sizeof(r->label), "%.*s", (int)sizeof(r->label) - 1, v->subject);
		r->steps[RUNG_STEP_COMPILE].status = RUNG_S_FAILED;
		snprintf(r->steps[RUNG_STEP_COMPILE].reason, sizeof(r->steps[0].reason), "%s", rung_error_last());
	}
	rung_error_clear();
	return r;
}

rung_result *rung_vctx_lookup(rung_vctx *c, const rung_version *v, const char *content, bool *via_content)
{
	if (via_content)
		*via_content = false;
	if (!c->store)
		return launch_verdict(c, v);
	rung_result *r = malloc(sizeof(*r));
	if (!r)
		return NULL;
	/* by content first: a result for exactly these files, whichever commit it came from */
	if (content && content[0] && rung_store_get_content(r, c->store, content, NULL) == 0) {
		if (via_content)
			*via_content = strcmp(r->rev, v->id) != 0;
		return r;
	}
	if (!v->worktree && rung_store_get_commit(r, c->store, v->id, false) == 0)
		return r;
	rung_result_clear(r);
	free(r);
	rung_error_clear();
	return launch_verdict(c, v);
}

static int note_cmp(const void *a, const void *b)
{
	return strcmp(((const rung_note *)a)->commit, ((const rung_note *)b)->commit);
}

int rung_rows_open(rung_rows_loader *l, rung_vctx *c, const char *range, bool content_always)
{
	memset(l, 0, sizeof(*l));
	rung_history_opts o = rung_vtask_history_opts(&c->task);
	o.range = range;
	int e = rung_history_open(&l->h, c->repo, &o);
	if (e < 0)
		return e;
	if ((e = rung_notes_list(&l->notes, &l->nnotes, c->repo)) < 0) {
		rung_rows_close(l);
		return e;
	}
	if (l->nnotes > 1)
		qsort(l->notes, (size_t)l->nnotes, sizeof(*l->notes), note_cmp);
	/* a store without results: no row can have one, and no content hash is needed */
	l->hash_content = content_always || !c->store || rung_store_count(c->store, -1) != 0; /* -1 (error): look anyway */
	rung_error_clear();
	return 0;
}

void rung_vrow_lookup(rung_vrow *row, rung_vctx *c)
{
	rung_source src;
	if (rung_vtask_source(&src, &c->task, row->v.worktree ? "WORKTREE" : row->v.id, row->v.kernel_path) == 0) {
		rung_vtask_content(row->content, &c->task, &src);
		rung_source_clear(&src);
	}
	rung_error_clear();
	row->result = rung_vctx_lookup(c, &row->v, row->content, &row->via_content);
}

int rung_rows_next(rung_vrow *row, rung_rows_loader *l, rung_vctx *c)
{
	memset(row, 0, sizeof(*row));
	if (l->done)
		return 1;
	int e = rung_history_next(&row->v, l->h);
	if (e == 1)
		l->done = true;
	if (e != 0)
		return e;
	if (l->hash_content)
		rung_vrow_lookup(row, c);
	rung_note key;
	snprintf(key.commit, sizeof(key.commit), "%s", row->v.id);
	rung_note *n = l->nnotes ? bsearch(&key, l->notes, (size_t)l->nnotes, sizeof(*l->notes), note_cmp) : NULL;
	if (n) { /* the row takes the note over */
		row->note = *n;
		row->has_note = true;
		rung_note blank;
		memset(&blank, 0, sizeof(blank));
		snprintf(blank.commit, sizeof(blank.commit), "%s", n->commit); /* stays sorted */
		*n = blank;
	}
	/* a damaged store is not an empty one */
	if (c->store && rung_store_read_error(c->store) < 0) {
		e = rung_store_read_error(c->store);
		rung_vrow_clear(row);
		return e;
	}
	return 0;
}

void rung_rows_close(rung_rows_loader *l)
{
	rung_notes_free(l->notes, l->nnotes);
	rung_history_free(l->h);
	memset(l, 0, sizeof(*l));
}

int rung_vctx_rows(rung_vrow **out, int *n, rung_vctx *c, const char *range, int max)
{
	*out = NULL;
	*n = 0;
	rung_rows_loader l;
	int e = rung_rows_open(&l, c, range, true);
	if (e < 0)
		return e;
	int cap = 0, cnt = 0;
	rung_vrow *rows = NULL;
	while (max <= 0 || cnt < max) {
		if (cnt == cap) {
			int nc = cap ? cap * 2 : 32;
			rung_vrow *nr = realloc(rows, (size_t)nc * sizeof(*nr));
			if (!nr) {
				e = rung_error_set(RUNG_ENOMEM, "out of memory");
				break;
			}
			rows = nr;
			cap = nc;
		}
		e = rung_rows_next(&rows[cnt], &l, c);
		if (e != 0)
			break;
		cnt++;
	}
	rung_rows_close(&l);
	if (e < 0) {
		rung_vrows_free(rows, cnt);
		return e;
	}
	*out = rows;
	*n = cnt;
	return 0;
}

void rung_vrow_clear(rung_vrow *row)
{
	if (row->result) {
		rung_result_clear(row->result);
		free(row->result);
	}
	rung_note_clear(&row->note);
	memset(row, 0, sizeof(*row));
}

static int id_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int rung_vctx_version_ids(char ***out, int *n, rung_vctx *c)
{
	*out = NULL;
	*n = 0;
	rung_history_opts o = rung_vtask_history_opts(&c->task);
	o.worktree = false;
	rung_history *h;
	int e = rung_history_open(&h, c->repo, &o);
	if (e < 0)
		return e;
	char **v = NULL;
	int cnt = 0, cap = 0;
	rung_version ver;
	while ((e = rung_history_next(&ver, h)) == 0) {
		if (cnt == cap) {
			int nc = cap ? cap * 2 : 32;
			char **nv = realloc(v, (size_t)nc * sizeof(*nv));
			if (!nv) {
				e = rung_error_set(RUNG_ENOMEM, "out of memory");
				break;
			}
			v = nv;
			cap = nc;
		}
		if (!(v[cnt] = strdup(ver.id))) {
			e = rung_error_set(RUNG_ENOMEM, "out of memory");
			break;
		}
		cnt++;
	}
	rung_history_free(h);
	if (e < 0) {
		rung_strv_free(v, cnt);
		return e;
	}
	if (cnt > 1)
		qsort(v, (size_t)cnt, sizeof(*v), id_cmp);
	*out = v;
	*n = cnt;
	return 0;
}

bool rung_version_ids_has(char *const *ids, int n, const char *id)
{
	return n > 0 && bsearch(&id, ids, (size_t)n, sizeof(*ids), id_cmp) != NULL;
}

void rung_vrows_free(rung_vrow *rows, int n)
{
	for (int i = 0; i < n; i++)
		rung_vrow_clear(&rows[i]);
	free(rows);
}

bool rung_result_passed(const rung_result *r)
{
	return r && rung_result_status(r) == RUNG_S_OK && r->steps[RUNG_STEP_CHECK].status == RUNG_S_OK;
}

bool rung_result_compile_verdict(const rung_result *r)
{
	return r && r->recorded && !r->env.valid && !r->env.uuid[0] && !r->bench.valid &&
	       r->steps[RUNG_STEP_COMPILE].status != RUNG_S_NONE;
}

int rung_vrows_baseline(const rung_vrow *rows, int n)
{
	for (int i = 0; i < n; i++)
		if (rows[i].has_note && rows[i].note.verdict == RUNG_NOTE_BASELINE)
			return i;
	for (int i = n - 1; i >= 0; i--)
		if (rung_result_passed(rows[i].result) && rows[i].result->bench.valid && !rows[i].result->impossible)
			return i;
	return -1;
}

/* The fastest passing version, among those timed alone on the GPU unless shared. */
static int fastest(const rung_vrow *rows, int n, bool shared)
{
	int best = -1;
	for (int i = 0; i < n; i++) {
		const rung_result *r = rows[i].result;
		if (!rung_result_passed(r) || !r->bench.valid || isnan(r->bench.median) || r->impossible)
			continue;
		if (!shared && rung_bench_shared(&r->bench))
			continue;
		if (rows[i].has_note && rows[i].note.verdict == RUNG_NOTE_REJECT)
			continue;
		if (best < 0 || r->bench.median < rows[best].result->bench.median)
			best = i;
	}
	return best;
}

int rung_vrows_best(const rung_vrow *rows, int n)
{
	/* a timing taken beside another process on the GPU is not trusted: only
	 * when every candidate was timed so */
	int best = fastest(rows, n, false);
	return best >= 0 ? best : fastest(rows, n, true);
}

void rung_result_steps_str(char *buf, size_t len, const rung_result *r)
{
	size_t o = 0;
	buf[0] = 0;
	for (int s = 0; s < RUNG_NSTEPS && o < len; s++) {
		if (s == RUNG_STEP_SANITIZE && (!r || r->steps[s].status == RUNG_S_NONE))
			break; /* shown only where it ran */
		const char *w = "-";
		switch (r ? r->steps[s].status : RUNG_S_NONE) {
		case RUNG_S_OK: w = "ok"; break;
		case RUNG_S_FAILED: w = "FAIL"; break;
		case RUNG_S_SKIPPED: w = "skip"; break;
		case RUNG_S_PENDING: case RUNG_S_RUNNING: w = "..."; break;
		default: break;
		}
		o += (size_t)snprintf(buf + o, len - o, "%s%s", s ? " " : "", w);
	}
}

void rung_vrow_line(char *buf, size_t len, const rung_version *v, const rung_result *r)
{
	char steps[64];
	rung_result_steps_str(steps, sizeof(steps), r);
	if (!r) {
		snprintf(buf, len, "%-8s not evaluated  %s", v->short_id, v->subject);
		return;
	}
	const char *reason = rung_result_reason(r);
	if (reason[0]) {
		snprintf(buf, len, "%-8s %-22s %s  %s%s", v->short_id, steps, reason, v->subject, r->cached ? "  (cached)" : "");
		return;
	}
	if (r->steps[RUNG_STEP_COMPILE].status == RUNG_S_OK &&
	    (r->steps[RUNG_STEP_RUN].status == RUNG_S_SKIPPED || r->steps[RUNG_STEP_RUN].status == RUNG_S_NONE) &&
	    r->compile.kernel.valid) {
		/* the compile rung only (--compile-only, no GPU): what it gives, not an empty max_rel (#28 D-16) */
		snprintf(buf, len, "%-8s %-22s compiled: regs %d, spills %" PRId64 ", smem %" PRId64 " B; run, check and bench need a GPU  %s",
			 v->short_id, steps, r->compile.kernel.regs, r->compile.kernel.spill_stores + r->compile.kernel.spill_loads,
			 r->compile.kernel.smem, v->subject);
		return;
	}
	double mr = rung_metric_worst(r, RUNG_METRIC_MAX_REL);
	char med[32] = "-", rel[32] = "-";
	if (r->bench.valid && !isnan(r->bench.median))
		snprintf(med, sizeof(med), "%.4g ms", r->bench.median);
	rung_fmt_max_rel(rel, sizeof(rel), mr);
	char kinds[200];
	rung_suspect_kinds(kinds, sizeof(kinds), r);
	char shared[512] = "";
	if (r->bench.valid && rung_bench_shared(&r->bench)) {
		shared[0] = shared[1] = ' ';
		rung_gpu_procs_str(shared + 2, sizeof(shared) - 2, &r->bench.shared);
	}
	snprintf(buf, len, "%-8s %-22s %-12s max_rel %-8s %s%s%s%s%s%s", v->short_id, steps, med, rel, v->subject,
		 r->cached ? "  (cached)" : "", r->impossible ? "  IMPOSSIBLE: faster than the roofline floor" : "",
		 kinds[0] ? "  suspect: " : "", kinds, shared);
}


bool rung_results_other_gpu(const rung_result *a, const rung_result *b, char *why, size_t len)
{
	if (len)
		why[0] = 0;
	if (!a || !b || !a->env.valid || !b->env.valid || !a->env.gpu[0] || !b->env.gpu[0] ||
	    !strcmp(a->env.gpu, b->env.gpu))
		return false;
	if (len)
		snprintf(why, len, "A was timed on %s%s%s%s, B on %s%s%s%s", a->env.gpu, a->env.host[0] ? " (host " : "",
			 a->env.host, a->env.host[0] ? ")" : "", b->env.gpu, b->env.host[0] ? " (host " : "", b->env.host,
			 b->env.host[0] ? ")" : "");
	return true;
}

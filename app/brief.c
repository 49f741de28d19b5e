/* rung brief's content (app/brief.h). */
#include "app/brief.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "core/sha256.h"
#include "vcs/prof_store.h"
#include "app/goal.h"

/* The id a note's line is marked seen by. */
static void line_id(char out[65], const char *commit, const char *line)
{
	rung_sha256_ctx c;
	rung_sha256_init(&c);
	rung_sha256_update(&c, commit, strlen(commit));
	rung_sha256_update(&c, "\n", 1);
	rung_sha256_update(&c, line, strlen(line));
	rung_sha256_final_hex(&c, out);
}

static void subject_of(rung_vctx *c, const char *commit, char *buf, size_t len)
{
	rung_version v;
	if (rung_version_at(&v, c->repo, commit, "") < 0 && !v.id[0])
		snprintf(v.subject, sizeof(v.subject), "(unknown commit)");
	rung_error_clear();
	snprintf(buf, len, "%.7s \"%s\"", commit, v.subject);
}

/* Whether commit is one of the task's versions (notes on other tasks'
 * commits belong to their briefs). */
static bool of_task(const rung_vrow *rows, int nrows, const char *commit)
{
	for (int i = 0; i < nrows; i++)
		if (!strcmp(rows[i].v.id, commit))
			return true;
	return false;
}

/* Results recorded on another machine (imported: the demo's H200 runs):
 * how many versions have one, and the fastest passing one. */
static void recorded(rung_brief *b, rung_vctx *c)
{
	for (int i = 0; i < b->n; i++) {
		if (b->rows[i].result)
			continue;
		rung_result *r = rung_recorded_lookup(c, &b->rows[i].v, b->rows[i].content);
		if (!r)
			continue;
		if (rung_result_compile_verdict(r)) { /* compiled here with no GPU: not a measurement (#28 D-16) */
			if (!b->compiled)
				b->compiled = calloc((size_t)b->n, sizeof(*b->compiled));
			if (b->compiled) {
				b->compiled[i] = r;
				b->ncomp++;
			} else {
				rung_result_clear(r);
				free(r);
			}
			continue;
		}
		b->nrec++;
		rung_result *best = b->rec_best_r;
		if (rung_result_passed(r) && r->bench.valid && (!best || r->bench.median < best->bench.median)) {
			if (best) {
				rung_result_clear(best);
				free(best);
			}
			b->rec_best_r = r;
			b->rec_best = i;
		} else {
			rung_result_clear(r);
			free(r);
		}
	}
	rung_error_clear();
}

/* The best version's stored stall samples (`rung profile --stalls`). */
static void best_stalls(rung_brief *b, rung_store *st)
{
	const rung_vrow *row = &b->rows[b->best];
	char *js = NULL;
	json_t *j = NULL;
	b->best_sampled = st && row->result && row->result->key[0] &&
			  rung_store_get_extra(&js, st, row->result->key, "stall") == 0 && (j = json_loads(js, 0, NULL)) &&
			  rung_stall_from_json(&b->best_stall, j) == 0 && b->best_stall.total > 0;
	if (!b->best_sampled)
		rung_error_clear();
	json_decref(j);
	free(js);
}

/* Remembers id as seen; the first failure is kept in b->mark_failed. */
static void mark_seen(rung_brief *b, rung_vctx *c, const char *id, int64_t now, int *failed)
{
	if (!*failed && (*failed = rung_store_mark_seen(c->store, id, now)) < 0) {
		b->mark_kept_not = true;
		snprintf(b->mark_failed, sizeof(b->mark_failed), "%s", rung_error_last());
	}
}

/* One item of the notes: new (not seen) is listed; marked when asked. 0, or
 * -1 when the mark could not be read. */
static int item(rung_brief *b, rung_vctx *c, const rung_brief_req *req, int note, int k, int answer, const char *line,
		int *failed)
{
	char id[65];
	line_id(id, b->notes[note].commit, line);
	int seen = rung_store_seen(c->store, id);
	if (seen < 0)
		return -1;
	if (!seen) {
		rung_brief_new *grown = realloc(b->fresh, sizeof(*b->fresh) * (size_t)(b->nfresh + 1));
		if (!grown)
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		b->fresh = grown;
		b->fresh[b->nfresh++] = (rung_brief_new){.note = note, .k = k, .answer = answer};
	}
	if (req->mark)
		mark_seen(b, c, id, req->now, failed);
	return 0;
}

/* The person's notes on the task's versions, what is new since the last
 * marked brief, and the marks (with req->mark). */
static void notes(rung_brief *b, rung_vctx *c, const rung_brief_req *req)
{
	if (rung_notes_list(&b->notes, &b->nall, c->repo) < 0)
		goto fail;
	for (int i = 0; i < b->nall; i++) { /* keep this task's, in place */
		if (of_task(b->rows, b->n, b->notes[i].commit)) {
			if (b->nnotes != i) {
				rung_note tmp = b->notes[b->nnotes];
				b->notes[b->nnotes] = b->notes[i];
				b->notes[i] = tmp;
			}
			b->nnotes++;
		}
	}
	b->subjects = calloc((size_t)b->nnotes + 1, sizeof(*b->subjects));
	if (!b->subjects) {
		rung_error_set(RUNG_ENOMEM, "out of memory");
		goto fail;
	}
	for (int i = 0; i < b->nnotes; i++)
		subject_of(c, b->notes[i].commit, b->subjects[i], sizeof(b->subjects[i]));
	char *last = NULL;
	b->have_last = rung_store_meta_get(&last, c->store, "last_brief") == 0;
	if (b->have_last)
		b->last_brief = strtoll(last, NULL, 10);
	free(last);
	rung_error_clear();
	if (rung_store_read_error(c->store) < 0) /* not "the start": the mark was there and could not be read */
		goto fail;
	b->since_read = true;
	int failed = 0;
	const char *ro = rung_store_readonly(c->store);
	b->mark_readonly = ro != NULL;
	if (req->mark && ro) { /* no write can work: none is tried */
		failed = RUNG_ESTORE;
		b->mark_kept_not = true;
		snprintf(b->mark_failed, sizeof(b->mark_failed), "%s is open read-only: %s", rung_store_path(c->store), ro);
	}
	for (int i = 0; i < b->nnotes; i++) {
		const rung_note *nt = &b->notes[i];
		if (nt->verdict != RUNG_NOTE_NONE) {
			char line[64];
			snprintf(line, sizeof(line), "verdict: %s", rung_note_verdict_name(nt->verdict));
			if (item(b, c, req, i, -1, -1, line, &failed) < 0) {
				b->seen_failed = true;
				goto fail;
			}
		}
		for (int k = 0; k < nt->ndirectives; k++) {
			const rung_directive *d = &nt->directives[k];
			char line[1024];
			/* a directive's id is what it was before remarks existed (marks stay valid) */
			snprintf(line, sizeof(line), "%s%" PRId64 " %s: %s", d->remark ? "remark " : "", d->time, d->author,
				 d->text);
			if (item(b, c, req, i, k, -1, line, &failed) < 0) {
				b->seen_failed = true;
				goto fail;
			}
			/* the person's reopen of it: news for the agent, who may have
			 * answered it (rung note --reopen ID) */
			for (int a = 0; !d->remark && a < d->nanswers; a++) {
				const rung_answer_rec *an = &d->answers[a];
				if (an->kind != RUNG_ANSWER_REOPENED)
					continue;
				char did[RUNG_DIRECTIVE_ID_LEN + 1];
				rung_directive_id(did, nt, k);
				snprintf(line, sizeof(line), "reopened %s %" PRId64 " %s", did, an->time, an->author);
				if (item(b, c, req, i, k, a, line, &failed) < 0) {
					b->seen_failed = true;
					goto fail;
				}
			}
		}
	}
	if (req->mark) {
		char nowbuf[32];
		snprintf(nowbuf, sizeof(nowbuf), "%" PRId64, req->now);
		if (!failed && (failed = rung_store_meta_set(c->store, "last_brief", nowbuf)) < 0) {
			b->mark_kept_not = true;
			snprintf(b->mark_failed, sizeof(b->mark_failed), "%s", rung_error_last());
		}
	}
	b->mark_kept_not = req->mark && failed;
	b->notes_read = true;
	return;
fail:
	snprintf(b->err, sizeof(b->err), "%s", rung_error_last());
}

int rung_brief_load(rung_brief *out, rung_vctx *c, const rung_brief_req *req)
{
	memset(out, 0, sizeof(*out));
	out->best = out->base = out->rec_best = -1;
	out->floor_ms = NAN;
	int e = rung_vctx_rows(&out->rows, &out->n, c, NULL, 0);
	if (e < 0)
		return e;
	rung_goal_status gs;
	if (rung_goal_of_rows(&gs, c, out->rows, out->n) == 0) {
		snprintf(out->goal_line, sizeof(out->goal_line), "%s", gs.line);
		out->has_goal = true;
	}
	rung_error_clear();
	rung_goal_status_clear(&gs);
	for (int i = 0; i < out->n; i++)
		out->evaluated += out->rows[i].result != NULL;
	/* the best under the sanitize gate (app/sanitize_gate.h): the one to build on */
	out->gate_tools = rung_gate_tools(c->task.spec);
	rung_gate_pick_rows(&out->gate, out->rows, out->n, out->gate_tools);
	out->best = out->gate.best;
	out->base = rung_vrows_baseline(out->rows, out->n);
	for (int i = 0; i < out->n && isnan(out->floor_ms); i++) {
		const rung_result *r = out->rows[i].result;
		if (r && !isnan(r->floor_ms)) {
			out->floor_ms = r->floor_ms;
			out->floor_from = r->env.valid ? r->env.gpu : "?";
		}
	}
	if (out->best >= 0)
		best_stalls(out, c->store);
	recorded(out, c);
	notes(out, c, req);
	return 0;
}

void rung_brief_clear(rung_brief *b)
{
	if (b->rec_best_r) {
		rung_result_clear(b->rec_best_r);
		free(b->rec_best_r);
	}
	for (int i = 0; b->compiled && i < b->n; i++)
		if (b->compiled[i]) {
			rung_result_clear(b->compiled[i]);
			free(b->compiled[i]);
		}
	free(b->compiled);
	rung_stall_clear(&b->best_stall);
	rung_notes_free(b->notes, b->nall);
	free(b->subjects);
	free(b->fresh);
	rung_vrows_free(b->rows, b->n);
	memset(b, 0, sizeof(*b));
}

/* rung compare's comparison (app/compare.h). */
#include "app/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "gpu/nvdisasm.h"
#include "app/evaluate.h"

static void side_load(rung_compare_side *s, const rung_task *t, const rung_compiled *c)
{
	memset(s, 0, sizeof(*s));
	if (t->rev[0])
		snprintf(s->name, sizeof(s->name), "%s%s%.140s", t->short_rev, t->label ? " " : "", t->label ? t->label : "");
	else
		snprintf(s->name, sizeof(s->name), "%s", t->kernel.path ? t->kernel.path : "?");
	s->k = &c->kinfo;
	if (!c->cubin || rung_sass_from_cubin(&s->sass, c->cubin, c->cubin_len) < 0)
		snprintf(s->sass_err, sizeof(s->sass_err), "%s", c->cubin ? rung_error_last() : "no CUBIN");
	rung_error_clear();
}

/* Without a GPU: what the two versions' compiles tell. */
static void static_sides(rung_compare_result *r, const rung_compare_req *req)
{
	side_load(&r->a, req->a, &r->ka);
	side_load(&r->b, req->b, &r->kb);
	r->raw = req->raw_sass;
	if (r->a.sass && r->b.sass) {
		if (rung_sass_diff_listings(&r->diff, &r->a.mix, &r->b.mix, r->a.sass, r->b.sass, req->raw_sass, 3) < 0)
			snprintf(r->diff_err, sizeof(r->diff_err), "%s", rung_error_last());
	} else {
		snprintf(r->diff_err, sizeof(r->diff_err), "%s", r->a.sass ? r->b.sass_err : r->a.sass_err);
	}
}

static void classify(rung_compare_result *out, const rung_compare_req *req);
static void gate(rung_compare_result *out, const rung_compare_req *req, rung_worker *w);

int rung_compare_run(rung_compare_result *out, const rung_compare_req *req)
{
	memset(out, 0, sizeof(*out));
	const rung_task *ta = req->a, *tb = req->b;
	if (rung_task_compile(&out->ka, ta, false)) {
		out->kind = RUNG_COMPARE_FAILED;
		snprintf(out->reason, sizeof(out->reason), "A does not compile: %s",
			 out->ka.error[0] ? out->ka.error : rung_error_last());
		return 0;
	}
	if (rung_task_compile(&out->kb, tb, false)) {
		out->kind = RUNG_COMPARE_FAILED;
		snprintf(out->reason, sizeof(out->reason), "B does not compile: %s",
			 out->kb.error[0] ? out->kb.error : rung_error_last());
		return 0;
	}
	rung_worker *w = NULL;
	if (rung_worker_open(&w, NULL))
		return RUNG_EIO;
	rung_compare_launch la = {ta->kernel.src, &ta->launch, ta->kernel.path},
			    lb = {tb->kernel.src, &tb->launch, tb->kernel.path};
	int e = rung_compare_versions_l(&out->ab, w, ta->spec, &la, &out->ka, &lb, &out->kb, req->budget);
	if (e) {
		rung_worker_detach(w);
		snprintf(out->error, sizeof(out->error), "%s", rung_error_last());
		return RUNG_EIO;
	}
	classify(out, req);
	if (out->kind == RUNG_COMPARE_TIMED)
		gate(out, req, w);
	rung_worker_detach(w);
	return 0;
}

/* The side called faster is sanitized first: never recommended before it
 * passed the sanitizer (app/sanitize_gate.h); its state goes with the verdict. */
static void gate(rung_compare_result *out, const rung_compare_req *req, rung_worker *w)
{
	const rung_compare *cmp = &out->cmp;
	out->gate_side = cmp->verdict == RUNG_CMP_FASTER ? "B" : cmp->verdict == RUNG_CMP_SLOWER ? "A" : NULL;
	if (!out->gate_side)
		return;
	const rung_task *ft = out->gate_side[0] == 'B' ? req->b : req->a;
	rung_store *gst = NULL;
	if (ft->repo && rung_store_open_repo(&gst, ft->repo) < 0) {
		rung_error_clear();
		gst = NULL;
	}
	rung_evaluator gev;
	memset(&gev, 0, sizeof(gev));
	gev.w = w; /* borrowed: the device as compare's worker sees it */
	gev.store = gst;
	if (req->on_sanitize)
		req->on_sanitize(req->ud, out->gate_side);
	rung_result gr;
	rung_result_init(&gr);
	char gwhy[512] = "";
	out->gate_state = RUNG_GATE_NA;
	if (rung_gate_task(&gr, &out->gate_state, &gev, ft, NULL, NULL, gwhy, sizeof(gwhy)) < 0) {
		snprintf(out->gate_error, sizeof(out->gate_error), "%s", rung_error_last());
		rung_error_clear();
		out->gate_state = RUNG_GATE_UNSANITIZED;
		snprintf(gwhy, sizeof(gwhy), "the run could not be made");
	}
	rung_store_close(gst);
	if (out->gate_state == RUNG_GATE_UNSANITIZED)
		snprintf(out->gate_detail, sizeof(out->gate_detail), "unsanitized (%s): the verdict is provisional", gwhy);
	else if (out->gate_state == RUNG_GATE_FAILED)
		snprintf(out->gate_detail, sizeof(out->gate_detail), "sanitize FAILED: %s: %s is not recommended",
			 gr.steps[RUNG_STEP_SANITIZE].reason, out->gate_side);
	else
		rung_gate_describe(out->gate_detail, sizeof(out->gate_detail), &gr, rung_gate_tools(ft->spec), NULL);
	rung_result_clear(&gr);
}

/* What the rounds say: out->kind. */
static void classify(rung_compare_result *out, const rung_compare_req *req)
{
	rung_ab *ab = &out->ab;
	if (ab->identical) {
		out->kind = RUNG_COMPARE_SAME;
		snprintf(out->reason, sizeof(out->reason), "identical machine code");
	} else if (ab->failed && ab->skipped) { /* no GPU: what the compiles tell, the timing skipped */
		out->kind = RUNG_COMPARE_SKIPPED;
		snprintf(out->reason, sizeof(out->reason), "%s", ab->reason);
		static_sides(out, req);
	} else if (ab->failed) {
		out->kind = RUNG_COMPARE_FAILED;
		snprintf(out->reason, sizeof(out->reason), "%s", ab->reason);
	} else if (ab->disagree) { /* a verified launch did not match: no timing verdict */
		out->kind = RUNG_COMPARE_DISAGREE;
	} else if (ab->n < 2 || rung_compare_samples(&out->cmp, ab->a, ab->n, ab->b, ab->n, 0, 0x5eed)) {
		out->kind = RUNG_COMPARE_FAILED;
		snprintf(out->reason, sizeof(out->reason), "too few samples (%d, %d dropped under 75%% of the max SM clock)",
			 ab->n, ab->dropped);
	} else {
		/* another process on the GPU: the timing is not trusted, no verdict unless asked */
		out->kind = RUNG_COMPARE_TIMED;
		rung_gpu_procs_str(out->shared, sizeof(out->shared), &ab->shared);
		out->held = out->shared[0] && !req->allow_shared;
	}
}

void rung_compare_result_clear(rung_compare_result *r)
{
	rung_ab_clear(&r->ab);
	rung_sbs_clear(&r->diff);
	free(r->a.sass);
	free(r->b.sass);
	rung_compiled_clear(&r->ka);
	rung_compiled_clear(&r->kb);
	memset(r, 0, sizeof(*r));
}

const char *rung_compare_verdict(const rung_compare_result *r)
{
	switch (r->kind) {
	case RUNG_COMPARE_SAME: return "SAME";
	case RUNG_COMPARE_FAILED: return "FAILED";
	case RUNG_COMPARE_SKIPPED: return "SKIPPED";
	case RUNG_COMPARE_DISAGREE: return "DISAGREE";
	case RUNG_COMPARE_OTHER_GPU: return "OTHER_GPU";
	default: return r->held ? "SHARED" : rung_cmp_verdict_name(r->cmp.verdict);
	}
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static void add_verified(json_t *o, const rung_ab *ab)
{
	json_object_set_new(o, "verified", json_integer(ab->verified));
	json_object_set_new(o, "sets", json_integer(ab->sets));
	json_object_set_new(o, "verify_ms", num_or_null(ab->verify_ms));
}

static json_t *side_json(const rung_compare_side *s)
{
	json_t *o = json_pack("{s:s}", "version", s->name);
	if (s->k->valid) {
		json_object_set_new(o, "regs", json_integer(s->k->regs));
		json_object_set_new(o, "spills", json_integer(s->k->spill_stores + s->k->spill_loads));
		json_object_set_new(o, "smem", json_integer(s->k->smem));
	}
	if (s->sass) {
		json_t *mix = json_object();
		for (int k = 0; k < RUNG_MIX_COUNT; k++)
			if (s->mix.n[k])
				json_object_set_new(mix, rung_mix_name((rung_mix_id)k), json_integer(s->mix.n[k]));
		json_object_set_new(o, "mix", mix);
	}
	return o;
}

/* Revision rev's row among rows (a prefix of its commit id, or WORKTREE). */
static const rung_vrow *find_row(const rung_vrow *rows, int n, rung_vctx *c, const char *rev)
{
	rung_version v;
	if (rung_version_at(&v, c->repo, rev, c->task.kernel_path) < 0)
		return NULL;
	for (int i = 0; i < n; i++)
		if (!strcmp(rows[i].v.id, v.id))
			return &rows[i];
	rung_error_set(RUNG_EINVAL, "%s is not a version of the task %s", rev, c->task.kernel_path);
	return NULL;
}

int rung_compare_stored(rung_compare_result *out, rung_vctx *c, const char *ra, const char *rb, bool allow_shared,
			bool any_gpu)
{
	memset(out, 0, sizeof(*out));
	out->stored = true;
	out->kind = RUNG_COMPARE_FAILED;
	rung_vrow *rows = NULL;
	int n = 0, rc = 0;
	if (rung_vctx_rows(&rows, &n, c, NULL, 0) < 0)
		return RUNG_EIO; /* its message stays */
	const rung_vrow *A = find_row(rows, n, c, ra), *B = A ? find_row(rows, n, c, rb) : NULL;
	if (!A || !B) {
		rc = rung_error_last_code() < 0 ? rung_error_last_code() : RUNG_EINVAL;
		goto done;
	}
	const rung_vrow *side[2] = {A, B};
	for (int k = 0; k < 2; k++) {
		const rung_result *r = side[k]->result;
		if (!r || !r->key[0]) {
			snprintf(out->reason, sizeof(out->reason), "%s (%s) has no stored result: rung eval %s first",
				 k ? "B" : "A", side[k]->v.short_id, side[k]->v.short_id);
			goto done;
		}
		if (!r->bench.valid || r->bench.n < 2 || !r->bench.samples) {
			snprintf(out->reason, sizeof(out->reason), "%s (%s) has no timing to compare (bench %s%s%s)",
				 k ? "B" : "A", side[k]->v.short_id, rung_status_name(r->steps[RUNG_STEP_BENCH].status),
				 r->steps[RUNG_STEP_BENCH].reason[0] ? ": " : "", r->steps[RUNG_STEP_BENCH].reason);
			goto done;
		}
	}
	const rung_result *a = A->result, *b = B->result;
	snprintf(out->gpu_a, sizeof(out->gpu_a), "%s", a->env.gpu);
	snprintf(out->gpu_b, sizeof(out->gpu_b), "%s", b->env.gpu);
	out->n_a = a->bench.n;
	out->n_b = b->bench.n;
	out->other_gpu = rung_results_other_gpu(a, b, out->other, sizeof(out->other));
	if (out->other_gpu && !any_gpu) {
		out->kind = RUNG_COMPARE_OTHER_GPU;
		goto done;
	}
	if (rung_compare_samples(&out->cmp, a->bench.samples, a->bench.n, b->bench.samples, b->bench.n, 0, 0x5eed)) {
		snprintf(out->reason, sizeof(out->reason), "the stored samples give no comparison: %s", rung_error_last());
		goto done;
	}
	rung_gpu_procs both = a->bench.shared;
	for (int k = 0; k < b->bench.shared.n; k++)
		rung_gpu_procs_add(&both, b->bench.shared.p[k].pid, b->bench.shared.p[k].name);
	both.more += b->bench.shared.more;
	out->ab.shared = both;
	rung_gpu_procs_str(out->shared, sizeof(out->shared), &both);
	out->held = out->shared[0] && !allow_shared;
	out->kind = RUNG_COMPARE_TIMED;
done:
	rung_vrows_free(rows, n);
	if (!rc)
		rung_error_clear();
	return rc;
}

/* Every real in j to 6 significant digits, as JSON_REAL_PRECISION(6) writes it. */
static void round_reals(json_t *j)
{
	const char *k;
	json_t *v;
	if (json_is_real(j)) {
		char buf[32];
		snprintf(buf, sizeof(buf), "%.6g", json_real_value(j));
		json_real_set(j, strtod(buf, NULL));
	} else if (json_is_object(j)) {
		json_object_foreach(j, k, v)
			round_reals(v);
	} else if (json_is_array(j)) {
		for (size_t i = 0; i < json_array_size(j); i++)
			round_reals(json_array_get(j, i));
	}
}

json_t *rung_compare_to_json(const rung_compare_result *r)
{
	const rung_ab *ab = &r->ab;
	const char *verdict = rung_compare_verdict(r);
	json_t *o = NULL;
	switch (r->kind) {
	case RUNG_COMPARE_SAME:
		o = json_pack("{s:s,s:b}", "verdict", verdict, "identical", true);
		break;
	case RUNG_COMPARE_FAILED:
		o = json_pack("{s:s}", "verdict", verdict);
		if (o)
			json_object_set_new(o, "reason", json_string(r->reason));
		break;
	case RUNG_COMPARE_SKIPPED:
		o = json_pack("{s:s,s:s}", "verdict", verdict, "reason", r->reason);
		if (!o)
			break;
		json_object_set_new(o, "a", side_json(&r->a));
		json_object_set_new(o, "b", side_json(&r->b));
		if (r->diff_err[0])
			json_object_set_new(o, "sass_error", json_string(r->diff_err));
		else
			json_object_set_new(o, "sass_diff", json_pack("{s:s,s:i,s:i,s:i}", "mode", r->raw ? "raw" : "normalized",
								       "hunks", r->diff.nhunks, "adds", r->diff.adds, "dels",
								       r->diff.dels));
		break;
	case RUNG_COMPARE_DISAGREE: {
		json_t *first = json_array();
		for (int k = 0; k < ab->rank; k++)
			json_array_append_new(first, json_integer(ab->first[k]));
		o = json_pack("{s:s,s:s,s:i,s:b,s:s,s:s,s:I,s:o}", "verdict", verdict, "reason", ab->reason, "round", ab->round,
			      "timed", ab->round_timed, "kernel", ab->kernel, "arg", ab->arg, "count", (json_int_t)ab->count,
			      "first", first);
		if (o)
			add_verified(o, ab);
		break;
	}
	case RUNG_COMPARE_OTHER_GPU:
		o = json_pack("{s:s,s:s,s:s,s:s}", "verdict", verdict, "gpu_a", r->gpu_a, "gpu_b", r->gpu_b, "reason", r->other);
		break;
	default: {
		const rung_compare *cmp = &r->cmp;
		if (r->stored) {
			o = json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:i,s:i,s:s,s:b,s:s,s:s}", "verdict", verdict, "ratio",
				      num_or_null(cmp->ratio), "lo", num_or_null(cmp->lo), "hi", num_or_null(cmp->hi), "median_a",
				      num_or_null(cmp->median_a), "median_b", num_or_null(cmp->median_b), "n_a", r->n_a, "n_b",
				      r->n_b, "source", "stored", "other_gpu", r->other_gpu, "gpu_a", r->gpu_a, "gpu_b", r->gpu_b);
			if (!o)
				break;
			json_object_set_new(o, "shared", rung_gpu_procs_to_json(&ab->shared));
			if (r->held)
				json_object_set_new(o, "timing_verdict", json_string(rung_cmp_verdict_name(cmp->verdict)));
			break;
		}
		o = json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:i,s:i,s:s,s:s}", "verdict", verdict, "ratio", num_or_null(cmp->ratio),
			      "lo", num_or_null(cmp->lo), "hi", num_or_null(cmp->hi), "median_a", num_or_null(cmp->median_a),
			      "median_b", num_or_null(cmp->median_b), "n", ab->n, "dropped", ab->dropped, "method", ab->method,
			      "order", "alternate");
		if (!o)
			break;
		add_verified(o, ab);
		json_object_set_new(o, "shared", rung_gpu_procs_to_json(&ab->shared));
		if (r->held)
			json_object_set_new(o, "timing_verdict", json_string(rung_cmp_verdict_name(cmp->verdict)));
		if (r->gate_side)
			json_object_set_new(o, "sanitize",
					    json_pack("{s:s,s:s,s:s}", "version", r->gate_side[0] == 'B' ? "b" : "a", "state",
						      rung_gate_name(r->gate_state), "detail", r->gate_detail));
	}
	}
	round_reals(o);
	return o;
}

/* Parent side of A/B timing: identical machine code short-cuts to SAME; else
 * both plans and CUBINs go to the worker in one "compare" message, whose
 * answer carries the samples, how many launches were verified, and where A and
 * B disagreed when they did (gpu/worker/compare.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/rng.h"
#include "gpu/cubin.h"
#include "gpu/plan.h"
#include "gpu/worker_internal.h"

void rung_ab_clear(rung_ab *ab)
{
	if (!ab)
		return;
	free(ab->a);
	free(ab->b);
	ab->a = ab->b = NULL;
	ab->n = 0;
}

static int plan_for(rung_plan *p, const rung_spec *spec, const char *src, const rung_launch *given, const char *file,
		    const rung_compiled *k, uint64_t seed, double budget_s, char *reason, size_t rlen)
{
	rung_launch l;
	memset(&l, 0, sizeof(l));
	if ((given ? rung_launch_copy(&l, given) : rung_launch_from_source(&l, spec, src, file)) < 0 ||
	    rung_plan_build(p, spec, &l, NULL, seed)) {
		snprintf(reason, rlen, "%s", rung_error_last());
		rung_launch_clear(&l);
		return 1;
	}
	rung_launch_clear(&l);
	p->has_ref = false;
	snprintf(p->kernel.lowered, sizeof(p->kernel.lowered), "%s", k->lowered);
	snprintf(p->kernel.file, sizeof(p->kernel.file), "%s", file);
	p->budget_s = budget_s;
	return 0;
}

static int samples_from(double **out, const json_t *a, int n)
{
	*out = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
	if (!*out)
		return RUNG_ENOMEM;
	for (int i = 0; i < n; i++)
		(*out)[i] = json_number_value(json_array_get(a, (size_t)i));
	return 0;
}

/* The "disagree" object of a compare_result: where a verified launch did not match. */
static void disagree_from(rung_ab *out, const json_t *d)
{
	out->disagree = true;
	out->round = (int)json_integer_value(json_object_get(d, "round"));
	out->round_timed = json_is_true(json_object_get(d, "timed"));
	const char *k = json_string_value(json_object_get(d, "kernel"));
	snprintf(out->kernel, sizeof(out->kernel), "%s", k && (!strcmp(k, "A") || !strcmp(k, "B")) ? k : "");
	const char *arg = json_string_value(json_object_get(d, "arg"));
	snprintf(out->arg, sizeof(out->arg), "%s", arg ? arg : "");
	out->count = (int64_t)json_integer_value(json_object_get(d, "count"));
	const json_t *f = json_object_get(d, "first");
	out->rank = 0;
	for (size_t i = 0; i < json_array_size(f) && i < RUNG_MAX_RANK; i++)
		out->first[out->rank++] = (int64_t)json_integer_value(json_array_get(f, i));
}

int rung_compare_versions(rung_ab *out, rung_worker *w, const rung_spec *spec, const char *src_a, const char *file_a,
			  const rung_compiled *ka, const char *src_b, const char *file_b, const rung_compiled *kb,
			  double budget_s)
{
	rung_compare_launch la = {src_a, NULL, file_a}, lb = {src_b, NULL, file_b};
	return rung_compare_versions_l(out, w, spec, &la, ka, &lb, kb, budget_s);
}

int rung_compare_versions_l(rung_ab *out, rung_worker *w, const rung_spec *spec, const rung_compare_launch *a,
			    const rung_compiled *ka, const rung_compare_launch *b, const rung_compiled *kb, double budget_s)
{
	const char *src_a = a->src, *file_a = a->file, *src_b = b->src, *file_b = b->file;
	memset(out, 0, sizeof(*out));
	out->verify_ms = NAN;
	if (!w || !spec || !ka || !kb || !ka->cubin || !kb->cubin)
		return rung_error_set(RUNG_EINVAL, "rung_compare_versions: two compiled versions are required");
	if (rung_cubin_same_code(ka->cubin, ka->cubin_len, kb->cubin, kb->cubin_len) == 1) {
		out->identical = true;
		return 0;
	}
	int rc = rung__worker_start(w);
	if (rc) {
		out->failed = true;
		out->skipped = rc == RUNG_ENODEV;
		snprintf(out->reason, sizeof(out->reason), "%s", rung_error_last());
		return 0;
	}
	if (!(budget_s > 0))
		budget_s = 2.0;
	rung_plan *pa = malloc(sizeof(*pa)), *pb = malloc(sizeof(*pb));
	if (!pa || !pb) {
		free(pa);
		free(pb);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	uint64_t seed = rung_seed_fresh();
	int ret = 0;
	if (plan_for(pa, spec, src_a, a->launch, file_a, ka, seed, budget_s, out->reason, sizeof(out->reason)) ||
	    plan_for(pb, spec, src_b, b->launch, file_b, kb, seed, budget_s, out->reason, sizeof(out->reason))) {
		out->failed = true;
		goto done;
	}
	json_t *hdr = json_object();
	json_object_set_new(hdr, "type", json_string("compare"));
	json_object_set_new(hdr, "a", rung_plan_to_json(pa));
	json_object_set_new(hdr, "b", rung_plan_to_json(pb));
	rung_blob blobs[2] = {{ka->cubin, ka->cubin_len}, {kb->cubin, kb->cubin_len}};
	rung_exchange ex;
	ret = rung__worker_exchange(w, hdr, blobs, 2, rung__deadline_s(NULL), NULL, NULL, &ex);
	json_decref(hdr);
	if (ret)
		goto done;
	if (ex.failed) {
		out->failed = true;
		snprintf(out->reason, sizeof(out->reason), "%s", ex.reason);
	} else if (strcmp(ex.msg.type, "compare_result") != 0) {
		out->failed = true;
		const char *why = json_string_value(json_object_get(ex.msg.json, "reason"));
		snprintf(out->reason, sizeof(out->reason), "%s", why ? why : "worker error");
	} else {
		const json_t *j = ex.msg.json;
		const char *why = json_string_value(json_object_get(j, "reason"));
		const json_t *a = json_object_get(j, "a"), *b = json_object_get(j, "b");
		int n = (int)json_array_size(a);
		if ((int)json_array_size(b) < n)
			n = (int)json_array_size(b);
		out->verified = (int)json_integer_value(json_object_get(j, "verified"));
		out->sets = (int)json_integer_value(json_object_get(j, "sets"));
		const json_t *vms = json_object_get(j, "verify_ms");
		out->verify_ms = json_is_number(vms) ? json_number_value(vms) : NAN;
		rung_gpu_procs_from_json(&out->shared, json_object_get(j, "shared"));
		const json_t *dis = json_object_get(j, "disagree");
		if (json_is_object(dis)) {
			disagree_from(out, dis);
			snprintf(out->reason, sizeof(out->reason), "%s", why && *why ? why : "A and B disagree");
		} else if (why && *why) {
			out->failed = true;
			snprintf(out->reason, sizeof(out->reason), "%s", why);
		} else if (samples_from(&out->a, a, n) || samples_from(&out->b, b, n)) {
			ret = rung_error_set(RUNG_ENOMEM, "out of memory");
		} else {
			out->n = n;
			out->dropped = (int)json_integer_value(json_object_get(j, "dropped"));
			const char *m = json_string_value(json_object_get(j, "method"));
			snprintf(out->method, sizeof(out->method), "%s", m ? m : "");
		}
	}
	rung__exchange_clear(&ex);
done:
	free(pa);
	free(pb);
	return ret;
}

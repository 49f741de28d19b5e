#include "app/profile_extra.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "core/err.h"
#include "core/sass.h"
#include "core/stall.h"
#include "gpu/ncu.h"
#include "gpu/nvdisasm.h"
#include "vcs/prof_store.h"
#include "vcs/store.h"

int rung_profile_extra_put(const rung_task *t, const rung_env *env, const char *kind, const char *json)
{
	if (!t->repo || !t->content[0] || !env->valid || !env->uuid[0] || !json)
		return 0;
	rung_store *st = NULL;
	if (rung_store_open_repo(&st, t->repo) < 0)
		return -1;
	char key[65];
	rung_result_key(key, t->content, env->uuid);
	int rc = rung_store_put_extra(st, key, kind, json, (int64_t)time(NULL));
	rung_store_close(st);
	return rc < 0 ? rc : 1;
}

void rung_per_pc_load(rung_per_pc *out, const rung_task *t, const rung_result *r, const char *kind)
{
	memset(out, 0, sizeof(*out));
	const rung_step *ps = &r->steps[RUNG_STEP_PROFILE];
	bool stall = !strcmp(kind, "stall");
	json_t *aux = r->aux ? json_loads(r->aux, 0, NULL) : NULL;
	out->data = json_incref(json_object_get(aux, kind));
	json_decref(aux);
	out->have = ps->status == RUNG_S_OK && out->data &&
		    (stall ? rung_stall_from_json(&out->stall, out->data) : rung_sass_counts_from_json(&out->sass, out->data)) == 0;
	if (out->have) {
		char *txt = json_dumps(out->data, JSON_COMPACT);
		out->stored = rung_profile_extra_put(t, &r->env, kind, txt);
		free(txt);
		if (out->stored < 0)
			snprintf(out->store_error, sizeof(out->store_error), "%s", rung_error_last());
	}
	/* the profile rung did not run because an earlier one could not (no GPU): say that */
	out->why = rung_result_step_or_cause(r, RUNG_STEP_PROFILE);
}

void rung_per_pc_clear(rung_per_pc *p)
{
	json_decref(p->data);
	rung_sass_counts_clear(&p->sass);
	rung_stall_clear(&p->stall);
	memset(p, 0, sizeof(*p));
}

json_t *rung_per_pc_to_json(const rung_per_pc *p, const char *kind)
{
	json_t *o = json_pack("{s:s,s:s,s:b}", "status", rung_status_name(p->why->status), "reason", p->why->reason,
			      "stored", p->stored > 0);
	if (o && p->data)
		json_object_set(o, kind, p->data);
	return o;
}

int rung_profile_sass_load(rung_sass_counts *out, rung_repo *repo, const char *content, const char *uuid)
{
	memset(out, 0, sizeof(*out));
	if (!repo || !content || !content[0] || !uuid || !uuid[0])
		return rung_error_set(RUNG_ENOTFOUND, "no stored SASS counts");
	rung_store *st = NULL;
	int rc = rung_store_open_repo(&st, repo);
	if (rc < 0)
		return rc;
	char key[65], *js = NULL;
	rung_result_key(key, content, uuid);
	rc = rung_store_get_extra(&js, st, key, "sass");
	rung_store_close(st);
	if (rc)
		return rc;
	json_t *j = json_loads(js, 0, NULL);
	free(js);
	rc = j ? rung_sass_counts_from_json(out, j) : rung_error_set(RUNG_EINVAL, "stored SASS counts: bad JSON");
	json_decref(j);
	return rc;
}


rung_sass_heat *rung_profile_heat_load(const rung_vctx_opts *w, const char *rev, int *n, const char **what)
{
	*n = 0;
	*what = NULL;
	rung_repo *repo = NULL;
	rung_store *st = NULL;
	rung_sass_heat *h = NULL;
	char id[41], *js = NULL;
	rung_result r;
	rung_result_init(&r);
	if (rung_repo_open(&repo, w ? w->dir : NULL) < 0 || rung_repo_resolve(id, repo, rev ? rev : "HEAD") < 0 ||
	    !strcmp(id, "WORKTREE") || rung_store_open_repo_read(&st, repo) < 0)
		goto done;
	/* a live result, else a recorded one (the demo's, from its H200 runs) */
	if (rung_store_get_commit(&r, st, id, false) < 0 || !r.key[0]) {
		rung_result_clear(&r);
		if (rung_store_get_commit(&r, st, id, true) < 0 || !r.key[0])
			goto done;
	}
	if (rung_store_get_extra(&js, st, r.key, "stall") == 0) {
		json_t *j = json_loads(js, 0, NULL);
		rung_stall s;
		memset(&s, 0, sizeof(s));
		if (j && rung_stall_from_json(&s, j) == 0 && (h = rung_sass_heat_of_stall(&s, n)))
			*what = "stall samples";
		rung_stall_clear(&s);
		json_decref(j);
		free(js);
		js = NULL;
	}
	if (!h && rung_store_get_extra(&js, st, r.key, "sass") == 0) {
		json_t *j = json_loads(js, 0, NULL);
		rung_sass_counts c;
		memset(&c, 0, sizeof(c));
		if (j && rung_sass_counts_from_json(&c, j) == 0 && (h = rung_sass_heat_of_counts(&c, n)))
			*what = "executed instructions";
		rung_sass_counts_clear(&c);
		json_decref(j);
	}
done:
	free(js);
	rung_result_clear(&r);
	rung_store_close(st);
	rung_repo_free(repo);
	rung_error_clear();
	return h;
}

void rung_ncu_import_clear(rung_ncu_import *im)
{
	rung_ncu_details_clear(&im->details);
	rung_ncu_source_clear(&im->source);
	memset(im, 0, sizeof(*im));
}

/* One page: exported by ncu, parsed; the message kept on failure. */
static bool import_page(rung_ncu_import *im, const char *ncu, const char *report, rung_ncu_page page)
{
	char *text = NULL;
	size_t len = 0;
	bool src = page == RUNG_NCU_PAGE_SOURCE;
	int rc = rung_ncu_export_page(&text, &len, ncu, report, page);
	if (rc == 0)
		rc = src ? rung_ncu_source_parse(&im->source, text, len, "ncu --page source")
			 : rung_ncu_details_parse(&im->details, text, len, "ncu --page details");
	free(text);
	if (rc < 0)
		snprintf(src ? im->source_error : im->details_error, sizeof(im->details_error), "%s", rung_error_last());
	rung_error_clear();
	return rc == 0;
}

int rung_profile_ncu_import(rung_ncu_import *out, const rung_task *t, const rung_env *env, const char *ncu,
			    const char *report)
{
	memset(out, 0, sizeof(*out));
	out->have_details = import_page(out, ncu, report, RUNG_NCU_PAGE_DETAILS);
	out->have_source = import_page(out, ncu, report, RUNG_NCU_PAGE_SOURCE);
	for (int k = 0; k < 2; k++) {
		if (!(k ? out->have_source : out->have_details))
			continue;
		json_t *j = k ? rung_ncu_source_to_json(&out->source) : rung_ncu_details_to_json(&out->details);
		char *txt = j ? json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
		json_decref(j);
		if (!txt)
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		int rc = rung_profile_extra_put(t, env, k ? "ncu_source" : "ncu_sections", txt);
		free(txt);
		if (rc < 0)
			return rc;
		out->stored += rc;
	}
	return 0;
}

#include "app/profile_extra.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "core/err.h"
#include "core/sass.h"
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


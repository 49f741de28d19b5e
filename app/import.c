#include "app/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "core/err.h"
#include "vcs/prof_store.h"

/* The profile side data of one line ("extras": {kind: object}): checked
 * before anything of the line is stored (a value that is not an object is an
 * error), then stored beside the result; kinds this rung does not know are
 * skipped (a newer export). */
static int extras_check(const json_t *ex, const char *file, int lineno)
{
	if (!ex)
		return 0;
	if (!json_is_object(ex))
		return rung_error_set(RUNG_EUSAGE, "%s:%d: \"extras\" is not an object", file, lineno);
	const char *kind;
	json_t *v;
	json_object_foreach((json_t *)ex, kind, v)
	{
		if (rung_extra_portable(kind) && !json_is_object(v))
			return rung_error_set(RUNG_EUSAGE, "%s:%d: extras.%s is not an object", file, lineno, kind);
	}
	return 0;
}

static int extras_put(rung_store *s, const json_t *ex, const char *key, int64_t created)
{
	const char *kind;
	json_t *v;
	json_object_foreach((json_t *)ex, kind, v)
	{
		if (!rung_extra_portable(kind))
			continue;
		char *txt = json_dumps(v, JSON_COMPACT);
		int rc = txt ? rung_store_put_extra(s, key, kind, txt, created) : rung_error_set(RUNG_ENOMEM, "out of memory");
		free(txt);
		if (rc < 0) {
			rung_error_state st;
			rung_error_save(&st);
			return rung_error_set(st.code, "extras.%s: %s", kind, st.msg);
		}
	}
	return 0;
}

/* The error set last, as FILE:LINE: message (a store error stays one). */
static int line_error(const char *file, int lineno)
{
	rung_error_state st;
	rung_error_save(&st);
	return rung_error_set(st.code < 0 ? st.code : RUNG_ESTORE, "%s:%d: %s", file, lineno, st.msg);
}

/* One line's writes, inside the caller's transaction: the result, its
 * extras, its commit links. */
static int import_line(rung_store *s, const rung_result *r, const json_t *o2, const char *content, const json_t *ex)
{
	int rc = rung_store_put(s, r, content ? content : "", NULL);
	if (rc == 0)
		rc = extras_put(s, ex, r->key, r->created);
	const json_t *cs = json_object_get(o2, "commits");
	size_t k;
	json_t *v;
	json_array_foreach(cs, k, v)
	{
		if (rc == 0 && json_is_string(v))
			rc = rung_store_link(s, json_string_value(v), r->key);
	}
	return rc;
}

int rung_import_stream(int *n_out, rung_store *s, FILE *f, const char *file)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, n = 0, rc = 0;
	while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (len <= 1)
			continue;
		json_error_t jerr;
		json_t *o2 = json_loads(line, 0, &jerr);
		json_t *res = o2 ? json_object_get(o2, "result") : NULL;
		if (!o2 || !json_is_object(res)) {
			rc = rung_error_set(RUNG_EUSAGE, "%s:%d: %s", file, lineno,
					    o2 ? "no \"result\" object (not a rung export line)" : jerr.text);
			json_decref(o2);
			break;
		}
		char *rj = json_dumps(res, JSON_COMPACT);
		rung_result r;
		if (!rj || rung_result_from_json(&r, rj) < 0) {
			rung_error_state st;
			rung_error_save(&st);
			rc = rung_error_set(RUNG_EUSAGE, "%s:%d: %s", file, lineno, rj ? st.msg : "out of memory");
			free(rj);
			json_decref(o2);
			break;
		}
		free(rj);
		r.recorded = true;
		r.cached = false;
		char date[16] = "unknown date";
		time_t t = (time_t)r.created;
		struct tm tm;
		if (t > 0 && gmtime_r(&t, &tm))
			strftime(date, sizeof(date), "%Y-%m-%d", &tm);
		snprintf(r.recorded_note, sizeof(r.recorded_note), "recorded on %.90s, %s",
			 r.env.valid && r.env.gpu[0] ? r.env.gpu : "an unknown GPU", date);
		const char *content = json_string_value(json_object_get(o2, "content"));
		const json_t *ex = json_object_get(o2, "extras");
		/* the line's result, extras and links: one transaction, all or none */
		if ((rc = extras_check(ex, file, lineno))) {
			;
		} else if (!r.key[0]) {
			rc = rung_error_set(RUNG_EUSAGE, "%s:%d: result has no key", file, lineno);
		} else if ((rc = rung_store_begin(s)) < 0 || (rc = rung_store_end(s, import_line(s, &r, o2, content, ex))) < 0) {
			rc = line_error(file, lineno);
		} else {
			n++;
		}
		rung_result_clear(&r);
		json_decref(o2);
	}
	free(line);
	*n_out = n;
	return rc;
}

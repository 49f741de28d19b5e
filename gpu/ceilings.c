/* Parent side of `rung ceilings` (gpu/ceilings.h): compile, send, parse. */
#include "gpu/ceilings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "core/ceilings_json.h"
#include "gpu/compile.h"
#include "gpu/worker_internal.h"

int rung_worker_ceilings(rung_ceilings *out, rung_env *env, rung_worker *w, rung_progress_fn cb, void *ud)
{
	rung_ceilings_init(out);
	memset(env, 0, sizeof(*env));
	int rc = rung__worker_start(w);
	if (rc)
		return rc;
	*env = w->env;
	rung_compiled k;
	memset(&k, 0, sizeof(k));
	rung_compile_req req = {
		.src = rung_ceilings_source(),
		.file = "rung_ceilings.cu",
		.entry = "ceil_copy",
		.arch = w->env.arch[0] ? w->env.arch : "sm_90",
	};
	rc = rung_compile(&k, &req);
	if (rc) {
		rc = rung_error_set(RUNG_ECOMPILE, "ceilings: the ceiling kernels do not compile for %s: %s", req.arch,
				    k.error[0] ? k.error : rung_error_last());
		rung_compiled_clear(&k);
		return rc;
	}
	json_t *hdr = json_pack("{s:s}", "type", "ceilings");
	rung_blob b = {k.cubin, k.cubin_len};
	rung_exchange ex;
	rc = rung__worker_exchange(w, hdr, &b, 1, 60.0, cb, ud, &ex);
	json_decref(hdr);
	rung_compiled_clear(&k);
	if (rc)
		return rc;
	if (ex.failed) {
		rc = rung_error_set(RUNG_ECUDA, "ceilings: %s", ex.reason);
	} else {
		const char *err = json_string_value(json_object_get(ex.msg.json, "error"));
		if (!strcmp(ex.msg.type, "error")) /* a worker that does not know the message */
			err = json_string_value(json_object_get(ex.msg.json, "reason"));
		if (err)
			rc = rung_error_set(RUNG_ECUDA, "ceilings: %s", err);
		json_t *vals = json_object_get(ex.msg.json, "ceilings");
		const char *key;
		json_t *v;
		json_object_foreach(vals, key, v) {
			rung_ceiling *f = rung_ceilings_field(out, key);
			if (f && json_number_value(v) > 0) {
				f->value = json_number_value(v);
				f->src = RUNG_CEIL_MEASURED;
			}
		}
		json_t *notes = json_object_get(ex.msg.json, "notes");
		json_object_foreach(notes, key, v)
			fprintf(stderr, "rung ceilings: %s: %s\n", key, json_string_value(v) ? json_string_value(v) : "?");
	}
	rung__exchange_clear(&ex);
	return rc;
}

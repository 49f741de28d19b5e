/* rung export [--out FILE] [--recorded]: stored live results as JSON lines,
 * one per result: {"rung_export":1,"content":...,"commits":[...],"result":{...}}.
 * `rung import` reads them back as recorded results. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "tui/cli.h"
#include "tui/vcs_ctx.h"

typedef struct {
	FILE *f;
	rung_store *s;
	int n;
} ex_ctx;

static int one(void *ud, const rung_result *r, const char *json, const char *content)
{
	ex_ctx *x = ud;
	json_t *o = json_object();
	json_object_set_new(o, "rung_export", json_integer(1));
	json_object_set_new(o, "content", json_string(content ? content : ""));
	json_t *cs = json_array();
	char **commits;
	int n;
	if (rung_store_commits_of(&commits, &n, x->s, r->key) == 0) {
		for (int i = 0; i < n; i++)
			json_array_append_new(cs, json_string(commits[i]));
		rung_strv_free(commits, n);
	}
	json_object_set_new(o, "commits", cs);
	json_t *res = json_loads(json, 0, NULL);
	json_object_set_new(o, "result", res ? res : json_null());
	char *line = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(o);
	if (!line)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	int ok = fprintf(x->f, "%s\n", line) > 0;
	free(line);
	x->n++;
	return ok ? 0 : rung_error_set(RUNG_EIO, "write failed");
}

int rung_cmd_export(int argc, char **argv)
{
	rung_vctx_opts o = {0};
	const char *out = NULL;
	int kind = 0;
	for (int i = 1; i < argc; i++) {
		int k = rung_vctx_opt(&o, "export", argc, argv, &i);
		if (k < 0)
			return RUNG_EXIT_USAGE;
		if (k > 0)
			continue;
		if (!strcmp(argv[i], "--out") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "--recorded")) {
			kind = 1;
		} else {
			fprintf(stderr, "rung export: unknown argument '%s'\n", argv[i]);
			return RUNG_EXIT_USAGE;
		}
	}
	rung_vctx c;
	int rc = rung_vctx_open(&c, "export", &o, RUNG_VCTX_STORE_READ);
	if (rc)
		return rc;
	ex_ctx x = {stdout, c.store, 0};
	if (out && !(x.f = fopen(out, "w"))) { /* a path the user gave: a usage error */
		fprintf(stderr, "rung export: --out %s: %s\n", out, strerror(errno));
		rung_vctx_close(&c);
		return RUNG_EXIT_USAGE;
	}
	if (rung_store_foreach(c.store, kind, one, &x) < 0) {
		fprintf(stderr, "rung export: %s\n", rung_error_last());
		rc = RUNG_EXIT_INTERNAL;
	}
	if (out && fclose(x.f) != 0) {
		perror(out);
		rc = RUNG_EXIT_INTERNAL;
	}
	if (out)
		fprintf(stderr, "rung export: %d result(s) written to %s\n", x.n, out);
	rung_vctx_close(&c);
	return rc;
}

/* rung export [--out FILE] [--recorded] [-C DIR] [--task DIR] [--spec-rev REV]:
 * stored live results (--recorded: the recorded ones) as JSON lines, one per
 * result: {"rung_export":1,"content":...,"commits":[...],"result":{...},
 * "extras":{"sass":{...},"stall":{...},...}} (extras: the profile side data
 * stored beside the result, vcs/prof_store.h; absent when there is none).
 * `rung import` reads them back as recorded results. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "cli/cli.h"
#include "app/session.h"
#include "vcs/prof_store.h"

typedef struct {
	FILE *f;
	rung_store *s;
	int n;
	int damaged; /* extras that did not read or parse: said, left out, exit 5 */
} ex_ctx;

/* Stops at the first result: whether there is any of a kind. */
static int any_one(void *ud, const rung_result *r, const char *json, const char *content)
{
	(void)ud, (void)json, (void)content;
	return !rung_result_compile_verdict(r); /* one --recorded would export */
}

static int one(void *ud, const rung_result *r, const char *json, const char *content)
{
	ex_ctx *x = ud;
	if (rung_result_compile_verdict(r)) /* a compile rung kept with no GPU (#28 D-16): nothing measured to carry */
		return 0;
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
	/* the profile side data of the result (per-PC counts, stall samples, trace, ncu's pages) */
	json_t *ex = json_object();
	static const char *const kinds[] = {
#define KIND(k) k,
		RUNG_EXTRA_PORTABLE_LIST(KIND)
#undef KIND
	};
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		char *txt = NULL;
		int e = rung_store_get_extra(&txt, x->s, r->key, kinds[k]);
		json_error_t err;
		json_t *v = e == 0 ? json_loads(txt, 0, &err) : NULL;
		if (v) {
			json_object_set_new(ex, kinds[k], v);
		} else if (e != RUNG_ENOTFOUND) { /* damage: never dropped without a word */
			fprintf(stderr, "rung export: the stored %s data of %.12s does not %s (%s): left out\n", kinds[k],
			        r->key, e == 0 ? "parse" : "read", e == 0 ? err.text : rung_error_last());
			x->damaged++;
		}
		free(txt);
		rung_error_clear();
	}
	if (json_object_size(ex))
		json_object_set_new(o, "extras", ex);
	else
		json_decref(ex);
	char *line = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(o);
	if (!line)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	int ok = fprintf(x->f, "%s\n", line) > 0;
	free(line);
	x->n++;
	return ok ? 0 : rung_error_set(RUNG_EIO, "write failed");
}

typedef struct {
	const char *out;
	bool recorded;
	rung_vctx_opts where;
} export_opts;

static const rung_opt_spec export_specs[] = {
	{RUNG_OPT_STR(export_opts, out), .name = "out", .value = "FILE", .help = "write to FILE (default stdout)"},
	{RUNG_OPT_BOOL(export_opts, recorded), .name = "recorded",
	 .help = "the recorded (imported) results instead of the live ones"},
	{RUNG_OPT_SUBTABLE(export_opts, where, rung_vctx_opt_specs)},
	{0}};
const rung_opt_table rung_opts_export = {.cmd = "export", .args = "", .max_args = 0, .opts = export_specs};

int rung_cmd_export(int argc, char **argv)
{
	export_opts eo = {0};
	int rc, nargs;
	if (rung_opts_parse(&rc, &rung_opts_export, &eo, argc, argv, &nargs))
		return rc;
	const char *out = eo.out;
	rung_vctx c;
	/* the store holds every task's results, all exported; a --task given
	 * must still name a task (rung_where_task: exit 2 otherwise) */
	rc = rung_cli_vctx_open(&c, "export", &eo.where, RUNG_VCTX_STORE_READ | (eo.where.task ? RUNG_VCTX_TASK : 0));
	if (rc)
		return rc;
	ex_ctx x = {stdout, c.store, 0, 0};
	if (out && !(x.f = fopen(out, "w"))) { /* a path the user gave: a usage error */
		fprintf(stderr, "rung export: --out %s: %s\n", out, strerror(errno));
		rung_vctx_close(&c);
		return RUNG_EXIT_USAGE;
	}
	if (rung_store_foreach(c.store, eo.recorded ? 1 : 0, one, &x) < 0) {
		fprintf(stderr, "rung export: %s\n", rung_error_last());
		rc = RUNG_EXIT_INTERNAL;
	}
	if (out && fclose(x.f) != 0) {
		perror(out);
		rc = RUNG_EXIT_INTERNAL;
	}
	if (out)
		fprintf(stderr, "rung export: %d result(s) written to %s\n", x.n, out);
	if (x.damaged && rc == 0) {
		fprintf(stderr,
		        "rung export: %d stored profile extra(s) are damaged and were left out: `rung store check` says "
		        "what is damaged\n",
		        x.damaged);
		rc = RUNG_EXIT_INTERNAL;
	}
	if (rc == 0 && x.n == 0 && !eo.recorded) /* nothing, not even a word of where the results are (#28 D-20) */
		fprintf(stderr, "rung export: no live results in the store%s\n",
			rung_store_foreach(c.store, 1, any_one, NULL) > 0 ? "; --recorded exports the recorded ones"
										: "");
	rung_vctx_close(&c);
	return rc;
}

/* rung import FILE: reads `rung export` lines and stores them as recorded
 * results ("recorded on <GPU>, <date>"), kept apart from live ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "core/err.h"
#include "tui/cli.h"
#include "tui/vcs_ctx.h"

int rung_cmd_import(int argc, char **argv)
{
	rung_vctx_opts o = {0};
	const char *file = NULL;
	for (int i = 1; i < argc; i++) {
		int k = rung_vctx_opt(&o, "import", argc, argv, &i);
		if (k < 0)
			return RUNG_EXIT_USAGE;
		if (k > 0)
			continue;
		if (!file && (argv[i][0] != '-' || !argv[i][1]))
			file = argv[i];
		else {
			fprintf(stderr, "rung import: unknown argument '%s'\n", argv[i]);
			return RUNG_EXIT_USAGE;
		}
	}
	if (!file)
		return rung_cli_usage("import", 1);
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	if (!f) {
		fprintf(stderr, "rung import: %s: cannot open\n", file);
		return RUNG_EXIT_USAGE;
	}
	rung_vctx c;
	int rc = rung_vctx_open(&c, "import", &o, RUNG_VCTX_STORE);
	if (rc) {
		if (f != stdin)
			fclose(f);
		return rc;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, n = 0;
	while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (len <= 1)
			continue;
		json_error_t jerr;
		json_t *o2 = json_loads(line, 0, &jerr);
		json_t *res = o2 ? json_object_get(o2, "result") : NULL;
		if (!o2 || !json_is_object(res)) {
			fprintf(stderr, "rung import: %s:%d: %s\n", file, lineno,
				o2 ? "no \"result\" object (not a rung export line)" : jerr.text);
			json_decref(o2);
			rc = RUNG_EXIT_USAGE;
			break;
		}
		char *rj = json_dumps(res, JSON_COMPACT);
		rung_result r;
		if (!rj || rung_result_from_json(&r, rj) < 0) {
			fprintf(stderr, "rung import: %s:%d: %s\n", file, lineno, rung_error_last());
			free(rj);
			json_decref(o2);
			rc = RUNG_EXIT_USAGE;
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
		if (!r.key[0]) {
			fprintf(stderr, "rung import: %s:%d: result has no key\n", file, lineno);
			rc = RUNG_EXIT_USAGE;
		} else if (rung_store_put(c.store, &r, content ? content : "", NULL) < 0) {
			fprintf(stderr, "rung import: %s:%d: %s\n", file, lineno, rung_error_last());
			rc = RUNG_EXIT_INTERNAL;
		} else {
			json_t *cs = json_object_get(o2, "commits");
			size_t k;
			json_t *v;
			json_array_foreach(cs, k, v)
			{
				if (json_is_string(v))
					rung_store_link(c.store, json_string_value(v), r.key);
			}
			n++;
		}
		rung_result_clear(&r);
		json_decref(o2);
	}
	free(line);
	if (f != stdin)
		fclose(f);
	if (rc == 0)
		printf("imported %d recorded result(s) from %s\n", n, file);
	rung_vctx_close(&c);
	return rc;
}

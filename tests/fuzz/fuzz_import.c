/* `rung import` (app/import.c): the input as the lines of an export file,
 * imported into an in-memory store, and then everything a reader makes of
 * what was stored: each result read back, its theoretical occupancy (the
 * versions screen), its device's ceilings and the roof (the roofline screen
 * and `rung log`), and its profile extras decoded (stall samples, SASS counts,
 * ncu's pages) with the sums and tops the panes show. Numbers come from
 * outside, so none of it may overflow (UBSan) or break an invariant. */
#include <jansson.h>
#include <sqlite3.h>

#include "app/import.h"
#include "core/err.h"
#include "core/ncu.h"
#include "core/occupancy.h"
#include "core/roofline_guard.h"
#include "core/sass_prof.h"
#include "core/stall.h"
#include "vcs/prof_store.h"
#include "vcs/store.h"
#include "fuzz.h"

/* The stored extra kind of a result, parsed; NULL when there is none. */
static json_t *extra(rung_store *s, const char *key, const char *kind)
{
	char *txt = NULL;
	json_t *j = rung_store_get_extra(&txt, s, key, kind) == 0 ? json_loads(txt, 0, NULL) : NULL;
	free(txt);
	return j;
}

static void profile(rung_store *s, const char *key)
{
	json_t *j = extra(s, key, "stall");
	rung_stall st;
	if (j && rung_stall_from_json(&st, j) == 0) {
		int idx[RUNG_STALL_MAX_REASONS];
		uint64_t sum[RUNG_STALL_MAX_REASONS];
		(void)rung_stall_top(idx, sum, RUNG_STALL_MAX_REASONS, &st);
		rung_stall_clear(&st);
	}
	json_decref(j);
	rung_sass_counts c;
	bool have_c = false;
	if ((j = extra(s, key, "sass")) && rung_sass_counts_from_json(&c, j) == 0)
		have_c = true;
	json_decref(j);
	rung_ncu_source src;
	if ((j = extra(s, key, "ncu_source")) && rung_ncu_source_from_json(&src, j) == 0) {
		FUZZ_ASSERT(rung_ncu_source_samples(&src) >= 0);
		for (int i = 0; i < src.nlines; i++) {
			int k = rung_ncu_line_top_stall(&src, &src.lines[i]);
			FUZZ_ASSERT(k >= -1 && k < src.nstalls);
		}
		if (have_c) {
			rung_ncu_agreement ag;
			rung_ncu_agree(&ag, &src, &c);
			FUZZ_ASSERT(ag.agree <= ag.compared);
		}
		rung_ncu_source_clear(&src);
	}
	json_decref(j);
	if (have_c)
		rung_sass_counts_clear(&c);
	rung_ncu_details d;
	if ((j = extra(s, key, "ncu_sections")) && rung_ncu_details_from_json(&d, j) == 0) {
		char line[512];
		rung_ncu_sol_line(line, sizeof(line), &d);
		rung_ncu_details_clear(&d);
	}
	json_decref(j);
}

static int one(void *ud, const rung_result *r, const char *json, const char *content)
{
	(void)json;
	(void)content;
	rung_store *s = ud;
	(void)rung_result_status(r);
	if (r->compile.kernel.valid) {
		static const int threads[] = {1, 32, 256, 1024};
		for (size_t t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
			rung_occupancy o;
			rung_occ_input in = {.threads = threads[t],
			                     .regs = r->compile.kernel.regs,
			                     .static_smem = r->compile.kernel.smem,
			                     .barriers = r->compile.kernel.barriers};
			if (rung_occupancy_calc(&o, r->compile.arch[0] ? r->compile.arch : "sm_90", &in) == 0)
				FUZZ_ASSERT(o.by_regs >= 0);
		}
	}
	rung_device_attrs a;
	(void)rung_env_device_attrs(&a, &r->env);
	rung_ceilings g;
	rung_ceilings_guard(&g, &r->env, NULL);
	(void)rung_result_roof_pct(r);
	profile(s, r->key);
	rung_error_clear();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* one in-memory store for the process, emptied after each input (a new
	 * one per input made its schema every time: 100 inputs a second) */
	static rung_store *s;
	if (!s && rung_store_open(&s, ":memory:") < 0)
		abort();
	FILE *f = fmemopen((void *)data, size, "r");
	if (f) {
		int n = 0;
		(void)rung_import_stream(&n, s, f, "fuzz.jsonl");
		fclose(f);
		FUZZ_ASSERT(n >= 0);
		rung_error_clear();
		(void)rung_store_foreach(s, 1, one, s);
	}
	for (const char *const *t = (const char *const[]){"results", "commits", "profile_extra", NULL}; *t; t++) {
		char sql[64];
		snprintf(sql, sizeof(sql), "DELETE FROM %s", *t);
		sqlite3_exec(rung_store_db(s), sql, NULL, NULL, NULL); /* profile_extra: made on first use */
	}
	rung_error_clear();
	return 0;
}

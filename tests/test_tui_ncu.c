/* ncu's sections and source page on the detail screen (in-memory model, the
 * stored JSON of tests/fixtures/ncu/ pages as `rung profile --ncu` stores
 * it): `u` shows the sections table with the rules under their section, `u`
 * again the source page beside rung's own per-PC counts with how many pcs
 * agree, and `u` once more goes back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "core/ncu.h"
#include "harness.h"
#include "tui/model/model.h"
#include "tui/model/prof.h"
#include "tui/view.h"

#define HASH_A "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"
#define HASH_B "b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2"
#define HASH_C "c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3"

static char *stored_json(const char *file, bool source)
{
	char p[1024];
	size_t n = 0;
	snprintf(p, sizeof(p), "%s/fixtures/ncu/%s", RUNG_TEST_DIR, file);
	char *t = t_slurp(p, &n);
	CHECK(t != NULL);
	json_t *j = NULL;
	if (source) {
		rung_ncu_source s;
		CHECK_INT(rung_ncu_source_parse(&s, t, n, file), 0);
		j = rung_ncu_source_to_json(&s);
		rung_ncu_source_clear(&s);
	} else {
		rung_ncu_details d;
		CHECK_INT(rung_ncu_details_parse(&d, t, n, file), 0);
		j = rung_ncu_details_to_json(&d);
		rung_ncu_details_clear(&d);
	}
	free(t);
	char *s = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	return s;
}

/* rung's counts for the regblock2d page: ncu's figure at every pc but 0x50
 * (no record) and 0x90 (32 more) */
static char *counts_json(void)
{
	char p[1024];
	size_t n = 0;
	snprintf(p, sizeof(p), "%s/fixtures/ncu/regblock2d.source.csv", RUNG_TEST_DIR);
	char *t = t_slurp(p, &n);
	rung_ncu_source s;
	CHECK_INT(rung_ncu_source_parse(&s, t, n, "src"), 0);
	free(t);
	rung_sass_counts c = {0};
	snprintf(c.func, sizeof(c.func), "sgemm");
	for (int i = 0; i < s.nlines; i++)
		if (s.lines[i].pc != 0x50)
			rung_sass_counts_add(&c, s.lines[i].pc, (uint64_t)s.lines[i].inst + (s.lines[i].pc == 0x90 ? 32 : 0),
					     (uint64_t)s.lines[i].thread_inst);
	rung_sass_counts_sort(&c);
	json_t *j = rung_sass_counts_to_json(&c);
	char *out = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	rung_sass_counts_clear(&c);
	rung_ncu_source_clear(&s);
	return out;
}

static void add_row(rung_model *m, const char *hash, const char *subject, int64_t date)
{
	rung_model_row r = {0};
	snprintf(r.hash, sizeof(r.hash), "%s", hash);
	snprintf(r.subject, sizeof(r.subject), "%s", subject);
	snprintf(r.author, sizeof(r.author), "agent");
	r.date = date;
	r.result = rung_model_fake_result(hash, 1.0, 1e-7, true, 7);
	CHECK_INT(rung_model_mem_add(m, &r), 0);
}

static char *run(rung_model *m, const char *script, const char *dump)
{
	const char *dir = t_tmpdir();
	char path[1024];
	snprintf(path, sizeof(path), "%s/script", dir);
	CHECK_INT(t_write(path, script), 0);
	rung_tui_opts o = {.script = path, .lines = 120, .cols = 120, .dump_dir = dir, .theme = "default"};
	int e = rung_tui_run(m, &o);
	if (e < 0)
		fprintf(stderr, "rung_tui_run: %s\n", rung_error_last());
	CHECK_INT(e, 0);
	snprintf(path, sizeof(path), "%s/%s", dir, dump);
	return t_slurp(path, NULL);
}

static void test_detail_ncu(void)
{
	rung_model *m = NULL;
	CHECK_INT(rung_model_mem_new(&m), 0);
	add_row(m, HASH_C, "nothing stored", 1764400000);
	add_row(m, HASH_B, "tf32, its page without instruction counts", 1764300000);
	add_row(m, HASH_A, "register blocking", 1764200000);
	char *sec = stored_json("regblock2d.details.csv", false), *src = stored_json("regblock2d.source.csv", true),
	     *cnt = counts_json(), *tsec = stored_json("tf32.details.csv", false), *tsrc = stored_json("tf32.source.csv", true);
	CHECK_INT(rung_model_mem_set_extra(m, HASH_A, "ncu_sections", sec), 0);
	CHECK_INT(rung_model_mem_set_extra(m, HASH_A, "ncu_source", src), 0);
	CHECK_INT(rung_model_mem_set_extra(m, HASH_A, "sass", cnt), 0);
	CHECK_INT(rung_model_mem_set_extra(m, HASH_B, "ncu_sections", tsec), 0);
	CHECK_INT(rung_model_mem_set_extra(m, HASH_B, "ncu_source", tsrc), 0);
	CHECK_INT(rung_model_mem_set_extra(m, HASH_B, "sass", cnt), 0);

	/* a (the last row): the sections, then the source page with rung's counts */
	char *s = run(m, "G\n<Enter>\nu\n:dump sec.txt\nQ\n", "sec.txt");
	CHECK_CONTAINS(s, "a1a1a1a ncu sections (u: source page)");
	CHECK_CONTAINS(s, "ncu: sgemm (32, 32, 1)x(256, 1, 1), CC 9.0, 9 sections");
	CHECK_CONTAINS(s, "  SOL: compute (SM) 39.04%, memory 45.29% (DRAM 2.10%, L1/TEX 46.77%, L2 7.76%), duration 6.75 ms");
	CHECK_CONTAINS(s, "\nOccupancy");
	CHECK_CONTAINS(s, "  Achieved Occupancy");
	CHECK_CONTAINS(s, "  OPT    The 2.00 theoretical warps per scheduler this kernel can issue");
	CHECK_CONTAINS(s, "(est. speedup 87.5%, local)");
	free(s);
	s = run(m, "G\n<Enter>\nu\nu\n:dump src.txt\nQ\n", "src.txt");
	CHECK_CONTAINS(s, "a1a1a1a ncu source page (u: summary)");
	CHECK_CONTAINS(s, "  36 of 37 pcs agree exactly with ncu's Instructions Executed; first difference at 0090;"
			  " 1 executed pc without a count");
	/* the stall reasons by rung's names, as the SASS pane says them (#28 D-20: ncu's
	 * no_inst and short_sb here, "no instruction" and "short scoreboard" there) */
	CHECK_CONTAINS(s, "\n    0000        8192           8192        43  no instruction 43      LDC R1, c[0x0][0x28]");
	CHECK_CONTAINS(s, "\n    0050           -           8192        12  short scoreboard 9     SHF.R.S32.HI R2, RZ, 0x1f, R11");
	CHECK_CONTAINS(s, "\n!   0090        8224           8192         2  wait 2                 IADD3 R0, -R0, R11, RZ");
	CHECK(!strstr(s, "back to the summary")); /* the title says where u goes */
	free(s);
	/* b: the page without Instructions Executed says so; its rules of type ERR show */
	s = run(m, "G\nk\n<Enter>\nu\nu\n:dump tsrc.txt\nQ\n", "tsrc.txt");
	CHECK_CONTAINS(s, "ncu's page has no Instructions Executed column: nothing to check rung's counts against");
	CHECK_CONTAINS(s, "\n    0030        8192              -         0                         ULDC.64 UR6, c[0x0][0x208]");
	free(s);
	s = run(m, "G\nk\n<Enter>\nu\n:dump tsec.txt\nQ\n", "tsec.txt");
	CHECK_CONTAINS(s, "  ERR    Required metric smsp__pcsamp_sample_count could not be found.");
	CHECK_CONTAINS(s, "  ERR    float division by zero\n         /root/Documents/NVIDIA Nsight Compute/2025.3.1/Sections/SpeedOfLight_Roofline.py:146");
	free(s);
	/* c: nothing stored; u three times comes back to the summary */
	s = run(m, "<Enter>\nu\n:dump none.txt\nQ\n", "none.txt");
	CHECK_CONTAINS(s, "none stored (rung profile --ncu c3c3c3c, with Nsight Compute on PATH)");
	free(s);
	s = run(m, "<Enter>\nu\nu\nu\n:dump back.txt\nQ\n", "back.txt");
	CHECK(s && !strstr(s, "ncu"));
	CHECK_CONTAINS(s, "nothing stored");
	free(s);
	/* malformed stored JSON: said, not shown as empty */
	CHECK_INT(rung_model_mem_set_extra(m, HASH_C, "ncu_sections", "{\"sections\":[{\"name\":7}]}"), 0);
	s = run(m, "<Enter>\nu\n:dump bad.txt\nQ\n", "bad.txt");
	CHECK_CONTAINS(s, "ncu sections: section 0 is malformed");
	free(s);
	free(sec);
	free(src);
	free(cnt);
	free(tsec);
	free(tsrc);
	rung_model_free(m);
}

int main(void)
{
	T_RUN(test_detail_ncu);
	return t_done();
}

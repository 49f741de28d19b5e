/* Profile data on the workbench's screens (in-memory model): the detail's
 * SASS with per-instruction counts, the compare SASS diff with a count column
 * per side, the detail's trace statistics and per-SM timeline. Screens are
 * compared with tests/screens/ (RUNG_UPDATE_SCREENS=1 rewrites them). */
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "harness.h"
#include "tui/screens/detail_prof.h"
#include "tui/draw.h"
#include "tui/model/model.h"
#include "tui/model/prof.h"
#include "tui/view.h"
#include "vcs/prof_store.h"
#include "vcs/store.h"

static const char *run_script(rung_model *m, const char *script, int cols, int lines)
{
	const char *dir = t_tmpdir();
	char path[1024];
	snprintf(path, sizeof(path), "%s/script", dir);
	CHECK_INT(t_write(path, script), 0);
	rung_tui_opts o = {.script = path, .lines = lines, .cols = cols, .dump_dir = dir, .theme = "default"};
	int e = rung_tui_run(m, &o);
	if (e < 0)
		fprintf(stderr, "rung_tui_run: %s\n", rung_error_last());
	CHECK_INT(e, 0);
	return dir;
}

static char *dump_of(const char *dir, const char *name)
{
	char p[1024];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return t_slurp(p, NULL);
}

static void golden(const char *dir, const char *name)
{
	char want_path[1024];
	snprintf(want_path, sizeof(want_path), "%s/screens/%s", RUNG_TEST_DIR, name);
	char *got = dump_of(dir, name);
	CHECK(got != NULL);
	if (!got)
		return;
	if (getenv("RUNG_UPDATE_SCREENS")) {
		t_write(want_path, got);
		free(got);
		return;
	}
	char *want = t_slurp(want_path, NULL);
	if (!want || strcmp(got, want)) {
		char *out = NULL;
		t_sh(&out, "diff -u '%s' '%s/%s' | head -40", want_path, dir, name);
		fprintf(stderr, "%s: screen differs from %s\n%s\n", t_current, want_path, out ? out : "");
		free(out);
		t_case_failed = 1;
	}
	free(want);
	free(got);
}

/* A: a loop of 64 iterations (5 instructions) run by 1024 warps. */
static const char SASS_A[] =
	"\t.target\tsm_90\n"
	"//--------------------- .text._Z4loopPfi --------------------------\n"
	"\t.section\t.text._Z4loopPfi,\"ax\",@progbits\n"
	"        .global         _Z4loopPfi\n"
	"_Z4loopPfi:\n"
	".text._Z4loopPfi:\n"
	"        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
	"        /*0010*/                   S2R R0, SR_TID.X ;\n"
	"        /*0020*/                   MOV R2, RZ ;\n"
	".L_x_0:\n"
	"        /*0030*/                   LDG.E R3, desc[UR4][R4.64] ;\n"
	"        /*0040*/                   FFMA R2, R3, R3, R2 ;\n"
	"        /*0050*/                   IADD3 R0, R0, 0x1, RZ ;\n"
	"        /*0060*/                   ISETP.NE.AND P0, PT, R0, 0x40, PT ;\n"
	"        /*0070*/               @P0 BRA `(.L_x_0) ;\n"
	"        /*0080*/                   STG.E desc[UR4][R4.64], R2 ;\n"
	"        /*0090*/                   EXIT ;\n"
	".L_x_1:\n"
	"        /*00a0*/                   BRA `(.L_x_1);\n"
	"        /*00b0*/                   NOP;\n";

/* B: the same loop unrolled by two (32 iterations, 7 instructions). */
static const char SASS_B[] =
	"\t.target\tsm_90\n"
	"//--------------------- .text._Z4loopPfi --------------------------\n"
	"\t.section\t.text._Z4loopPfi,\"ax\",@progbits\n"
	"        .global         _Z4loopPfi\n"
	"_Z4loopPfi:\n"
	".text._Z4loopPfi:\n"
	"        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
	"        /*0010*/                   S2R R0, SR_TID.X ;\n"
	"        /*0020*/                   MOV R2, RZ ;\n"
	".L_x_0:\n"
	"        /*0030*/                   LDG.E R3, desc[UR4][R4.64] ;\n"
	"        /*0040*/                   LDG.E R5, desc[UR4][R4.64+0x4] ;\n"
	"        /*0050*/                   FFMA R2, R3, R3, R2 ;\n"
	"        /*0060*/                   FFMA R2, R5, R5, R2 ;\n"
	"        /*0070*/                   IADD3 R0, R0, 0x2, RZ ;\n"
	"        /*0080*/                   ISETP.NE.AND P0, PT, R0, 0x40, PT ;\n"
	"        /*0090*/               @P0 BRA `(.L_x_0) ;\n"
	"        /*00a0*/                   STG.E desc[UR4][R4.64], R2 ;\n"
	"        /*00b0*/                   EXIT ;\n"
	".L_x_1:\n"
	"        /*00c0*/                   BRA `(.L_x_1);\n";

/* Counts as `rung profile --sass` stores them: [pc, inst, thread_inst]. The
 * record at 0x200 is no instruction of the listing and must be ignored. */
static const char COUNTS_A[] =
	"{\"function\":\"_Z4loopPfi\",\"records\":[[0,1024,32768],[16,1024,32768],[32,1024,32768],"
	"[48,65536,2097152],[64,65536,2097152],[80,65536,2097152],[96,65536,2097152],[112,65536,2097152],"
	"[128,1024,32768],[144,1024,32768],[512,7,7]]}";
static const char COUNTS_B[] =
	"{\"function\":\"_Z4loopPfi\",\"records\":[[0,1024,32768],[16,1024,32768],[32,1024,32768],"
	"[48,32768,1048576],[64,32768,1048576],[80,32768,1048576],[96,32768,1048576],[112,32768,1048576],"
	"[128,32768,1048576],[144,32768,1048576],[160,1024,32768],[176,1024,32768]]}";

/* 8 blocks on 4 SMs, two after each other per SM; region 0 the whole block,
 * region 1 its first microsecond (2 us for block 7). Kernel 10 us. */
static const char TRACE_B[] =
	"{\"kernel_us\":10.0,\"written\":16,\"origin_ns\":1000000,\"records\":["
	"[0,0,0,0,4000],[0,4,0,4000,8000],[0,1,1,0,4000],[0,5,1,4000,9000],"
	"[0,2,2,0,3000],[0,6,2,3000,6000],[0,3,3,500,4500],[0,7,3,4500,10000],"
	"[1,0,0,0,1000],[1,4,0,4000,5000],[1,1,1,0,1000],[1,5,1,4000,5000],"
	"[1,2,2,0,1000],[1,6,2,3000,4000],[1,3,3,500,1500],[1,7,3,4500,6500]]}";

#define HASH_A "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"
#define HASH_B "b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2"
#define HASH_C "c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3"

static void add_row(rung_model *m, const char *hash, const char *subject, double ms, int64_t date)
{
	rung_model_row r = {0};
	snprintf(r.hash, sizeof(r.hash), "%s", hash);
	snprintf(r.subject, sizeof(r.subject), "%s", subject);
	snprintf(r.author, sizeof(r.author), "agent");
	r.date = date;
	r.result = rung_model_fake_result(hash, ms, 1e-7, true, 7);
	CHECK_INT(rung_model_mem_add(m, &r), 0);
}

/* Newest first: c (SASS, no counts), b (unrolled: counts and trace), a (loop: counts). */
static rung_model *prof_model(void)
{
	rung_model *m = NULL;
	CHECK_INT(rung_model_mem_new(&m), 0);
	add_row(m, HASH_C, "fold the tail", 0.9, 1764400000);
	add_row(m, HASH_B, "unroll the loop by two", 1.0, 1764300000);
	add_row(m, HASH_A, "plain loop", 2.0, 1764200000);
	CHECK_INT(rung_model_mem_set_text(m, HASH_A, RUNG_TEXT_SASS, SASS_A), 0);
	CHECK_INT(rung_model_mem_set_text(m, HASH_B, RUNG_TEXT_SASS, SASS_B), 0);
	CHECK_INT(rung_model_mem_set_text(m, HASH_C, RUNG_TEXT_SASS, SASS_B), 0);
	CHECK_INT(rung_model_mem_set_extra(m, HASH_A, "sass", COUNTS_A), 0);
	CHECK_INT(rung_model_mem_set_extra(m, HASH_B, "sass", COUNTS_B), 0);
	CHECK_INT(rung_model_mem_set_extra(m, HASH_B, "trace", TRACE_B), 0);
	return m;
}

static void test_fmt_hot(void)
{
	char b[32];
	rung_fmt_count(b, sizeof(b), 0);
	CHECK_STR(b, "0");
	rung_fmt_count(b, sizeof(b), 9999999);
	CHECK_STR(b, "9999999");
	rung_fmt_count(b, sizeof(b), 12345678);
	CHECK_STR(b, "12.3M");
	rung_fmt_count(b, sizeof(b), 4560000000ull);
	CHECK_STR(b, "4.56G");
	rung_fmt_count(b, sizeof(b), 123456789012ull);
	CHECK_STR(b, "123G");

	/* ties at the threshold are all hot; lines without a count never */
	int64_t loop[] = {-1, 10, 10, 500, 500, 500, -1, 10};
	bool hot[8];
	CHECK_INT(rung_sass_mark_hot(hot, loop, 8, 2), 3);
	CHECK(!hot[0] && !hot[1] && hot[3] && hot[4] && hot[5] && !hot[6] && !hot[7]);
	/* straight-line code (every count equal): nothing stands out */
	int64_t flat[] = {64, 64, 64, -1};
	CHECK_INT(rung_sass_mark_hot(hot, flat, 4, 10), 0);
	/* top 1: the largest only */
	int64_t mixed[] = {3, 9, 5, 0};
	CHECK_INT(rung_sass_mark_hot(hot, mixed, 4, 1), 1);
	CHECK(hot[1] && !hot[0] && !hot[2] && !hot[3]);
}

static void test_annot(void)
{
	rung_model *m = prof_model();
	rung_sass_annot a;
	CHECK_INT(rung_sass_annot_load(&a, m, HASH_A, 0), 0);
	CHECK(a.inst != NULL);
	CHECK_STR(a.note, "");
	/* 10 instructions counted (the trailing self-branch is dropped by the normalization, 0x200 is none) */
	CHECK_INT(a.counted, 10);
	CHECK(a.total == 3 * 1024 + 5 * 65536 + 2 * 1024);
	int ffma = -1, nhot = 0;
	for (int i = 0; i < a.s.nlines; i++) {
		if (a.s.lines[i].kind == RUNG_SASS_INST && !strncmp(a.s.lines[i].text, "FFMA", 4))
			ffma = i;
		nhot += a.hot[i];
		if (a.s.lines[i].kind != RUNG_SASS_INST)
			CHECK(a.inst[i] == -1);
	}
	CHECK(ffma >= 0);
	if (ffma >= 0) {
		CHECK(a.s.lines[ffma].pc == 0x40);
		CHECK(a.inst[ffma] == 65536);
		CHECK(a.hot[ffma]);
	}
	CHECK_INT(nhot, 5); /* the loop body */
	rung_sass_annot_clear(&a);

	/* no stored counts: the listing, and why there are no counts */
	CHECK_INT(rung_sass_annot_load(&a, m, HASH_C, 0), 0);
	CHECK(a.inst == NULL);
	CHECK_CONTAINS(a.note, "no stored SASS counts");
	rung_sass_annot_clear(&a);

	/* malformed stored JSON is reported, not shown as counts */
	CHECK_INT(rung_model_mem_set_extra(m, HASH_C, "sass", "{\"records\":[[1,2]"), 0);
	CHECK_INT(rung_sass_annot_load(&a, m, HASH_C, 0), 0);
	CHECK(a.inst == NULL);
	CHECK_CONTAINS(a.note, "SASS counts:");
	rung_sass_annot_clear(&a);

	rung_sass_counts c;
	CHECK_INT(rung_model_sass_counts(&c, m, HASH_B), 0);
	CHECK_INT(c.n, 12);
	CHECK_STR(c.func, "_Z4loopPfi");
	rung_sass_counts_clear(&c);

	rung_trace t;
	CHECK_INT(rung_model_trace(&t, m, HASH_A), RUNG_ENOTFOUND);
	rung_trace_clear(&t);
	CHECK_INT(rung_model_trace(&t, m, HASH_B), 0);
	CHECK_INT(t.nrec, 16);
	CHECK_INT(t.nregions, 2);
	CHECK_INT(t.nsms, 4);
	if (t.nregions == 2) {
		/* region 0: 3 3 4 4 4 4 5 5.5 us -> median (4th) 4, p90 (8th) 5.5 */
		CHECK_INT(t.regions[0].count, 8);
		CHECK_NEAR(t.regions[0].median_us, 4.0, 1e-9);
		CHECK_NEAR(t.regions[0].p90_us, 5.5, 1e-9);
		CHECK_NEAR(t.regions[0].frac, 0.4, 1e-9);
		CHECK_NEAR(t.regions[1].median_us, 1.0, 1e-9);
		CHECK_NEAR(t.regions[1].max_us, 2.0, 1e-9);
	}
	rung_trace_clear(&t);
	rung_model_free(m);
}

static void test_timeline(void)
{
	/* one SM busy the first half, another the whole time: 10 cells; the
	 * nested region of block 0 does not count it twice */
	rung_trace t;
	rung_trace_init(&t);
	json_t *j = json_loads("{\"kernel_us\":1.0,\"written\":2,\"origin_ns\":0,\"records\":[[0,0,3,0,500],[1,0,3,0,200],[0,1,7,0,1000]]}", 0,
			       NULL);
	CHECK(j != NULL);
	CHECK_INT(rung_trace_from_json(&t, j), 0);
	json_decref(j);
	rung_lines l = {0};
	rung_tui_draw_init(true);
	rung_trace_timeline(&l, &t, 10, 32);
	CHECK_INT(l.n, 3);
	if (l.n == 3) {
		CHECK_CONTAINS(l.v[0].text, "2 SMs, 1 per row, 0 to 1.00 us");
		CHECK_CONTAINS(l.v[1].text, "SM 3       |\u2588\u2588\u2588\u2588\u2588     | 1 block");
		CHECK_CONTAINS(l.v[2].text, "SM 7       |\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588| 1 block");
	}
	rung_lines_clear(&l);
	/* two rows of SMs: both SMs in one row, half as dense where only one runs */
	rung_trace_timeline(&l, &t, 4, 1);
	CHECK_INT(l.n, 2);
	if (l.n == 2)
		CHECK_CONTAINS(l.v[1].text, "SM   3-7   |\u2588\u2588\u2592\u2592| 2 blocks");
	rung_lines_clear(&l);
	rung_tui_draw_init(false); /* ASCII shades */
	rung_trace_timeline(&l, &t, 4, 1);
	if (l.n == 2)
		CHECK_CONTAINS(l.v[1].text, "SM   3-7   |##::| 2 blocks");
	rung_lines_clear(&l);
	rung_tui_draw_init(true);
	rung_trace_clear(&t);
}

/* The git backend's path: side data stored the way `rung profile --sass`
 * stores it (result key of content and device), found from the row's live result. */
static void test_store_extra(void)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/results.db", t_tmpdir());
	rung_store *st = NULL;
	CHECK_INT(rung_store_open(&st, path), 0);
	if (!st)
		return;
	char key[65];
	rung_result_key(key, "1234abcd", "GPU-5f2e");
	CHECK_INT(rung_store_put_extra(st, key, "sass", COUNTS_A, 1764200000), 0);
	rung_model_row row = {0};
	snprintf(row.hash, sizeof(row.hash), "%s", HASH_A);
	row.result = rung_model_fake_result(HASH_A, 2.0, 1e-7, true, 7);
	snprintf(row.result->key, sizeof(row.result->key), "%s", key);
	char *js = NULL;
	CHECK_INT(rung_model_store_extra(&js, st, &row, "sass"), 0);
	CHECK(js && !strcmp(js, COUNTS_A));
	free(js);
	CHECK_INT(rung_model_store_extra(&js, st, &row, "trace"), RUNG_ENOTFOUND);
	/* a recorded result (from another machine) shows the side data stored
	 * under its own key (what `rung import` stores from the export's
	 * extras), never this machine's under another key */
	row.recorded = row.result;
	CHECK_INT(rung_model_store_extra(&js, st, &row, "sass"), 0);
	CHECK(js && !strcmp(js, COUNTS_A));
	free(js);
	js = NULL;
	rung_result_key(row.result->key, "1234abcd", "GPU-other");
	CHECK_INT(rung_model_store_extra(&js, st, &row, "sass"), RUNG_ENOTFOUND);
	snprintf(row.result->key, sizeof(row.result->key), "%s", key);
	row.recorded = NULL;
	CHECK_INT(rung_model_store_extra(&js, st, NULL, "sass"), RUNG_ENOTFOUND);
	rung_result_clear(row.result);
	free(row.result);
	rung_store_close(st);
}

static void test_screens(void)
{
	rung_model *m = prof_model();
	/* b's detail: summary, then SASS with counts, then the trace */
	const char *dir = run_script(m, "j <Enter>\n:dump detail_prof_summary.txt\nt\n:dump detail_sass_counts.txt\nt\n"
				     ":dump detail_trace.txt\n<Esc> k <Enter> t\n:dump detail_sass_nocounts.txt\n",
				     100, 40);
	golden(dir, "detail_sass_counts.txt");
	golden(dir, "detail_trace.txt");
	char *s = dump_of(dir, "detail_prof_summary.txt");
	CHECK_CONTAINS(s, "stored: SASS counts, trace (t shows them)");
	free(s);
	s = dump_of(dir, "detail_sass_counts.txt");
	/* FFMA at 0x50 ran 32768 times of 7 * 32768 + 5 * 1024 = 234496: 14.0%, hot */
	CHECK_CONTAINS(s, "*   0050    32768  14.0%    FFMA R2, R3, R3, R2");
	CHECK_CONTAINS(s, "    0000     1024   0.4%    LDC R1, c[0x0][0x28]");
	CHECK_CONTAINS(s, "SASS: 12 instructions, 12 counted, 234496 warp instructions executed, 7 hot");
	free(s);
	s = dump_of(dir, "detail_trace.txt");
	CHECK_CONTAINS(s, "trace: 16 records, 2 regions, 4 SMs, kernel 10.00 us");
	CHECK_CONTAINS(s, "       0        8       4.000       5.500       5.500     40.0%");
	CHECK_CONTAINS(s, "       1        8       1.000       2.000       2.000     10.0%");
	CHECK_CONTAINS(s, "SM 3       |");
	free(s);
	s = dump_of(dir, "detail_sass_nocounts.txt");
	CHECK_CONTAINS(s, "no stored SASS counts (rung profile --sass c3c3c3c)");
	CHECK_CONTAINS(s, "    0050    FFMA R2, R3, R3, R2");
	free(s);

	/* compare a (loop) with b (unrolled): a count column on each side */
	dir = run_script(m, "G a g j b c\n<Tab>\n:dump compare_sass_counts.txt\n", 100, 40);
	golden(dir, "compare_sass_counts.txt");
	s = dump_of(dir, "compare_sass_counts.txt");
	CHECK_CONTAINS(s, "executed a 332800 b 234496 (warp inst.)");
	CHECK_CONTAINS(s, "65536* ");
	CHECK_CONTAINS(s, "32768* ");
	free(s);
	/* c has no counts: b's side has its column, c's none */
	dir = run_script(m, "j a g b c\n<Tab>\n:dump compare_one_side.txt\n", 100, 40);
	s = dump_of(dir, "compare_one_side.txt");
	CHECK_CONTAINS(s, "executed a 234496 b - (warp inst.)");
	free(s);
	rung_model_free(m);
}

/* A's loop with line info (nvdisasm -gi), and its source: counts summed per
 * source line in the source view (l). */
static const char SASS_LINES[] =
	"_Z4loopPfi:\n"
	"\t//## File \"/tmp/nvrtc/loop.cu\", line 3\n"
	"        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
	"        /*0010*/                   S2R R0, SR_TID.X ;\n"
	"\t//## File \"/tmp/nvrtc/loop.cu\", line 4\n"
	"        /*0020*/                   MOV R2, RZ ;\n"
	".L_x_0:\n"
	"\t//## File \"/tmp/nvrtc/sq.cuh\", line 2 inlined at \"/tmp/nvrtc/loop.cu\", line 6\n"
	"\t//## File \"/tmp/nvrtc/loop.cu\", line 6\n"
	"        /*0030*/                   LDG.E R3, desc[UR4][R4.64] ;\n"
	"        /*0040*/                   FFMA R2, R3, R3, R2 ;\n"
	"\t//## File \"/tmp/nvrtc/loop.cu\", line 5\n"
	"        /*0050*/                   IADD3 R0, R0, 0x1, RZ ;\n"
	"        /*0060*/                   ISETP.NE.AND P0, PT, R0, 0x40, PT ;\n"
	"        /*0070*/               @P0 BRA `(.L_x_0) ;\n"
	"\t//## File \"/tmp/nvrtc/loop.cu\", line 7\n"
	"        /*0080*/                   STG.E desc[UR4][R4.64], R2 ;\n"
	"\t//## File \"/tmp/nvrtc/loop.cu\", line 8\n"
	"        /*0090*/                   EXIT ;\n"
	".L_x_1:\n"
	"        /*00a0*/                   BRA `(.L_x_1);\n";
static const char SRC_LINES[] = "// loop.cu\n"
				"__global__ void loop(float *p, int n)\n"
				"{\n"
				"\tfloat acc = 0;\n"
				"\tfor (int i = 0; i < 64; i++)\n"
				"\t\tacc += sq(p[i]);\n"
				"\tp[0] = acc;\n"
				"}\n";
#define HASH_D "d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4"

static void test_source_view(void)
{
	rung_model *m = NULL;
	CHECK_INT(rung_model_mem_new(&m), 0);
	add_row(m, HASH_D, "loop with line info", 2.0, 1764200000);
	CHECK_INT(rung_model_mem_set_text(m, HASH_D, RUNG_TEXT_SASS, SASS_LINES), 0);
	CHECK_INT(rung_model_mem_set_text(m, HASH_D, RUNG_TEXT_SOURCE, SRC_LINES), 0);
	CHECK_INT(rung_model_mem_set_extra(m, HASH_D, "sass", COUNTS_A), 0);
	const char *dir = run_script(m, "<Enter> t\n:dump sass_lines.txt\nl\n:dump source_view.txt\nj\n:dump source_down.txt\n"
				     "l\n:dump source_back.txt\n",
				     140, 20);
	char *s = dump_of(dir, "sass_lines.txt");
	/* the SASS pane: each instruction's line; the FFMA of sq.cuh says where it is written */
	CHECK_CONTAINS(s, "      pc  line    count      %    instruction");
	CHECK_CONTAINS(s, "*   0040     6    65536  19.7%    FFMA R2, R3, R3, R2  sq.cuh:2");
	CHECK_CONTAINS(s, "    0090     8     1024   0.3%    EXIT");
	free(s);
	s = dump_of(dir, "source_view.txt");
	/* per source line, of 332800 warp instructions: line 5 three loop instructions of
	 * 65536 (196608, 59.1%), line 6 two (131072, 39.4%), line 3 two of 1024 */
	CHECK_CONTAINS(s, "source loop.cu (l: back, t: SASS)");
	CHECK_CONTAINS(s, "  line  sass    count      %  loop.cu");
	CHECK_CONTAINS(s, ">    5     3   196608  59.1%    for (int i = 0; i < 64; i++)"); /* the cursor, hot */
	CHECK_CONTAINS(s, "*    6     2   131072  39.4%            acc += sq(p[i]);");
	CHECK_CONTAINS(s, "*    3     2     2048   0.6%  {");
	CHECK_CONTAINS(s, "     4     1     1024   0.3%    float acc = 0;");
	CHECK_CONTAINS(s, "     1                        // loop.cu"); /* no SASS: no count, not 0 */
	CHECK_CONTAINS(s, "line 5: 3 instructions, 196608 executed (59.1%)");
	CHECK_CONTAINS(s, "* 0050    65536  IADD3 R0, R0, 0x1, RZ");
	CHECK_CONTAINS(s, "source: line 5: the most instructions executed");
	free(s);
	s = dump_of(dir, "source_down.txt");
	CHECK_CONTAINS(s, ">    6     2   131072  39.4%");
	CHECK_CONTAINS(s, "line 6: 2 instructions, 131072 executed (39.4%)");
	CHECK_CONTAINS(s, "0040    65536  FFMA R2, R3, R3, R2  sq.cuh:2");
	free(s);
	s = dump_of(dir, "source_back.txt");
	CHECK(s && !strstr(s, "(l: back"));
	free(s);
	rung_model_free(m);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	setenv("TERM", "xterm-256color", 1);
	setenv("LC_ALL", "C.UTF-8", 1);
	unsetenv("NO_COLOR");
	setlocale(LC_ALL, "");
	if (strcmp(nl_langinfo(CODESET), "UTF-8")) {
		fprintf(stderr, "no UTF-8 locale (C.UTF-8): skipping\n");
		return T_SKIP;
	}
	T_RUN(test_fmt_hot);
	T_RUN(test_annot);
	T_RUN(test_timeline);
	T_RUN(test_store_extra);
	T_RUN(test_screens);
	T_RUN(test_source_view);
	return t_done();
}

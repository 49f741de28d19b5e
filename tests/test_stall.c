/* Warp stall samples (core/stall.h): reasons, rows merged by pc, totals that
 * leave out the _not_issued reasons, the top reasons, annotating a SASS
 * listing by pc, the JSON round trip and its errors, the printed bars and
 * hot lines. Values by hand. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/sass.h"
#include "core/stall.h"
#include "harness.h"

#define P "smsp__pcsamp_warps_issue_stalled_"

/* pc 0x10: long_scoreboard 30 (20 of them not issued), selected 5;
 * pc 0x20: barrier 10; pc 0x10 again in a second pass: long_scoreboard 10. */
static void build(rung_stall *s)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->func, sizeof(s->func), "k");
	int ls = rung_stall_reason(s, P "long_scoreboard");
	int lsn = rung_stall_reason(s, P "long_scoreboard_not_issued");
	int sel = rung_stall_reason(s, "selected");
	CHECK_INT(ls, 0);
	CHECK_INT(lsn, 1);
	CHECK_INT(sel, 2);
	CHECK_INT(rung_stall_reason(s, "long_scoreboard"), 0); /* the short name is the same reason */
	CHECK_INT(rung_stall_add(s, 0x20, ls, 0), 0);
	CHECK_INT(rung_stall_add(s, 0x10, ls, 30), 0);
	CHECK_INT(rung_stall_add(s, 0x10, lsn, 20), 0);
	CHECK_INT(rung_stall_add(s, 0x10, sel, 5), 0);
	/* a reason first seen after rows exist widens them */
	int bar = rung_stall_reason(s, P "barrier");
	CHECK_INT(bar, 3);
	CHECK_INT(rung_stall_add(s, 0x20, bar, 10), 0);
	CHECK_INT(rung_stall_add(s, 0x10, ls, 10), 0);
	CHECK_INT(rung_stall_finish(s), 0);
}

static void test_rows(void)
{
	rung_stall s;
	build(&s);
	CHECK_INT(s.n, 2);
	CHECK_INT(s.pc[0], 0x10);
	CHECK_INT(s.pc[1], 0x20);
	CHECK_INT(rung_stall_row_total(&s, 0), 45); /* 40 + 5, not the 20 not issued */
	CHECK_INT(rung_stall_row_total(&s, 1), 10);
	CHECK_INT(s.total, 55);
	CHECK_INT(rung_stall_row_top(&s, 0), 0);
	CHECK_INT(rung_stall_row_top(&s, 1), 3);
	CHECK_INT(rung_stall_find(&s, 0x20), 1);
	CHECK_INT(rung_stall_find(&s, 0x30), -1);
	CHECK(rung_stall_is_not_issued("long_scoreboard_not_issued"));
	CHECK(!rung_stall_is_not_issued("long_scoreboard"));
	CHECK(!rung_stall_is_not_issued("_not_issued"));
	int idx[8];
	uint64_t sum[8];
	CHECK_INT(rung_stall_top(idx, sum, 8, &s), 3);
	CHECK_INT(idx[0], 0);
	CHECK_INT(sum[0], 40);
	CHECK_INT(idx[1], 3);
	CHECK_INT(sum[1], 10);
	CHECK_INT(idx[2], 2);
	CHECK_INT(sum[2], 5);
	CHECK_INT(rung_stall_top(idx, sum, 1, &s), 1);
	CHECK_INT(idx[0], 0);
	int rows[4];
	CHECK_INT(rung_stall_top_rows(rows, 4, &s), 2); /* 0x10 (45 samples), then 0x20 (10) */
	CHECK_INT(rows[0], 0);
	CHECK_INT(rows[1], 1);
	CHECK_INT(rung_stall_top_rows(rows, 1, &s), 1);
	CHECK_INT(rows[0], 0);
	rung_stall_clear(&s);
}

static void test_labels(void)
{
	char b[64];
	rung_stall_label(b, sizeof(b), "long_scoreboard");
	CHECK_STR(b, "long scoreboard");
	rung_stall_label(b, sizeof(b), "mio_throttle");
	CHECK_STR(b, "MIO throttle");
	rung_stall_label(b, sizeof(b), "selected");
	CHECK_STR(b, "selected (issued)");
	rung_stall_label(b, sizeof(b), "some_new_reason");
	CHECK_STR(b, "some new reason");
}

static void test_json(void)
{
	rung_stall s, t;
	build(&s);
	s.period = 11;
	s.dropped = 3;
	json_t *j = rung_stall_to_json(&s);
	CHECK(j != NULL);
	CHECK_INT(rung_stall_from_json(&t, j), 0);
	json_decref(j);
	CHECK_STR(t.func, "k");
	CHECK_INT(t.period, 11);
	CHECK_INT(t.dropped, 3);
	CHECK_INT(t.nreasons, 4);
	CHECK_STR(t.reasons[0], "long_scoreboard");
	CHECK_STR(t.reasons[3], "barrier");
	CHECK_INT(t.n, 2);
	CHECK_INT(t.total, 55);
	for (int i = 0; i < s.n * s.nreasons; i++)
		CHECK_INT(t.counts[i], s.counts[i]);
	rung_stall_clear(&t);
	rung_stall_clear(&s);

	const char *bad[] = {
		"{}",
		"{\"reasons\":[\"a\"],\"records\":[[16,1,5]]}",  /* reason 1 of 1 */
		"{\"reasons\":[\"a\"],\"records\":[[16,0]]}",    /* a reason without its count */
		"{\"reasons\":[\"a\"],\"records\":[[16,0,-1]]}", /* a negative count */
		"{\"reasons\":[5],\"records\":[]}",
		"{\"reasons\":[\"a\"],\"records\":[\"x\"]}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *b = json_loads(bad[i], 0, NULL);
		CHECK(b != NULL);
		CHECK_INT(rung_stall_from_json(&t, b), RUNG_EINVAL);
		CHECK_CONTAINS(rung_error_last(), "stall samples JSON");
		CHECK_INT(t.n, 0);
		json_decref(b);
	}
}

static void test_annotate_and_print(void)
{
	/* the copy4 fixture of test_sass: 0x10 is S2R R0, SR_TID.X and 0x20 S2UR UR4, SR_CTAID.X */
	char *listing = t_slurp(RUNG_TEST_DIR "/fixtures/sgemm_copy4.sass", NULL);
	CHECK(listing != NULL);
	rung_sass l;
	CHECK_INT(rung_sass_normalize(&l, listing, 0), 0);
	free(listing);
	rung_stall s;
	build(&s);
	int64_t *samples = calloc((size_t)l.nlines, sizeof(*samples));
	int *top = calloc((size_t)l.nlines, sizeof(*top));
	CHECK(l.nlines > 4);
	int fn = rung_sass_find_func(&l, "copy4");
	CHECK(fn >= 0);
	CHECK_INT(rung_stall_annotate(samples, top, &l, fn, &s), 2);
	int seen = 0;
	for (int i = 0; i < l.nlines; i++) {
		if (l.lines[i].func != fn) {
			CHECK_INT(samples[i], -1);
		} else if (l.lines[i].pc == 0x10) {
			CHECK_INT(samples[i], 45);
			CHECK_INT(top[i], 0);
			seen++;
		} else if (l.lines[i].pc == 0x20) {
			CHECK_INT(samples[i], 10);
			CHECK_INT(top[i], 3);
			seen++;
		} else {
			CHECK_INT(samples[i], -1);
		}
	}
	CHECK_INT(seen, 2);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	rung_stall_print_bars(f, &s, 8, 8);
	rung_stall_print_hot(f, &l, fn, &s, 5);
	fclose(f);
	/* 40/55 = 72.7 % with the full bar, 10/55 = 18.2 % with 2 of 8 cells, 5/55 = 9.1 % with 1 */
	CHECK_CONTAINS(out, "  long scoreboard       72.7%  ########\n");
	CHECK_CONTAINS(out, "  barrier               18.2%  ##\n");
	CHECK_CONTAINS(out, "  selected (issued)      9.1%  #\n");
	/* the hot lines, most samples first; 40 of the line's 45 are long scoreboard */
	char *a = strstr(out, "0x0010"), *b = strstr(out, "0x0020");
	CHECK(a && b && a < b);
	CHECK_CONTAINS(out, "0x0010        45  81.8%  long scoreboard 89%");
	CHECK_CONTAINS(out, "S2R R0, SR_TID.X");
	free(out);
	free(samples);
	free(top);
	rung_stall_clear(&s);
	rung_sass_clear(&l);
}

int main(void)
{
	T_RUN(test_rows);
	T_RUN(test_labels);
	T_RUN(test_json);
	T_RUN(test_annotate_and_print);
	return t_done();
}

/* The SASS diff by basic block (core/sass_diff.h, app/textdiff.h) on real
 * listings (tests/fixtures/sass/README.md) and by hand: a change stays in its
 * block, a consistent renaming is no change, and the raw and the line-by-line
 * diffs of the same pairs are measured too, to show the before and after. */
#include <stdlib.h>
#include <string.h>

#include "app/textdiff.h"
#include "core/sass_diff.h"
#include "harness.h"

static char *fx(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/fixtures/sass/%s", RUNG_TEST_DIR, name);
	char *t = t_slurp(path, NULL);
	CHECK(t != NULL);
	return t;
}

/* The diff before this change: registers renamed per function, then line by line. */
static void line_diff(rung_sbs *d, const char *la, const char *lb)
{
	char *ta, *tb;
	CHECK_INT(rung_sass_prepare(&ta, NULL, la), 0);
	CHECK_INT(rung_sass_prepare(&tb, NULL, lb), 0);
	CHECK_INT(rung_textdiff(d, ta, tb, 3), 0);
	free(ta);
	free(tb);
}

/* 03-smem-tiles and the same with one more statement in its unrolled inner
 * loop: the block diff is that one FFMA, in the loop's block (.L_x_1, the
 * block the loop's back branch goes to). */
static void test_unrolled_statement(void)
{
	char *la = fx("unroll_a.sass"), *lb = fx("unroll_b.sass");
	if (!la || !lb)
		return;
	rung_sbs d;
	CHECK_INT(rung_sass_diff_listings(&d, NULL, NULL, la, lb, false, 3), 0);
	CHECK_INT(d.nhunks, 1);
	CHECK_INT(d.adds, 1);
	CHECK_INT(d.dels, 0);
	CHECK(d.n > 0 && d.rows[0].kind == RUNG_DIFF_HUNK);
	if (d.n > 0)
		CHECK_STR(d.rows[0].left, "@@ -69,6 +69,7 @@ sgemm .L_x_1");
	int added = -1;
	for (int i = 0; i < d.n; i++)
		if (d.rows[i].kind == RUNG_DIFF_ADD)
			added = i;
	CHECK(added > 0);
	if (added > 0) {
		CHECK_STR(d.rows[added].right, "  FFMA r15, r8, r8, r19");
		CHECK_INT(d.rows[added].rno, 72);
	}
	rung_sbs_clear(&d);

	/* the loop's block in the block diff itself: the change is inside it */
	rung_sass a, b;
	CHECK_INT(rung_sass_normalize_pair(&a, &b, la, lb, RUNG_SASS_RENAME_REGS), 0);
	rung_sass_diff sd;
	CHECK_INT(rung_sass_diff_build(&sd, &a, &b, 3), 0);
	CHECK_INT(sd.nhunks, 1);
	CHECK_INT(sd.nblocks_a, 7);
	CHECK_INT(sd.nblocks_b, 7);
	CHECK_INT(sd.matched_blocks, 6); /* all but the loop's, whose opcodes differ by the FFMA */
	if (sd.nhunks == 1) {
		CHECK(sd.hunks[0].block_a >= 0);
		if (sd.hunks[0].block_a >= 0)
			CHECK_STR(a.lines[sd.hunks[0].block_a].text, ".L_x_1");
	}
	rung_sass_diff_clear(&sd);
	rung_sass_clear(&a);
	rung_sass_clear(&b);

	/* raw and line by line: the FFMA and one changed line around it */
	CHECK_INT(rung_sass_diff_listings(&d, NULL, NULL, la, lb, true, 3), 0);
	CHECK_INT(d.nhunks, 1);
	CHECK_INT(d.adds, 2);
	CHECK_INT(d.dels, 1);
	rung_sbs_clear(&d);
	line_diff(&d, la, lb);
	CHECK_INT(d.nhunks, 1);
	CHECK_INT(d.adds, 2);
	CHECK_INT(d.dels, 1);
	rung_sbs_clear(&d);
	free(la);
	free(lb);
}

/* 07-warptile-ktail and 07-warptile differ in one source line (the k-tile
 * count rounded up). Renamed per function and diffed line by line, every
 * register after the first new one shifts: 37 hunks, +780 -779. By block: 9
 * hunks, +32 -31; raw: 14 hunks, +50 -49. */
static void test_ladder_ktail(void)
{
	char *la = fx("ktail_a.sass"), *lb = fx("ktail_b.sass");
	if (!la || !lb)
		return;
	rung_sbs d;
	CHECK_INT(rung_sass_diff_listings(&d, NULL, NULL, la, lb, false, 3), 0);
	CHECK_INT(d.nhunks, 9);
	CHECK_INT(d.adds, 32);
	CHECK_INT(d.dels, 31);
	rung_sbs_clear(&d);
	CHECK_INT(rung_sass_diff_listings(&d, NULL, NULL, la, lb, true, 3), 0);
	CHECK_INT(d.nhunks, 14);
	CHECK_INT(d.adds, 50);
	CHECK_INT(d.dels, 49);
	rung_sbs_clear(&d);
	line_diff(&d, la, lb);
	CHECK_INT(d.nhunks, 37);
	CHECK_INT(d.adds, 780);
	CHECK_INT(d.dels, 779);
	rung_sbs_clear(&d);
	free(la);
	free(lb);
}

static void norm(rung_sass *s, const char *body)
{
	CHECK_INT(rung_sass_normalize(s, body, RUNG_SASS_RENAME_REGS), 0);
}

/* By hand: b is a with every register renumbered and one instruction added
 * in the loop's block; the blocks before and after are the same up to the
 * renaming, so the diff is that one line. */
static void test_renaming_is_no_change(void)
{
	const char *a = "k:\n"
	                "  /*0000*/ S2R R4, SR_TID.X ;\n"
	                "  /*0010*/ MOV R5, RZ ;\n"
	                "  /*0020*/ ISETP.GE.AND P0, PT, R4, 0x10, PT ;\n"
	                "  /*0030*/ @P0 EXIT ;\n"
	                ".L_x_3:\n"
	                "  /*0040*/ FFMA R5, R4, R4, R5 ;\n"
	                "  /*0050*/ IADD3 R4, R4, 0x1, RZ ;\n"
	                "  /*0060*/ ISETP.GE.AND P1, PT, R4, 0x10, PT ;\n"
	                "  /*0070*/ @!P1 BRA `(.L_x_3) ;\n"
	                "  /*0080*/ STG.E desc[UR4][R2.64], R5 ;\n"
	                "  /*0090*/ EXIT ;\n";
	const char *b = "k:\n"
	                "  /*0000*/ S2R R9, SR_TID.X ;\n"
	                "  /*0010*/ MOV R7, RZ ;\n"
	                "  /*0020*/ ISETP.GE.AND P2, PT, R9, 0x10, PT ;\n"
	                "  /*0030*/ @P2 EXIT ;\n"
	                ".L_x_8:\n"
	                "  /*0040*/ FFMA R7, R9, R9, R7 ;\n"
	                "  /*0048*/ FADD R7, R7, R7 ;\n"
	                "  /*0050*/ IADD3 R9, R9, 0x1, RZ ;\n"
	                "  /*0060*/ ISETP.GE.AND P0, PT, R9, 0x10, PT ;\n"
	                "  /*0070*/ @!P0 BRA `(.L_x_8) ;\n"
	                "  /*0080*/ STG.E desc[UR6][R12.64], R7 ;\n"
	                "  /*0090*/ EXIT ;\n";
	rung_sass sa, sb;
	norm(&sa, a);
	norm(&sb, b);
	rung_sass_diff d;
	CHECK_INT(rung_sass_diff_build(&d, &sa, &sb, 1), 0);
	CHECK_INT(d.nhunks, 1);
	CHECK_INT(d.adds, 1);
	CHECK_INT(d.dels, 0);
	CHECK_INT(d.nblocks_a, 3); /* k: and the prologue up to EXIT, the loop, the tail */
	CHECK_INT(d.matched_blocks, 2);
	int adds = 0;
	for (int i = 0; i < d.n; i++)
		if (d.rows[i].op == RUNG_SD_ADD) {
			adds++;
			CHECK_STR(sb.lines[d.rows[i].b].text, "FADD r1, r1, r1");
		} else {
			CHECK_INT(d.rows[i].op, RUNG_SD_SAME);
		}
	CHECK_INT(adds, 1);
	if (d.nhunks == 1) {
		CHECK_INT(d.hunks[0].a0, 7); /* FFMA, IADD3 */
		CHECK_INT(d.hunks[0].na, 2);
		CHECK_INT(d.hunks[0].b0, 7); /* FFMA, FADD, IADD3 */
		CHECK_INT(d.hunks[0].nb, 3);
	}
	rung_sass_diff_clear(&d);
	rung_sass_clear(&sb);

	/* an operand that reads another value is a change, though the shape is the same */
	const char *c = "k:\n"
	                "  /*0000*/ S2R R4, SR_TID.X ;\n"
	                "  /*0010*/ MOV R5, RZ ;\n"
	                "  /*0020*/ ISETP.GE.AND P0, PT, R4, 0x10, PT ;\n"
	                "  /*0030*/ @P0 EXIT ;\n"
	                ".L_x_3:\n"
	                "  /*0040*/ FFMA R5, R4, R5, R5 ;\n"
	                "  /*0050*/ IADD3 R4, R4, 0x1, RZ ;\n"
	                "  /*0060*/ ISETP.GE.AND P1, PT, R4, 0x10, PT ;\n"
	                "  /*0070*/ @!P1 BRA `(.L_x_3) ;\n"
	                "  /*0080*/ STG.E desc[UR4][R2.64], R5 ;\n"
	                "  /*0090*/ EXIT ;\n";
	norm(&sb, c);
	CHECK_INT(rung_sass_diff_build(&d, &sa, &sb, 0), 0);
	CHECK_INT(d.nhunks, 1);
	CHECK_INT(d.adds, 1);
	CHECK_INT(d.dels, 1);
	for (int i = 0; i < d.n; i++)
		if (d.rows[i].op != RUNG_SD_SAME)
			CHECK_STR(sb.lines[d.rows[i].b].text, "FFMA r1, r0, r1, r1");
	rung_sass_diff_clear(&d);
	rung_sass_clear(&sb);

	/* identical: no hunk; empty against something: all added */
	norm(&sb, a);
	CHECK_INT(rung_sass_diff_build(&d, &sa, &sb, 3), 0);
	CHECK_INT(d.nhunks, 0);
	CHECK_INT(d.adds + d.dels, 0);
	CHECK_INT(d.n, sa.nlines);
	rung_sass_diff_clear(&d);
	rung_sass_clear(&sb);
	norm(&sb, "");
	CHECK_INT(rung_sass_diff_build(&d, &sb, &sa, 3), 0);
	CHECK_INT(d.nhunks, 1);
	CHECK_INT(d.adds, sa.nlines);
	CHECK_INT(d.dels, 0);
	rung_sass_diff_clear(&d);
	rung_sass_clear(&sb);
	rung_sass_clear(&sa);
}

static void test_ends_block(void)
{
	CHECK(rung_sass_ends_block("BRA `(.L_x_1)"));
	CHECK(rung_sass_ends_block("@!p0 BRA.U `(.L_x_1)"));
	CHECK(rung_sass_ends_block("EXIT"));
	CHECK(rung_sass_ends_block("@p1 EXIT"));
	CHECK(rung_sass_ends_block("RET.REL.NODEC r2 `(k)"));
	CHECK(!rung_sass_ends_block("BRAX r1"));
	CHECK(!rung_sass_ends_block("BAR.SYNC.DEFER_BLOCKING 0x0"));
	CHECK(!rung_sass_ends_block("FFMA r1, r2, r3, r1"));
}

int main(void)
{
	T_RUN(test_unrolled_statement);
	T_RUN(test_ladder_ktail);
	T_RUN(test_renaming_is_no_change);
	T_RUN(test_ends_block);
	return t_done();
}

/* SASS normalization and instruction mix. The fixture tests/fixtures/sgemm_copy4.sass is
 * `nvdisasm -c` (CUDA 13.0) of tests/fixtures/sgemm_copy4.cu compiled by NVRTC for sm_90. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/sass.h"
#include "harness.h"

static char *fixture(void)
{
	char *t = t_slurp(RUNG_TEST_DIR "/fixtures/sgemm_copy4.sass", NULL);
	CHECK(t != NULL);
	return t;
}

/* copy4 by hand from the listing: addresses and ';' gone, .L_x_4/.L_x_5 renumbered to
 * 0/1, the trailing `.L_x_0: BRA (.L_x_0)`, 15 NOPs and the end label .L_x_9 dropped. */
static const char *copy4_plain = "copy4:\n"
                                 "  LDC R1, c[0x0][0x28]\n"
                                 "  S2R R0, SR_TID.X\n"
                                 "  S2UR UR4, SR_CTAID.X\n"
                                 "  LDC R7, c[0x0][RZ]\n"
                                 "  IMAD R7, R7, UR4, R0\n"
                                 "  ULDC UR4, c[0x0][0x220]\n"
                                 "  ISETP.GE.AND P0, PT, R7, UR4, PT\n"
                                 ".L_x_0:\n"
                                 "  @P0 EXIT\n"
                                 "  LDC.64 R4, c[0x0][0x210]\n"
                                 "  ULDC.64 UR4, c[0x0][0x208]\n"
                                 "  LDC.64 R2, c[0x0][0x218]\n"
                                 "  IMAD.WIDE R4, R7, 0x10, R4\n"
                                 "  LDG.E.128.CONSTANT R8, desc[UR4][R4.64]\n"
                                 "  IMAD.WIDE R2, R7, 0x10, R2\n"
                                 "  STG.E.128 desc[UR4][R2.64], R8\n"
                                 ".L_x_1:\n"
                                 "  EXIT\n";

/* The same with registers renamed by first use, in lower case: R1->r0, R0->r1, R7->r2, R4->r3, R2->r4, R8->r5, UR4->ur0. */
static const char *copy4_renamed = "copy4:\n"
                                   "  LDC r0, c[0x0][0x28]\n"
                                   "  S2R r1, SR_TID.X\n"
                                   "  S2UR ur0, SR_CTAID.X\n"
                                   "  LDC r2, c[0x0][RZ]\n"
                                   "  IMAD r2, r2, ur0, r1\n"
                                   "  ULDC ur0, c[0x0][0x220]\n"
                                   "  ISETP.GE.AND p0, PT, r2, ur0, PT\n"
                                   ".L_x_0:\n"
                                   "  @p0 EXIT\n"
                                   "  LDC.64 r3, c[0x0][0x210]\n"
                                   "  ULDC.64 ur0, c[0x0][0x208]\n"
                                   "  LDC.64 r4, c[0x0][0x218]\n"
                                   "  IMAD.WIDE r3, r2, 0x10, r3\n"
                                   "  LDG.E.128.CONSTANT r5, desc[ur0][r3.64]\n"
                                   "  IMAD.WIDE r4, r2, 0x10, r4\n"
                                   "  STG.E.128 desc[ur0][r4.64], r5\n"
                                   ".L_x_1:\n"
                                   "  EXIT\n";

static void test_fixture_plain(void)
{
	char *listing = fixture();
	if (!listing)
		return;
	rung_sass s;
	CHECK_INT(rung_sass_normalize(&s, listing, 0), 0);
	CHECK_INT(s.nfuncs, 2);
	CHECK_STR(s.funcs[0], "copy4");
	CHECK_STR(s.funcs[1], "_Z5sgemmILi32EEviiiPKfS1_Pf");
	CHECK_INT(rung_sass_find_func(&s, "copy4"), 0);
	CHECK_INT(rung_sass_find_func(&s, "_Z5sgemmILi32EEviiiPKfS1_Pf"), 1);
	CHECK_INT(rung_sass_find_func(&s, "nope"), -1);

	char *c = rung_sass_text(&s, 0);
	CHECK_STR(c, copy4_plain);
	free(c);

	/* nothing of the listing's decoration survives anywhere */
	char *all = rung_sass_text(&s, -1);
	CHECK(strstr(all, "/*") == NULL);
	CHECK(strstr(all, "NOP") == NULL);
	CHECK(strstr(all, ".section") == NULL);
	CHECK(strstr(all, ".text.") == NULL);
	CHECK(strstr(all, " ;") == NULL);
	CHECK(strstr(all, "   ") == NULL); /* blanks collapsed: only the two-space indent */
	CHECK(strchr(all, '\t') == NULL);
	free(all);

	/* sgemm: labels .L_x_1, .L_x_2, .L_x_6, .L_x_7 -> 0..3 in order of first appearance
	 * (.L_x_1 first appears in the branch at 0x00b0, before its definition) */
	int f = 1, nlab = 0, first_bra = -1, loop_bra = -1;
	int64_t last_pc = -1;
	for (int i = 0; i < s.nlines; i++) {
		const rung_sass_line *l = &s.lines[i];
		if (l->func != f)
			continue;
		if (l->kind == RUNG_SASS_LABEL) {
			char want[16];
			snprintf(want, sizeof(want), ".L_x_%d", nlab == 0 ? 1 : nlab == 1 ? 0 : nlab);
			CHECK_STR(l->text, want);
			nlab++;
		}
		if (l->kind == RUNG_SASS_INST) {
			if (l->pc == 0xb0)
				first_bra = i;
			if (l->pc == 0x890)
				loop_bra = i;
			CHECK(l->pc > last_pc); /* original offsets kept, increasing */
			last_pc = l->pc;
		}
	}
	CHECK_INT(nlab, 4);
	CHECK(first_bra >= 0 && loop_bra >= 0);
	if (first_bra >= 0)
		CHECK_STR(s.lines[first_bra].text, "@!P0 BRA `(.L_x_0)");
	if (loop_bra >= 0)
		CHECK_STR(s.lines[loop_bra].text, "@!P0 BRA `(.L_x_1)");
	/* the last kept instruction is the STG+EXIT at 0x0940, not the self-branch at 0x0950 */
	CHECK_INT(last_pc, 0x940);

	/* per-line pc of a known instruction of copy4 */
	bool found = false;
	for (int i = 0; i < s.nlines; i++)
		if (s.lines[i].func == 0 && s.lines[i].kind == RUNG_SASS_INST &&
		    strcmp(s.lines[i].text, "LDG.E.128.CONSTANT R8, desc[UR4][R4.64]") == 0) {
			CHECK_INT(s.lines[i].pc, 0xc0);
			found = true;
		}
	CHECK(found);
	rung_sass_clear(&s);
	free(listing);
}

static void test_fixture_renamed(void)
{
	char *listing = fixture();
	if (!listing)
		return;
	rung_sass s;
	CHECK_INT(rung_sass_normalize(&s, listing, RUNG_SASS_RENAME_REGS), 0);
	char *c = rung_sass_text(&s, 0);
	CHECK_STR(c, copy4_renamed);
	free(c);
	/* renaming restarts per function: sgemm's first instruction also gets r0 */
	int f = rung_sass_find_func(&s, "_Z5sgemmILi32EEviiiPKfS1_Pf");
	for (int i = 0; i < s.nlines; i++)
		if (s.lines[i].func == f && s.lines[i].kind == RUNG_SASS_INST) {
			CHECK_STR(s.lines[i].text, "LDC r0, c[0x0][0x28]");
			break;
		}
	rung_sass_clear(&s);
	free(listing);
}

static void test_fixture_mix(void)
{
	char *listing = fixture();
	if (!listing)
		return;
	rung_sass s;
	CHECK_INT(rung_sass_normalize(&s, listing, 0), 0);
	rung_sass_mix m;
	rung_sass_count(&m, &s, 0);
	CHECK_INT(m.n[RUNG_MIX_LDG128], 1);
	CHECK_INT(m.n[RUNG_MIX_STG128], 1);
	CHECK_INT(m.n[RUNG_MIX_IMAD], 3); /* IMAD + 2 x IMAD.WIDE */
	CHECK_INT(m.n[RUNG_MIX_TOTAL], 16);
	CHECK_INT(m.n[RUNG_MIX_BRA], 0); /* the self-branch is padding, not code */
	rung_sass_count(&m, &s, 1);
	CHECK_INT(m.n[RUNG_MIX_FFMA], 32); /* T = 32, fully unrolled */
	CHECK_INT(m.n[RUNG_MIX_BAR], 2);
	CHECK_INT(m.n[RUNG_MIX_STS], 2);
	CHECK_INT(m.n[RUNG_MIX_LDG32], 2);
	CHECK_INT(m.n[RUNG_MIX_STG32], 1);
	CHECK_INT(m.n[RUNG_MIX_BRA], 2);
	rung_sass_clear(&s);
	free(listing);
}

/* A hand-made listing with one function: every class, predicates, widths, a cuobjdump-style
 * encoding on the same line and one on a line of its own. */
static const char *hand = "\t.target\tsm_90\n"
                          "//--------------------- .text.k --------------------------\n"
                          "\t.section\t.text.k,\"ax\",@progbits\n"
                          "        .global         k\n"
                          "k:\n"
                          "        /*0000*/                   FFMA R1, R2, R3, R4 ;  /* 0x0000000302017223 */\n"
                          "                                                          /* 0x000fe20000000004 */\n"
                          "        /*0010*/              @P0 FFMA.FTZ R1, R2, R3, R4 ;\n"
                          "        /*0020*/                   FADD R1, R2, R3 ;\n"
                          "        /*0030*/                   FMUL.RZ R1, R2, R3 ;\n"
                          "        /*0040*/                   HMMA.16816.F32 R4, R8, R12, R4 ;\n"
                          "        /*0050*/                   HGMMA.64x128x16.F32 R24, gdesc[UR4], R24 ;\n"
                          "        /*0060*/                   IMAD.MOV.U32 R1, RZ, RZ, R2 ;\n"
                          "        /*0070*/                   LDG.E R1, desc[UR4][R2.64] ;\n"
                          "        /*0080*/                   LDG.E.U16 R1, desc[UR4][R2.64] ;\n"
                          "        /*0090*/              @!P1 LDG.E.64 R4, desc[UR4][R2.64] ;\n"
                          "        /*00a0*/                   LDG.E.128.CONSTANT R4, desc[UR4][R2.64] ;\n"
                          "        /*00b0*/                   STG.E desc[UR4][R2.64], R1 ;\n"
                          "        /*00c0*/                   STG.E.64 desc[UR4][R2.64], R4 ;\n"
                          "        /*00d0*/                   STG.E.128 desc[UR4][R2.64], R4 ;\n"
                          "        /*00e0*/                   LDS.128 R4, [R1] ;\n"
                          "        /*00f0*/                   STS [R1], R2 ;\n"
                          "        /*0100*/                   LDSM.16.M88.4 R4, [R1] ;\n"
                          "        /*0110*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
                          "        /*0120*/                   LDL R1, [R1+0x4] ;\n"
                          "        /*0130*/                   STL [R1+0x4], R2 ;\n"
                          "        /*0140*/                   MOV R1, R2 ;\n"
                          "        /*0150*/                   NOP ;\n" /* a NOP inside the code stays */
                          "        /*0160*/                   EXIT ;\n"
                          ".L_x_7:\n"
                          "        /*0170*/                   BRA `(.L_x_7);\n"
                          "        /*0180*/                   NOP;\n"
                          ".L_x_8:\n";

static void test_hand_mix(void)
{
	rung_sass s;
	CHECK_INT(rung_sass_normalize(&s, hand, 0), 0);
	CHECK_INT(s.nfuncs, 1);
	rung_sass_mix m;
	rung_sass_count(&m, &s, -1);
	CHECK_INT(m.n[RUNG_MIX_FFMA], 2);
	CHECK_INT(m.n[RUNG_MIX_FADD], 1);
	CHECK_INT(m.n[RUNG_MIX_FMUL], 1);
	CHECK_INT(m.n[RUNG_MIX_HMMA], 1);
	CHECK_INT(m.n[RUNG_MIX_HGMMA], 1);
	CHECK_INT(m.n[RUNG_MIX_IMAD], 1);
	CHECK_INT(m.n[RUNG_MIX_LDG32], 2);
	CHECK_INT(m.n[RUNG_MIX_LDG64], 1);
	CHECK_INT(m.n[RUNG_MIX_LDG128], 1);
	CHECK_INT(m.n[RUNG_MIX_STG32], 1);
	CHECK_INT(m.n[RUNG_MIX_STG64], 1);
	CHECK_INT(m.n[RUNG_MIX_STG128], 1);
	CHECK_INT(m.n[RUNG_MIX_LDS], 1);
	CHECK_INT(m.n[RUNG_MIX_STS], 1);
	CHECK_INT(m.n[RUNG_MIX_LDSM], 1);
	CHECK_INT(m.n[RUNG_MIX_BAR], 1);
	CHECK_INT(m.n[RUNG_MIX_LDL], 1);
	CHECK_INT(m.n[RUNG_MIX_STL], 1);
	CHECK_INT(m.n[RUNG_MIX_BRA], 0);
	CHECK_INT(m.n[RUNG_MIX_TOTAL], 23); /* 0x000..0x160, the NOP inside included */
	/* the encodings are gone, the line of its own produced nothing */
	CHECK_STR(s.lines[1].text, "FFMA R1, R2, R3, R4");
	CHECK_INT(s.lines[2].pc, 0x10);
	CHECK_STR(s.lines[s.nlines - 1].text, "EXIT");
	rung_sass_clear(&s);
}

static void test_names_and_classify(void)
{
	CHECK_STR(rung_mix_name(RUNG_MIX_LDG128), "LDG.128");
	CHECK_STR(rung_mix_name(RUNG_MIX_TOTAL), "total");
	CHECK_STR(rung_mix_name(RUNG_MIX_COUNT), "?");
	CHECK_INT(rung_sass_classify("@!UP0 LDG.E.64.STRONG.GPU R2, desc[UR4][R4.64]"), RUNG_MIX_LDG64);
	CHECK_INT(rung_sass_classify("FFMA2 R2, R4, R6, R8"), -1); /* not FFMA */
	CHECK_INT(rung_sass_classify("LDSM.16.MT88.4 R4, [R1]"), RUNG_MIX_LDSM);
	CHECK_INT(rung_sass_classify("LDS R4, [R1]"), RUNG_MIX_LDS);
	CHECK_INT(rung_sass_classify("IADD3 R1, R2, R3, RZ"), -1);
}

/* Register renaming must leave opcodes and special registers alone. */
static void test_rename_boundaries(void)
{
	const char *l = "f:\n"
	                "        /*0000*/  P2R R7, PR, RZ, 0x1 ;\n"
	                "        /*0010*/  R2UR UR9, R7 ;\n"
	                "        /*0020*/  S2R R3, SR_TID.X ;\n"
	                "        /*0030*/  @!UP2 ISETP.NE.AND P3, PT, R3, R7, PT ;\n"
	                "        /*0040*/  IADD3 R12, P3, R3, R12, RZ ;\n"
	                "        /*0050*/  BSSY B3, R7 ;\n"
	                "        /*0060*/  BSYNC B3 ;\n";
	rung_sass s;
	CHECK_INT(rung_sass_normalize(&s, l, RUNG_SASS_RENAME_REGS), 0);
	char *t = rung_sass_text(&s, -1);
	CHECK_STR(t, "f:\n"
	             "  P2R r0, PR, RZ, 0x1\n"
	             "  R2UR ur0, r0\n"
	             "  S2R r1, SR_TID.X\n"
	             "  @!up0 ISETP.NE.AND p0, PT, r1, r0, PT\n"
	             "  IADD3 r2, p0, r1, r2, RZ\n"
	             "  BSSY b0, r0\n"
	             "  BSYNC b0\n");
	free(t);
	rung_sass_clear(&s);
}

static void test_empty(void)
{
	rung_sass s;
	CHECK_INT(rung_sass_normalize(&s, "", 0), 0);
	CHECK_INT(s.nlines, 0);
	CHECK_INT(s.nfuncs, 0);
	char *t = rung_sass_text(&s, -1);
	CHECK_STR(t, "");
	free(t);
	rung_sass_clear(&s);
	CHECK_INT(rung_sass_normalize(&s, NULL, 0), 0);
	rung_sass_clear(&s);
}

/* Numbers too large for their field (issue item 4: signed overflow): an address
 * comment above INT64_MAX is not an address (the instruction keeps pc -1), and a
 * label number above the renumbering table's range is kept as written. */
static void test_huge_numbers(void)
{
	const char *l = "f:\n"
	                "        /*7fffffffffffffff*/  MOV R1, R2 ;\n"
	                "        /*8000000000000000*/  MOV R3, R4 ;\n"
	                "        /*fffffffffffffffff0*/  MOV R5, R6 ;\n"
	                "        /*00000000000000000000000040*/  MOV R7, R8 ;\n"
	                ".L_x_12345678901234567890:\n"
	                "        /*0050*/  @P0 BRA `(.L_x_12345678901234567890) ;\n"
	                ".L_x_99999999999999999999999999:\n"
	                "        /*0060*/  @P1 BRA `(.L_x_7) ;\n"
	                ".L_x_7:\n"
	                "        /*0070*/  EXIT ;\n";
	rung_sass s;
	CHECK_INT(rung_sass_normalize(&s, l, 0), 0);
	char *t = rung_sass_text(&s, -1);
	CHECK_STR(t, "f:\n"
	             "  MOV R1, R2\n"
	             "  MOV R3, R4\n"
	             "  MOV R5, R6\n"
	             "  MOV R7, R8\n"
	             ".L_x_12345678901234567890:\n"
	             "  @P0 BRA `(.L_x_12345678901234567890)\n"
	             ".L_x_99999999999999999999999999:\n"
	             "  @P1 BRA `(.L_x_0)\n"
	             ".L_x_0:\n"
	             "  EXIT\n");
	free(t);
	CHECK_INT(s.nlines, 11);
	if (s.nlines == 11) {
		CHECK(s.lines[1].pc == INT64_MAX);
		CHECK_INT(s.lines[2].pc, -1);
		CHECK_INT(s.lines[3].pc, -1);
		CHECK_INT(s.lines[4].pc, 0x40); /* leading zeros are not digits of value */
		CHECK_INT(s.lines[6].pc, 0x50);
	}
	rung_sass_clear(&s);
}

int main(void)
{
	T_RUN(test_fixture_plain);
	T_RUN(test_fixture_renamed);
	T_RUN(test_fixture_mix);
	T_RUN(test_hand_mix);
	T_RUN(test_names_and_classify);
	T_RUN(test_rename_boundaries);
	T_RUN(test_empty);
	T_RUN(test_huge_numbers);
	return t_done();
}

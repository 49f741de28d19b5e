/* Line info in SASS listings (core/sass.h) and SASS lines by source line
 * (core/sass_src.h), on real listings: tests/fixtures/sass/lineinfo.sass is
 * `nvdisasm -c -gi` and lineinfo_g.sass `nvdisasm -c -g` of lineinfo.cu
 * (README.md there), and by hand for the summation and malformed comments.
 * The line-info comments change neither the normalized text, the block diff
 * nor the hot listing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/textdiff.h"
#include "core/sass.h"
#include "core/sass_prof.h"
#include "core/sass_src.h"
#include "harness.h"

static char *fx(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/fixtures/sass/%s", RUNG_TEST_DIR, name);
	char *t = t_slurp(path, NULL);
	CHECK(t != NULL);
	return t;
}

/* The listing without its line-info comments (what `nvdisasm -c` prints). */
static char *strip_line_info(const char *listing)
{
	char *out = malloc(strlen(listing) + 1), *o = out;
	const char *p = listing;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
		const char *q = p;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, "//##", 4) != 0) {
			memcpy(o, p, n);
			o += n;
		}
		p += n;
	}
	*o = 0;
	return out;
}

static int find_pc(const rung_sass *s, int64_t pc)
{
	for (int i = 0; i < s->nlines; i++)
		if (s->lines[i].kind == RUNG_SASS_INST && s->lines[i].pc == pc)
			return i;
	return -1;
}

/* -gi: the header helper's FFMAs are written at lineinfo.cuh:4 and inlined
 * at lineinfo.cu:30; the same-file helper's loads belong to its own line 10. */
static void test_inline_chains(void)
{
	char *listing = fx("lineinfo.sass");
	if (!listing)
		return;
	rung_sass s;
	CHECK_INT(rung_sass_normalize(&s, listing, 0), 0);
	CHECK_INT(s.nfiles, 2);
	int cu = rung_sass_find_file(&s, "lineinfo.cu"), cuh = rung_sass_find_file(&s, "lineinfo.cuh");
	CHECK(cu >= 0 && cuh >= 0 && cu != cuh);
	CHECK_INT(rung_sass_find_file(&s, "/home/me/task/lineinfo.cu"), cu); /* by the last component */
	CHECK_INT(rung_sass_find_file(&s, "other.cu"), -1);
	CHECK_INT(rung_sass_main_file(&s, -1), cu);

	int i = find_pc(&s, 0x0); /* LDC R1, c[0x0][0x28]: the kernel's opening line */
	CHECK(i >= 0);
	if (i >= 0) {
		CHECK_INT(s.lines[i].src.file, cu);
		CHECK_INT(s.lines[i].src.line, 13);
		CHECK_INT(s.lines[i].call.line, 13);
	}
	i = find_pc(&s, 0x390); /* the first FFMA */
	CHECK(i >= 0);
	if (i >= 0) {
		CHECK_STR(s.lines[i].text, "FFMA R12, R26, R12, R23");
		CHECK_INT(s.lines[i].src.file, cuh);
		CHECK_INT(s.lines[i].src.line, 4);
		CHECK_INT(s.lines[i].call.file, cu);
		CHECK_INT(s.lines[i].call.line, 30);
		CHECK_INT(rung_sass_line_in(&s.lines[i], cu), 30);
		CHECK_INT(rung_sass_line_in(&s.lines[i], cuh), 4);
		CHECK_STR(rung_sass_file_name(&s, s.lines[i].src), "lineinfo.cuh");
	}
	i = find_pc(&s, 0xd0); /* LDC.64 R4, c[0x0][0x210]: tile_load (line 10) inlined at line 25 */
	CHECK(i >= 0);
	if (i >= 0) {
		CHECK_INT(s.lines[i].src.line, 10);
		CHECK_INT(s.lines[i].call.line, 25);
		CHECK_INT(rung_sass_line_in(&s.lines[i], cu), 10); /* its own line, being in the file */
	}
	int ffma = 0, ffma_at_30 = 0;
	for (int k = 0; k < s.nlines; k++) {
		const rung_sass_line *l = &s.lines[k];
		if (l->kind != RUNG_SASS_INST) {
			CHECK_INT(l->src.file, -1);
			CHECK_INT(l->src.line, 0);
			continue;
		}
		CHECK(l->src.line > 0); /* every instruction of a -lineinfo build has a line */
		if (strncmp(l->text, "FFMA", 4) == 0) {
			ffma++;
			ffma_at_30 += l->src.file == cuh && l->src.line == 4 && rung_sass_line_in(l, cu) == 30;
		}
	}
	CHECK_INT(ffma, 32);
	CHECK_INT(ffma_at_30, 32);

	/* instructions per source line (counted from the listing by hand) */
	int64_t per[40];
	int summed = rung_sass_sum_by_source(per, 40, &s, cu, -1, NULL);
	CHECK(summed > 100);
	CHECK_INT(per[30 - 1], 72);
	CHECK_INT(per[10 - 1], 34);
	CHECK_INT(per[24 - 1], 13);
	CHECK_INT(per[13 - 1], 1);
	CHECK_INT(per[1 - 1], -1); /* a comment: no instruction */
	CHECK_INT(per[4 - 1], -1); /* line 4 of lineinfo.cu is the #include, not madd's body */
	int idx[128];
	CHECK_INT(rung_sass_lines_of(idx, 128, &s, cu, -1, 30), 72);
	CHECK_INT(rung_sass_lines_of(idx, 4, &s, cu, -1, 30), 72); /* the count, beyond max */
	CHECK_INT(rung_sass_lines_of(idx, 128, &s, cuh, -1, 4), 32);
	rung_sass_clear(&s);
	free(listing);
}

/* -g: one location, the innermost; no call sites */
static void test_plain_line_info(void)
{
	char *listing = fx("lineinfo_g.sass");
	if (!listing)
		return;
	rung_sass s;
	CHECK_INT(rung_sass_normalize(&s, listing, 0), 0);
	int cu = rung_sass_find_file(&s, "lineinfo.cu"), cuh = rung_sass_find_file(&s, "lineinfo.cuh");
	CHECK(cu >= 0 && cuh >= 0);
	int i = find_pc(&s, 0x390);
	CHECK(i >= 0);
	if (i >= 0) {
		CHECK_INT(s.lines[i].src.file, cuh);
		CHECK_INT(s.lines[i].src.line, 4);
		CHECK_INT(s.lines[i].call.file, cuh);
		CHECK_INT(rung_sass_line_in(&s.lines[i], cu), 0);
	}
	CHECK_INT(rung_sass_main_file(&s, -1), cu);
	rung_sass_clear(&s);
	free(listing);
}

/* The normalized text and pcs of -gi, -g and plain listings are the same. */
static void test_text_unchanged(void)
{
	char *gi = fx("lineinfo.sass"), *g = fx("lineinfo_g.sass");
	if (!gi || !g)
		return;
	char *plain = strip_line_info(gi);
	CHECK(strstr(gi, "//## File") && !strstr(plain, "//##"));
	unsigned flags[] = {0, RUNG_SASS_RENAME_REGS};
	for (int f = 0; f < 2; f++) {
		rung_sass a, b, c;
		CHECK_INT(rung_sass_normalize(&a, gi, flags[f]), 0);
		CHECK_INT(rung_sass_normalize(&b, g, flags[f]), 0);
		CHECK_INT(rung_sass_normalize(&c, plain, flags[f]), 0);
		char *ta = rung_sass_text(&a, -1), *tb = rung_sass_text(&b, -1), *tc = rung_sass_text(&c, -1);
		CHECK_STR(ta, tc);
		CHECK_STR(tb, tc);
		CHECK_INT(a.nlines, c.nlines);
		for (int i = 0; i < a.nlines && i < c.nlines; i++)
			CHECK_INT(a.lines[i].pc, c.lines[i].pc);
		CHECK_INT(c.nfiles, 0);
		CHECK_INT(rung_sass_main_file(&c, -1), -1);
		free(ta);
		free(tb);
		free(tc);
		rung_sass_clear(&a);
		rung_sass_clear(&b);
		rung_sass_clear(&c);
	}
	free(plain);
	free(gi);
	free(g);
}

/* The listing with a line-info comment before every instruction, naming
 * `file` and lines from `base` up. */
static char *add_line_info(const char *listing, const char *file, int base)
{
	size_t cap = strlen(listing) * 3 + 1024, o = 0;
	char *out = malloc(cap);
	const char *p = listing;
	int k = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
		const char *q = p;
		while (*q == ' ')
			q++;
		if (q[0] == '/' && q[1] == '*' && o + 128 < cap)
			o += (size_t)snprintf(out + o, cap - o, "\t//## File \"%s\", line %d inlined at \"%s\", line %d\n", file,
					      base + k, file, base + k + 1),
			    k++;
		if (o + n + 1 > cap)
			break;
		memcpy(out + o, p, n);
		o += n;
		p += n;
	}
	out[o] = 0;
	return out;
}

/* The block diff of the unroll pair (tests/test_sass_diff.c) with line info
 * on both sides, every line different: still one hunk, one FFMA added. */
static void test_diff_ignores_line_info(void)
{
	char *la = fx("unroll_a.sass"), *lb = fx("unroll_b.sass");
	if (!la || !lb)
		return;
	char *ia = add_line_info(la, "a.cu", 1), *ib = add_line_info(lb, "b.cu", 500);
	CHECK(strstr(ia, "//## File \"a.cu\", line 1 inlined at"));
	for (int raw = 0; raw < 2; raw++) {
		rung_sbs d0, d1;
		CHECK_INT(rung_sass_diff_listings(&d0, NULL, NULL, la, lb, raw, 3), 0);
		CHECK_INT(rung_sass_diff_listings(&d1, NULL, NULL, ia, ib, raw, 3), 0);
		CHECK_INT(d1.nhunks, d0.nhunks);
		CHECK_INT(d1.adds, d0.adds);
		CHECK_INT(d1.dels, d0.dels);
		CHECK_INT(d1.n, d0.n);
		if (!raw) {
			CHECK_INT(d1.nhunks, 1);
			CHECK_INT(d1.adds, 1);
		}
		rung_sbs_clear(&d0);
		rung_sbs_clear(&d1);
	}
	free(ia);
	free(ib);
	free(la);
	free(lb);
}

static char *hot_listing(const char *listing, const rung_sass_counts *c)
{
	rung_sass s;
	CHECK_INT(rung_sass_normalize(&s, listing, 0), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	rung_sass_print_hot(f, &s, rung_sass_find_func(&s, "sgemm"), c, 5);
	fclose(f);
	rung_sass_clear(&s);
	return buf;
}

/* `rung profile --sass`'s hot listing is the same with line info. */
static void test_hot_unchanged(void)
{
	char *gi = fx("lineinfo.sass");
	if (!gi)
		return;
	char *plain = strip_line_info(gi);
	rung_sass_counts c = {.func = "sgemm"};
	CHECK_INT(rung_sass_counts_add(&c, 0x390, 4096, 131072), 0);
	CHECK_INT(rung_sass_counts_add(&c, 0x3b0, 2048, 65536), 0);
	CHECK_INT(rung_sass_counts_add(&c, 0x0, 16, 512), 0);
	rung_sass_counts_sort(&c);
	char *h1 = hot_listing(gi, &c), *h2 = hot_listing(plain, &c);
	CHECK_CONTAINS(h1, "FFMA R12, R26, R12, R23");
	CHECK_STR(h1, h2);
	free(h1);
	free(h2);
	rung_sass_counts_clear(&c);
	free(plain);
	free(gi);
}

/* By hand: a value per SASS line summed per source line, absent (-1) values
 * left out; malformed comments change nothing; a function starts without a line. */
static const char *hand = "k:\n"
			  "        /*0000*/                   S2R R0, SR_TID.X ;\n"
			  "\t//## File \"k.cu\", line 3\n"
			  "        /*0010*/                   LDG.E R2, desc[UR4][R2.64] ;\n"
			  "        /*0020*/                   FADD R2, R2, 1 ;\n"
			  "\t//## File \"k.cu\", line\n"
			  "\t//## File k.cu, line 9\n"
			  "\t//## File \"k.cu\", line 0\n"
			  "\t//## File \"k.cu\", line 99999999999\n"
			  "\t//## File \"\", line 9\n"
			  "\t//## File \"k.cu\", line 9 inlined at \"h.cu\"\n"
			  "\t//## File \"k.cu\", line 9 trailing\n"
			  "        /*0030*/                   FADD R2, R2, 2 ;\n"
			  "\t//## File \"a \"b\".cu\", line 7\n"
			  "        /*0040*/                   STG.E desc[UR4][R4.64], R2 ;\n"
			  "\t//## File \"k.cu\", line 5\n"
			  "        /*0050*/                   EXIT ;\n"
			  "j:\n"
			  "        /*0000*/                   EXIT ;\n";

static void test_sum_by_hand(void)
{
	rung_sass s;
	CHECK_INT(rung_sass_normalize(&s, hand, 0), 0);
	CHECK_INT(s.nfiles, 2);
	int k = rung_sass_find_file(&s, "k.cu"), q = rung_sass_find_file(&s, "a \"b\".cu");
	CHECK(k >= 0 && q >= 0);
	int line_of[6] = {0};
	for (int i = 0; i < s.nlines; i++)
		if (s.lines[i].kind == RUNG_SASS_INST && s.lines[i].func == 0 && s.lines[i].pc / 16 < 6)
			line_of[s.lines[i].pc / 16] = s.lines[i].src.line;
	CHECK_INT(line_of[0], 0); /* before any line info */
	CHECK_INT(line_of[1], 3);
	CHECK_INT(line_of[2], 3); /* holds until the next comment */
	CHECK_INT(line_of[3], 3); /* the malformed ones are ignored */
	CHECK_INT(line_of[4], 7);
	CHECK_INT(line_of[5], 5);
	int j = rung_sass_find_func(&s, "j");
	for (int i = 0; i < s.nlines; i++)
		if (s.lines[i].func == j && s.lines[i].kind == RUNG_SASS_INST)
			CHECK_INT(s.lines[i].src.line, 0); /* a new function starts without a line */

	int64_t v[16];
	for (int i = 0; i < s.nlines; i++)
		v[i] = s.lines[i].kind == RUNG_SASS_INST ? 10 * (s.lines[i].pc / 16) + 1 : -1;
	int i2 = find_pc(&s, 0x20);
	v[i2] = -1; /* FADD R2, R2, 1: no count */
	int64_t per[8];
	CHECK_INT(rung_sass_sum_by_source(per, 8, &s, k, 0, v), 3);
	CHECK_INT(per[3 - 1], 11 + 31); /* pc 0x10 and 0x30 */
	CHECK_INT(per[5 - 1], 51);
	CHECK_INT(per[7 - 1], -1); /* another file */
	CHECK_INT(per[1 - 1], -1);
	CHECK_INT(rung_sass_sum_by_source(per, 8, &s, q, 0, v), 1);
	CHECK_INT(per[7 - 1], 41);
	/* zero is a value: a line whose instructions ran zero times sums to 0 */
	for (int i = 0; i < s.nlines; i++)
		v[i] = s.lines[i].kind == RUNG_SASS_INST ? 0 : -1;
	CHECK_INT(rung_sass_sum_by_source(per, 8, &s, k, -1, v), 4);
	CHECK_INT(per[3 - 1], 0);
	CHECK_INT(per[2 - 1], -1);
	/* lines beyond nsrc are left out, a bad file sums nothing */
	CHECK_INT(rung_sass_sum_by_source(per, 4, &s, k, -1, NULL), 3);
	CHECK_INT(per[3 - 1], 3);
	CHECK_INT(rung_sass_sum_by_source(per, 4, &s, -1, -1, NULL), 0);
	CHECK_INT(rung_sass_sum_by_source(per, 4, &s, 7, -1, NULL), 0);
	rung_sass_clear(&s);
}

int main(void)
{
	T_RUN(test_inline_chains);
	T_RUN(test_plain_line_info);
	T_RUN(test_text_unchanged);
	T_RUN(test_diff_ignores_line_info);
	T_RUN(test_hot_unchanged);
	T_RUN(test_sum_by_hand);
	return t_done();
}

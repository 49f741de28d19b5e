/* core/sass_excerpt.c: the MCP dump tool's SASS excerpt (#27 item 3), by hand
 * and on the demo's TF32 version (tests/fixtures/sass/README.md): chosen by
 * relevance (the hottest instructions, the main loop, the tensor-core and
 * memory instructions), within the budget, line info once per source line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sass_excerpt.h"
#include "harness.h"

#define P "/very/long/path/to/the/task/sgemm.cu@0123abc"

/* A listing: a header, 300 FFMA lines each with its line info (inlined, as
 * nvdisasm -gi writes it), then 4 HMMA. */
static char *listing(size_t *n)
{
	size_t cap = 1 << 20, o = 0;
	char *b = malloc(cap);
	o += (size_t)snprintf(b + o, cap - o, "\t.target\tsm_90\n.text.sgemm:\n");
	for (int i = 0; i < 300; i++) {
		o += (size_t)snprintf(b + o, cap - o, "\t//## File \"" P "\", line %d inlined at \"" P "\", line 116\n", 70 + i % 9);
		o += (size_t)snprintf(b + o, cap - o, "\t//## File \"" P "\", line 116\n");
		o += (size_t)snprintf(b + o, cap - o, "        /*%04x*/                   FFMA R%d, R2, R3, R%d ;\n", i * 16, i % 64, i % 64);
	}
	for (int i = 0; i < 4; i++)
		o += (size_t)snprintf(b + o, cap - o, "        /*%04x*/                   HMMA.1688.F32.TF32 R4, R8, R12, R4 ;\n",
				      4800 + i * 16);
	*n = o;
	return b;
}

static void test_short_line_info(void)
{
	size_t n;
	char *l = listing(&n);
	bool cut = true;
	char *e = rung_sass_excerpt(l, n, n, &cut);
	CHECK(e != NULL);
	CHECK(!cut);
	if (e) {
		CHECK(strlen(e) < n / 2); /* the path named once, not twice per instruction */
		CHECK(strstr(e, "//## line info below: line N is \"" P "\", line N\n") == e);
		CHECK(strstr(e, "\t//## line 70 inlined at line 116\n") != NULL);
		CHECK(strstr(e, "File \"" P) == NULL);
		CHECK(strstr(e, "HMMA") != NULL);
	}
	free(e);
	free(l);
}

static void test_tensor_part_kept(void)
{
	size_t n;
	char *l = listing(&n);
	bool cut = false;
	char *e = rung_sass_excerpt(l, n, 2000, &cut);
	CHECK(e != NULL);
	CHECK(cut);
	if (e) {
		CHECK(strlen(e) <= 2000 + 400);
		CHECK(strstr(e, "HMMA.1688.F32.TF32") != NULL); /* the head alone would have none */
		CHECK(strstr(e, ".text.sgemm:") != NULL);
		CHECK(strstr(e, "[... ") != NULL);
	}
	free(e);
	free(l);
}

static char *fx(const char *name, size_t *n)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/fixtures/sass/%s", RUNG_TEST_DIR, name);
	char *t = t_slurp(path, n);
	CHECK(t != NULL);
	return t;
}

static int count(const char *s, const char *what)
{
	int k = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		k++;
	return k;
}

/* A line with nvdisasm's padding cut (the excerpt writes an instruction as
 * two spaces, its pc comment, a space and the rest). */
static void norm(char *dst, size_t cap, const char *s, size_t len)
{
	size_t k = 0, o = 0;
	while (k < len && (s[k] == ' ' || s[k] == '\t'))
		k++;
	bool insn = k + 1 < len && s[k] == '/' && s[k + 1] == '*';
	if (!insn)
		k = 0;
	for (; k < len && o + 1 < cap; k++) {
		dst[o++] = s[k];
		if (insn && k > 0 && s[k] == '/' && s[k - 1] == '*') { /* the end of the pc comment */
			while (k + 1 < len && s[k + 1] == ' ')
				k++;
			dst[o++] = ' ';
			insn = false;
		}
	}
	dst[o] = 0;
}

/* Every line of e is a line of the listing (line info made short, padding
 * cut), or one of the excerpt's own (its first line, the cut lines). */
static void lines_are_the_listing(const char *e, const char *listing)
{
	size_t ln = strlen(listing);
	char *nl_all = malloc(ln + 2), *q = nl_all;
	*q++ = '\n';
	for (const char *p = listing; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[1024];
		norm(line, sizeof(line), p, len);
		q += sprintf(q, "%s\n", line);
		p += len + (nl ? 1 : 0);
	}
	int bad = 0;
	for (const char *p = e; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[1024], pat[1030];
		norm(line, sizeof(line), p, len);
		bool own = strstr(line, "//## rung's excerpt") == line || strstr(line, "  [... ") == line;
		snprintf(pat, sizeof(pat), "\n%s\n", line);
		if (!own && !strstr(nl_all, pat) && bad++ < 3)
			fprintf(stderr, "  not in the listing: '%s'\n", line);
		p += len + (nl ? 1 : 0);
	}
	CHECK_INT(bad, 0);
	free(nl_all);
}

/* The demo's TF32 version: its 64 HMMA lie past the first 180 KB of the
 * listing (the first 64 KiB of before held none). The default excerpt (8 KiB,
 * the MCP dump tool's) and the 32 KB one hold all 64, the main loop's label
 * and back branch, its memory instructions as far as they fit, line info once
 * per source line, and stay within the budget. */
static void test_tf32_default_excerpt(void)
{
	size_t n = 0;
	char *l = fx("tf32_mma.sass", &n);
	if (!l)
		return;
	CHECK_INT(count(l, " HMMA."), 64);
	const size_t budgets[] = {8 * 1024, 32 * 1024};
	for (int b = 0; b < 2; b++) {
		bool cut = false;
		char *e = rung_sass_excerpt(l, n, budgets[b], &cut);
		CHECK(e != NULL);
		if (!e)
			continue;
		CHECK(cut);
		CHECK(strlen(e) <= budgets[b]);
		CHECK_INT(count(e, " HMMA."), 64);
		CHECK(strstr(e, "\n.L_x_55:\n") != NULL);                      /* the main loop's label */
		CHECK(strstr(e, "  /*5360*/ @P0 BRA `(.L_x_55) ;\n") != NULL); /* and its branch back */
		CHECK(strstr(e, "the main loop .L_x_55 (0x") != NULL);          /* said in the first line */
		CHECK(strstr(e, "64 tensor-core") != NULL);
		CHECK(count(e, " LDS") >= (b ? 96 : 8));                       /* the loop's shared loads */
		CHECK(strstr(e, "\nsgemm:\n") != NULL);                          /* the function */
		CHECK(strstr(e, "[... ") != NULL);
		CHECK(strstr(e, "File \"sgemm/sgemm.cu@53c0aa4\", line") == NULL); /* the path named once, at the top */
		/* line info once per source line: never the same line info twice in a row */
		const char *prev = NULL;
		size_t prevlen = 0;
		int twice = 0;
		for (const char *p = e; *p;) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);
			if (strstr(p, "\t//## line ") == p) {
				twice += prev && prevlen == len && !memcmp(prev, p, len);
				prev = p;
				prevlen = len;
			} else if (strstr(p, "  /*") != p || strstr(p, "  [... ") == p) {
				prev = NULL; /* a label or a cut: the line is said again after it */
			}
			p += len + (nl ? 1 : 0);
		}
		CHECK_INT(twice, 0);
		/* every HMMA after the line info of its own source line */
		CHECK(strstr(e, "\t//## line ") != NULL);
		char *dd = NULL;
		bool c2 = false;
		dd = rung_sass_excerpt(l, n, n, &c2); /* the whole listing, line info made short */
		if (dd)
			lines_are_the_listing(e, dd);
		free(dd);
		free(e);
	}
	free(l);
}

/* With heat (stall samples per pc), the hottest instructions are kept even
 * where nothing else would keep them (ordinary instructions outside the main
 * loop), each with its neighbours, and the first line says so. */
static void test_hot_lines_kept(void)
{
	size_t n = 0;
	char *l = fx("tf32_mma.sass", &n);
	if (!l)
		return;
	/* three ordinary instructions of the epilogue, far past the loop */
	const char *hot[] = {"/*6a00*/", "/*0190*/", "/*2750*/"};
	rung_sass_heat h[] = {{0x6a00, 900}, {0x0190, 500}, {0x2750, 300}, {0x4080, 1}};
	bool cut = false;
	char *plain = rung_sass_excerpt(l, n, 8 * 1024, &cut);
	char *e = rung_sass_excerpt_hot(l, n, 8 * 1024, h, 4, "stall samples", &cut);
	CHECK(plain && e);
	if (plain && e) {
		for (int k = 0; k < 3; k++) {
			CHECK(strstr(plain, hot[k]) == NULL); /* not kept without the heat */
			CHECK(strstr(e, hot[k]) != NULL);
		}
		CHECK(strstr(e, "/*69f0*/") != NULL && strstr(e, "/*6a10*/") != NULL); /* its neighbours */
		CHECK(strstr(e, "the hottest instructions by stall samples") != NULL);
		CHECK(strlen(e) <= 8 * 1024);
		CHECK(count(e, " HMMA.") >= 32); /* the loop still gets most of the rest */
	}
	free(plain);
	free(e);
	/* the heat of a stall record: each pc's samples */
	rung_stall st;
	memset(&st, 0, sizeof(st));
	int ri = rung_stall_reason(&st, "long_scoreboard");
	CHECK(ri >= 0);
	CHECK_INT(rung_stall_add(&st, 0x5360, ri, 7), 0);
	CHECK_INT(rung_stall_add(&st, 0x0190, ri, 3), 0);
	CHECK_INT(rung_stall_finish(&st), 0);
	int nh = 0;
	rung_sass_heat *sh = rung_sass_heat_of_stall(&st, &nh);
	CHECK_INT(nh, 2);
	if (sh && nh == 2) {
		CHECK(sh[0].pc == 0x0190 && sh[0].weight == 3);
		CHECK(sh[1].pc == 0x5360 && sh[1].weight == 7);
	}
	free(sh);
	rung_stall_clear(&st);
	free(l);
}

int main(void)
{
	T_RUN(test_short_line_info);
	T_RUN(test_tensor_part_kept);
	T_RUN(test_tf32_default_excerpt);
	T_RUN(test_hot_lines_kept);
	return t_done();
}

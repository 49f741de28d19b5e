/* core/sass_excerpt.c: the MCP dump tool's SASS excerpt (#27 item 3). */
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

int main(void)
{
	T_RUN(test_short_line_info);
	T_RUN(test_tensor_part_kept);
	return t_done();
}

/* SASS normalization (core/sass.c) of an nvdisasm listing: plain and with
 * registers renamed, the text of the whole listing and of each function, the
 * instruction mix, and the per-PC annotation (core/sass_prof.c) with a count at
 * every instruction's pc. */
#include "core/sass.h"
#include "core/sass_prof.h"
#include "fuzz.h"

static void check_one(const char *listing, unsigned flags)
{
	rung_sass s;
	if (rung_sass_normalize(&s, listing, flags) != 0) {
		rung_sass_clear(&s);
		return;
	}
	FUZZ_ASSERT(s.nlines >= 0 && s.nfuncs >= 0);
	rung_sass_counts counts;
	memset(&counts, 0, sizeof counts);
	for (int i = 0; i < s.nlines; i++) {
		FUZZ_ASSERT(s.lines[i].text != NULL);
		FUZZ_ASSERT(s.lines[i].func >= -1 && s.lines[i].func < s.nfuncs);
		if (s.lines[i].kind == RUNG_SASS_INST) {
			FUZZ_ASSERT(s.lines[i].pc >= -1);
			(void)rung_sass_classify(s.lines[i].text);
			if (s.lines[i].pc >= 0)
				(void)rung_sass_counts_add(&counts, s.lines[i].pc, 1, 32);
		}
	}
	rung_sass_counts_sort(&counts);
	rung_sass_mix mix;
	rung_sass_count(&mix, &s, -1);
	for (int f = -1; f < s.nfuncs && f < 8; f++) {
		char *t = rung_sass_text(&s, f);
		FUZZ_ASSERT(t != NULL);
		if (f >= 0)
			FUZZ_ASSERT(rung_sass_find_func(&s, s.funcs[f]) >= 0);
		int64_t *inst = calloc((size_t)s.nlines + 1, sizeof(*inst));
		int idx[10];
		if (inst && rung_sass_annotate(inst, &s, f, &counts) >= 0)
			(void)rung_sass_hot(idx, 10, &s, inst);
		free(inst);
		free(t);
	}
	rung_sass_counts_clear(&counts);
	rung_sass_clear(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	check_one(text, 0);
	check_one(text, RUNG_SASS_RENAME_REGS);
	free(text);
	return 0;
}

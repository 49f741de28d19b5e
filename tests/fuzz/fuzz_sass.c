/* SASS normalization (core/sass.c) of an nvdisasm listing: plain and with
 * registers renamed, the text of the whole listing and of each function, the
 * instruction mix, and the per-PC annotation (core/sass_prof.c) with a count at
 * every instruction's pc; and the block diff (core/sass_diff.c) of the listing's
 * two halves and of the listing against itself (no change). */
#include "core/sass.h"
#include "core/sass_diff.h"
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

static void check_diff(const rung_sass *a, const rung_sass *b, bool same)
{
	rung_sass_diff d;
	if (rung_sass_diff_build(&d, a, b, 3) != 0)
		return;
	FUZZ_ASSERT(d.n >= a->nlines && d.n >= b->nlines && d.n <= a->nlines + b->nlines);
	int na = 0, nb = 0;
	for (int i = 0; i < d.n; i++) {
		const rung_sd_row *r = &d.rows[i];
		FUZZ_ASSERT(r->a >= -1 && r->a < a->nlines && r->b >= -1 && r->b < b->nlines);
		/* every line once, in order */
		if (r->a >= 0)
			FUZZ_ASSERT(r->a == na++);
		if (r->b >= 0)
			FUZZ_ASSERT(r->b == nb++);
	}
	FUZZ_ASSERT(na == a->nlines && nb == b->nlines);
	if (same)
		FUZZ_ASSERT(d.nhunks == 0 && d.adds == 0 && d.dels == 0);
	for (int h = 0; h < d.nhunks; h++)
		FUZZ_ASSERT(d.hunks[h].r0 >= 0 && d.hunks[h].r0 < d.hunks[h].r1 && d.hunks[h].r1 <= d.n);
	rung_sass_diff_clear(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	check_one(text, 0);
	check_one(text, RUNG_SASS_RENAME_REGS);
	size_t n = strlen(text);
	char *half = malloc(n / 2 + 1);
	rung_sass a, b;
	if (half && rung_sass_normalize(&a, text, RUNG_SASS_RENAME_REGS) == 0) {
		memcpy(half, text, n / 2);
		half[n / 2] = 0;
		if (rung_sass_normalize(&b, half, RUNG_SASS_RENAME_REGS) == 0) {
			check_diff(&b, &a, false);
			check_diff(&a, &b, false);
			rung_sass_clear(&b);
		}
		check_diff(&a, &a, true);
		rung_sass_clear(&a);
	}
	free(half);
	free(text);
	return 0;
}

/* The SASS diff's size on consecutive listings (docs/BENCHMARKS.md, "SASS diff"):
 *   bench_sassdiff NAME=FILE.sass NAME=FILE.sass ...
 * For each consecutive pair, the hunks and +adds -dels of three diffs:
 *   raw      nvdisasm's register names, line by line (libgit2 patience: `rung compare --raw-sass`)
 *   renamed  registers renamed by first use per function, line by line (what compare showed before)
 *   blocks   renamed, aligned by basic block, same up to a consistent renaming (the default now)
 * and the time of the block diff. bench/sass_diff_ladder.sh makes the listings of the demo's ladder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/textdiff.h"
#include "core/err.h"
#include "core/sass_diff.h"
#include "core/fs.h"
#include "core/timing.h"

static int cell(char *out, size_t n, const rung_sbs *d)
{
	return snprintf(out, n, "%d, +%d -%d", d->nhunks, d->adds, d->dels);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bench_sassdiff NAME=FILE.sass NAME=FILE.sass ...\n");
		return 2;
	}
	int n = argc - 1;
	char **text = calloc((size_t)n, sizeof(char *));
	const char **name = calloc((size_t)n, sizeof(char *));
	if (!text || !name)
		return 1;
	for (int i = 0; i < n; i++) {
		char *eq = strchr(argv[i + 1], '=');
		name[i] = argv[i + 1];
		const char *path = argv[i + 1];
		if (eq) {
			*eq = 0;
			path = eq + 1;
		}
		size_t len;
		if (rung_fs_read_file(&text[i], &len, path, 64 << 20) < 0) {
			fprintf(stderr, "bench_sassdiff: %s\n", rung_error_last());
			return 1;
		}
	}
	printf("| step | lines a -> b | raw (hunks, +/-) | renamed, line diff | by basic block | blocks matched | ms |\n");
	printf("|---|---|---|---|---|---|---|\n");
	for (int i = 0; i + 1 < n; i++) {
		rung_sbs raw, ren, blk;
		char ca[64], cb[64], cc[64];
		if (rung_sass_diff_listings(&raw, NULL, NULL, text[i], text[i + 1], true, 3) < 0) {
			fprintf(stderr, "bench_sassdiff: %s\n", rung_error_last());
			return 1;
		}
		char *ta = NULL, *tb = NULL;
		if (rung_sass_prepare(&ta, NULL, text[i]) < 0 || rung_sass_prepare(&tb, NULL, text[i + 1]) < 0 ||
		    rung_textdiff(&ren, ta, tb, 3) < 0) {
			fprintf(stderr, "bench_sassdiff: %s\n", rung_error_last());
			return 1;
		}
		rung_sass sa, sb;
		if (rung_sass_normalize_pair(&sa, &sb, text[i], text[i + 1], RUNG_SASS_RENAME_REGS) < 0) {
			fprintf(stderr, "bench_sassdiff: %s\n", rung_error_last());
			return 1;
		}
		double t0 = rung_now_s();
		if (rung_sass_blockdiff(&blk, &sa, &sb, 3) < 0) {
			fprintf(stderr, "bench_sassdiff: %s\n", rung_error_last());
			return 1;
		}
		double ms = (rung_now_s() - t0) * 1e3;
		rung_sass_diff sd;
		if (rung_sass_diff_build(&sd, &sa, &sb, 3) < 0)
			return 1;
		cell(ca, sizeof(ca), &raw);
		cell(cb, sizeof(cb), &ren);
		cell(cc, sizeof(cc), &blk);
		printf("| %s -> %s | %d -> %d | %s | %s | %s | %d of %d/%d | %.1f |\n", name[i], name[i + 1], sa.nlines,
		       sb.nlines, ca, cb, cc, sd.matched_blocks, sd.nblocks_a, sd.nblocks_b, ms);
		rung_sass_diff_clear(&sd);
		rung_sass_clear(&sa);
		rung_sass_clear(&sb);
		rung_sbs_clear(&raw);
		rung_sbs_clear(&ren);
		rung_sbs_clear(&blk);
		free(ta);
		free(tb);
	}
	for (int i = 0; i < n; i++)
		free(text[i]);
	free(text);
	free(name);
	return 0;
}

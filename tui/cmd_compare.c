/* rung compare [--budget SEC] [-C DIR] [--task DIR] [--spec-rev REV] A B
 *
 * Times two versions of one task against each other in one worker, interleaved
 * A B A B with an L2 flush before each launch, and prints
 *   FASTER B/A=0.953 [0.948, 0.958] A=15.503ms B=14.772ms n=41 dropped=0
 * (the verdict is B relative to A; the interval is a bootstrap 95% interval of
 * the ratio of medians, core/stats.h). Identical machine code prints
 *   SAME identical machine code
 * without timing. A and B are kernel files (or task directories) of the same
 * task; A's rung.ini is used for both. A and B may also be git revisions
 * (HEAD~1 HEAD, a short hash, WORKTREE), read from git (rung_task_load_target). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/stats.h"
#include "gpu/worker.h"
#include "tui/cli.h"
#include "tui/task_load.h"

int rung_cmd_compare(int argc, char **argv)
{
	double budget = 2.0;
	const char *targets[2] = {NULL, NULL};
	int nt = 0;
	rung_task_where where = {0};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int w = rung_vctx_opt(&where, "compare", argc, argv, &i);
		if (w < 0)
			return rung_cli_usage("compare", 1);
		if (w > 0)
			continue;
		if (!strcmp(a, "--budget")) {
			char *end;
			if (i + 1 >= argc || (budget = strtod(argv[i + 1], &end), end == argv[i + 1] || *end || !(budget > 0))) {
				fprintf(stderr, "rung compare: --budget needs a positive number of seconds\n");
				return RUNG_EXIT_USAGE;
			}
			i++;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "rung compare: unknown option '%s'\n", a);
			return rung_cli_usage("compare", 1);
		} else if (nt < 2) {
			targets[nt++] = a;
		} else {
			fprintf(stderr, "rung compare: more than two versions\n");
			return rung_cli_usage("compare", 1);
		}
	}
	if (nt != 2) {
		fprintf(stderr, "rung compare: needs two versions, A and B\n");
		return rung_cli_usage("compare", 1);
	}
	rung_task ta, tb;
	memset(&tb, 0, sizeof(tb));
	int rc = rung_task_load_target(&ta, "compare", targets[0], &where);
	if (rc) {
		rung_task_free(&ta);
		return rc;
	}
	if ((rc = rung_task_load_target(&tb, "compare", targets[1], &where))) {
		rung_task_free(&ta);
		rung_task_free(&tb);
		return rc;
	}
	rung_compiled ka, kb;
	memset(&ka, 0, sizeof(ka));
	memset(&kb, 0, sizeof(kb));
	int code = RUNG_EXIT_OK;
	rung_worker *w = NULL;
	rung_ab ab;
	memset(&ab, 0, sizeof(ab));
	if (rung_task_compile(&ka, &ta, false)) {
		printf("FAILED A does not compile: %s\n", ka.error[0] ? ka.error : rung_error_last());
		code = RUNG_EXIT_FAIL;
		goto done;
	}
	if (rung_task_compile(&kb, &tb, false)) {
		printf("FAILED B does not compile: %s\n", kb.error[0] ? kb.error : rung_error_last());
		code = RUNG_EXIT_FAIL;
		goto done;
	}
	if (rung_worker_open(&w, NULL)) {
		code = RUNG_EXIT_INTERNAL;
		goto done;
	}
	if (rung_compare_versions(&ab, w, ta.spec, ta.kernel.src, ta.kernel.path, &ka, tb.kernel.src, tb.kernel.path,
				  &kb, budget)) {
		fprintf(stderr, "rung compare: %s\n", rung_error_last());
		code = RUNG_EXIT_INTERNAL;
		goto done;
	}
	if (ab.identical) {
		printf("SAME identical machine code\n");
		goto done;
	}
	if (ab.failed) {
		printf("%s %s\n", ab.skipped ? "SKIPPED" : "FAILED", ab.reason);
		code = ab.skipped ? RUNG_EXIT_NOGPU : RUNG_EXIT_FAIL;
		goto done;
	}
	rung_compare cmp;
	if (ab.n < 2 || rung_compare_samples(&cmp, ab.a, ab.n, ab.b, ab.n, 0, 0x5eed)) {
		printf("FAILED too few samples (%d, %d dropped under 75%% of the max SM clock)\n", ab.n, ab.dropped);
		code = RUNG_EXIT_FAIL;
		goto done;
	}
	printf("%s B/A=%.3f [%.3f, %.3f] A=%.3fms B=%.3fms n=%d dropped=%d%s%s\n", rung_cmp_verdict_name(cmp.verdict),
	       cmp.ratio, cmp.lo, cmp.hi, cmp.median_a, cmp.median_b, ab.n, ab.dropped,
	       strcmp(ab.method, "cupti-activity") ? " method=" : "", strcmp(ab.method, "cupti-activity") ? ab.method : "");
done:
	rung_ab_free(&ab);
	rung_worker_detach(w);
	rung_compiled_free(&ka);
	rung_compiled_free(&kb);
	rung_task_free(&ta);
	rung_task_free(&tb);
	return code;
}

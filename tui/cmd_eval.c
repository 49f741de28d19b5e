/* rung eval [REV...|--all|--missing] [--jobs N] [--compile-only]: evaluate
 * versions of the task and store their results. With no REV, --missing.
 * Progress goes to stderr (a bar with count, version and ETA on a terminal,
 * plain lines otherwise); one result line per version on stdout.
 *
 * Versions run one at a time through rung_evaluate(): one GPU, and timings must
 * not share it. Compiling the next version while the GPU works on the current
 * one would need the compile rung split out of rung_evaluate (gpu/worker.h has
 * rung_evaluate_gpu for the GPU half, but the compile half that fills the result
 * is internal to gpu/); --jobs N is accepted and reported as serial for now. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "tui/cli.h"
#include "tui/vcs_eval.h"

int rung_cmd_eval(int argc, char **argv)
{
	rung_vctx_opts o = {0};
	bool all = false, missing = false;
	unsigned flags = 0;
	int jobs = 1, nrevs = 0;
	const char **revs = calloc((size_t)argc, sizeof(char *));
	if (!revs)
		return RUNG_EXIT_INTERNAL;
	for (int i = 1; i < argc; i++) {
		int k = rung_vctx_opt(&o, "eval", argc, argv, &i);
		if (k < 0) {
			free(revs);
			return RUNG_EXIT_USAGE;
		}
		if (k > 0)
			continue;
		if (!strcmp(argv[i], "--all")) {
			all = true;
		} else if (!strcmp(argv[i], "--missing")) {
			missing = true;
		} else if (!strcmp(argv[i], "--compile-only")) {
			flags |= RUNG_JOB_COMPILE_ONLY;
		} else if (!strcmp(argv[i], "--jobs") && i + 1 < argc) {
			jobs = atoi(argv[++i]);
			if (jobs < 1) {
				fprintf(stderr, "rung eval: --jobs: '%s' is not a positive count\n", argv[i]);
				free(revs);
				return RUNG_EXIT_USAGE;
			}
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "rung eval: unknown option '%s'\n", argv[i]);
			free(revs);
			return RUNG_EXIT_USAGE;
		} else {
			revs[nrevs++] = argv[i];
		}
	}
	if ((all || missing) && nrevs) {
		fprintf(stderr, "rung eval: give REVs or --all/--missing, not both\n");
		free(revs);
		return RUNG_EXIT_USAGE;
	}
	if (!all && !nrevs)
		missing = true;
	if (jobs > 1)
		fprintf(stderr, "rung eval: --jobs %d: versions run one at a time (one GPU; compile overlap not available yet)\n",
			jobs);
	rung_vctx c;
	int rc = rung_vctx_open(&c, "eval", &o, RUNG_VCTX_TASK | RUNG_VCTX_STORE);
	if (rc) {
		free(revs);
		return rc;
	}
	/* the versions to run */
	rung_version *vs = NULL;
	int nv = 0;
	if (nrevs) {
		vs = calloc((size_t)nrevs, sizeof(*vs));
		for (int i = 0; vs && i < nrevs; i++) {
			if (rung_version_at(&vs[nv], c.repo, revs[i], c.task.kernel_path) < 0) {
				fprintf(stderr, "rung eval: %s\n", rung_error_last());
				rc = RUNG_EXIT_USAGE;
				break;
			}
			nv++;
		}
	} else {
		rung_vrow *rows;
		int n;
		if (rung_vctx_rows(&rows, &n, &c, NULL, 0) < 0) {
			fprintf(stderr, "rung eval: %s\n", rung_error_last());
			rc = RUNG_EXIT_INTERNAL;
		} else {
			vs = calloc((size_t)n + 1, sizeof(*vs));
			for (int i = n - 1; vs && i >= 0; i--) /* oldest first */
				if (all || !rows[i].result)
					vs[nv++] = rows[i].v;
			rung_vrows_free(rows, n);
		}
	}
	free(revs);
	if (rc || !vs) {
		free(vs);
		rung_vctx_close(&c);
		return rc ? rc : RUNG_EXIT_INTERNAL;
	}
	if (nv == 0)
		printf("nothing to evaluate: every version has a stored result (use --all to run them again)\n");
	rung_evaler ev;
	if (nv && rung_evaler_open(&ev, &c, flags) < 0) {
		fprintf(stderr, "rung eval: %s\n", rung_error_last());
		free(vs);
		rung_vctx_close(&c);
		return RUNG_EXIT_INTERNAL;
	}
	int failed = 0, cached = 0;
	ev.total = nv;
	for (int i = 0; i < nv; i++) {
		ev.index = i;
		rung_result r;
		int e = rung_evaler_run(&ev, &vs[i], &r);
		if (e < 0) {
			fprintf(stderr, "rung eval: %s: %s\n", vs[i].short_id, rung_error_last());
			rc = RUNG_EXIT_INTERNAL;
			rung_result_clear(&r);
			continue;
		}
		char line[1024];
		rung_vrow_line(line, sizeof(line), &vs[i], &r);
		printf("%s\n", line);
		fflush(stdout);
		failed += rung_result_status(&r) == RUNG_S_FAILED;
		cached += r.cached;
		rung_result_clear(&r);
	}
	if (nv) {
		fprintf(stderr, "rung eval: %d version(s), %d from the store, %d failed%s\n", nv, cached, failed,
			ev.env.valid || (flags & RUNG_JOB_COMPILE_ONLY) ? "" : "; no GPU: nothing stored");
		if (!rc && !ev.env.valid && !(flags & RUNG_JOB_COMPILE_ONLY))
			rc = RUNG_EXIT_NOGPU;
		rung_evaler_close(&ev);
	}
	if (!rc && failed)
		rc = RUNG_EXIT_FAIL;
	free(vs);
	rung_vctx_close(&c);
	return rc;
}

/* The workbench evaluating a task live, as `E` does: the git model
 * (tui/model/git.c) queues every version without a live result and the
 * service's runner thread (app/workbench.c) evaluates them in this process
 * (app/pipeline.h) while
 * this thread applies the model's events, as the UI loop does. Prints the
 * wall time from `E` to the last result, and how many rows got a live result.
 *
 *   bench_tui_eval REPO [TASKDIR]
 *
 * The worker is rung's own: RUNG_WORKER_EXE names the rung binary (required:
 * this program is not rung). bench/h200_tui_eval.sh runs it against
 * `rung eval --all` on the same versions in one run. */
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/timing.h"
#include "tui/model/model.h"

static int live_rows(const rung_model *m)
{
	int n = 0;
	for (int i = 0; i < m->nrows; i++)
		n += m->rows[i].result && !rung_model_row_is_recorded(&m->rows[i]);
	return n;
}

int main(int argc, char **argv)
{
	if (argc < 2 || !getenv("RUNG_WORKER_EXE")) {
		fprintf(stderr, "usage: RUNG_WORKER_EXE=path/to/rung bench_tui_eval REPO [TASKDIR]\n");
		return 2;
	}
	double t_open = rung_now_s();
	rung_model *m = NULL;
	if (rung_model_git_new(&m, argv[1], argc > 2 ? argv[2] : NULL) < 0) {
		fprintf(stderr, "bench_tui_eval: %s\n", rung_error_last());
		return 1;
	}
	while (m->loading || m->filling) { /* the whole list and its results first, as after the first frames */
		struct pollfd p = {rung_model_event_fd(m), POLLIN, 0};
		if (poll(&p, 1, 100) > 0)
			rung_model_apply_events(m);
	}
	double t0 = rung_now_s();
	int queued = rung_model_evaluate_missing(m);
	if (queued < 0) {
		fprintf(stderr, "bench_tui_eval: %s\n", rung_error_last());
		rung_model_free(m);
		return 1;
	}
	long events = 0;
	bool seen_all = queued == 0; /* the QUEUED events are applied like the others */
	while ((!seen_all || m->queue_total > 0) && rung_now_s() - t0 < 1800) {
		if (m->queue_total >= queued)
			seen_all = true;
		struct pollfd p = {rung_model_event_fd(m), POLLIN, 0};
		if (poll(&p, 1, 200) > 0)
			events += rung_model_apply_events(m);
	}
	double t1 = rung_now_s();
	printf("workbench: %d versions queued, %d with a live result, %.2f s from E to the last result"
	       " (%ld events; open %.2f s)\n",
	       queued, live_rows(m), t1 - t0, events, t0 - t_open);
	if (m->message[0])
		printf("status: %s\n", m->message);
	double t2 = rung_now_s();
	rung_model_free(m);
	printf("closed in %.2f s\n", rung_now_s() - t2);
	return 0;
}

/* The workbench evaluates in this process (tui/model/git.c over app/pipeline.h):
 * `e` on a version runs it through the one evaluation on the model's
 * background thread, with a persistent worker, and the result arrives as an
 * event that updates that row alone: no reload replaces the rows, and no
 * `rung eval` child is started (the rung binary is not even known here: a
 * RUNG_EXE pointing nowhere would make a spawned child fail). Without a GPU
 * the version's own compile rung (registers, spills) still arrives. */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/err.h"
#include "harness.h"
#include "tui/model/model.h"

/* Two commits of the sgemm task at the root: the second changes a comment. */
static const char *make_repo(void)
{
	static char dir[4096];
	snprintf(dir, sizeof(dir), "%s/repo", t_tmpdir());
	char *out = NULL;
	int rc = t_sh(&out,
		      "set -e; git init -q -b main '%s' && cd '%s' && cp '%s'/tasks/sgemm/* . &&"
		      " git add -A && git -c user.name=A -c user.email=a@x commit -qm 'naive sgemm' &&"
		      " echo '// again' >> sgemm.cu && git -c user.name=A -c user.email=a@x commit -qam 'comment only' 2>&1",
		      dir, dir, RUNG_TEST_DIR);
	if (rc != 0)
		fprintf(stderr, "make_repo: %s\n", out ? out : "");
	free(out);
	return rc == 0 ? dir : NULL;
}

/* Applies events until row i has a result with a compile rung, or 120 s;
 * notes the progress steps seen. */
static const rung_result *wait_result(rung_model *m, int i, unsigned *steps_seen)
{
	time_t t0 = time(NULL);
	while (time(NULL) - t0 < 120) {
		const rung_result *r = m->rows[i].result;
		if (r && r->steps[RUNG_STEP_COMPILE].status != RUNG_S_NONE && m->queue_total == 0)
			return r;
		struct pollfd p = {rung_model_event_fd(m), POLLIN, 0};
		if (poll(&p, 1, 100) > 0) {
			rung_model_apply_events(m);
			if (m->queue_hash[0])
				*steps_seen |= 1u << m->queue_step;
		}
	}
	return NULL;
}

static void test_evaluate_in_process(void)
{
	const char *dir = make_repo();
	CHECK(dir != NULL);
	if (!dir)
		return;
	setenv("RUNG_EXE", "/nonexistent/rung", 1); /* a `rung eval` child could not start */
	setenv("RUNG_WORKER_EXE", RUNG_BIN, 1);      /* the worker is rung's, not this test's */
	rung_model *m = NULL;
	CHECK_INT(rung_model_git_new(&m, dir, NULL), 0);
	if (!m)
		return;
	CHECK_INT(m->nrows, 2);
	CHECK(m->rows[0].result == NULL); /* nothing evaluated yet */
	rung_model_row *rows_before = m->rows;
	unsigned gen_before = m->generation;
	unsigned seen = 0;
	CHECK_INT(rung_model_evaluate(m, m->rows[0].hash), 0);
	const rung_result *r = wait_result(m, 0, &seen);
	if (!r)
		fprintf(stderr, "no result; status: '%s', queue %d/%d\n", m->message, m->queue_done, m->queue_total);
	CHECK(r != NULL);
	if (r) {
		CHECK_INT(r->steps[RUNG_STEP_COMPILE].status, RUNG_S_OK);
		CHECK(r->compile.kernel.valid);
		CHECK(r->compile.kernel.regs > 0);
		rung_status run = r->steps[RUNG_STEP_RUN].status;
		CHECK(run == RUNG_S_SKIPPED || run == RUNG_S_OK); /* no GPU here, or one */
		CHECK(m->rows[0].step[RUNG_STEP_COMPILE] == RUNG_S_OK);
	}
	/* the row was updated in place: the list itself was not reloaded */
	CHECK(m->rows == rows_before);
	CHECK_INT(m->nrows, 2);
	CHECK(m->generation != gen_before); /* the screens redraw the changed row */
	CHECK(m->rows[1].result == NULL);   /* only the version asked for */
	CHECK(seen != 0);                   /* progress came through the model's events */
	/* a second version through the same worker (the evaluator stays open) */
	CHECK_INT(rung_model_evaluate(m, m->rows[1].hash), 0);
	r = wait_result(m, 1, &seen);
	CHECK(r != NULL);
	if (r)
		CHECK_INT(r->steps[RUNG_STEP_COMPILE].status, RUNG_S_OK);
	rung_model_free(m);
	unsetenv("RUNG_EXE");
	unsetenv("RUNG_WORKER_EXE");
}

int main(void)
{
	T_RUN(test_evaluate_in_process);
	return t_done();
}

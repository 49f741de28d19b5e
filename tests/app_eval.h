/* The tests that evaluate a hand-made spec and kernel source go through the
 * one evaluation users take (app/evaluate.h), as rung check does: the spec
 * and source become a task view (rung_task_of_spec), the test's worker the
 * evaluator's, and the job's seed, budget, deadline, RUNG_JOB_* flags and
 * label its options. Nothing is looked up or stored (no store). */
#ifndef RUNG_TESTS_APP_EVAL_H
#define RUNG_TESTS_APP_EVAL_H

#include <string.h>

#include "app/evaluate.h"
#include "app/task.h"
#include "core/result.h"
#include "gpu/worker.h"

/* job: spec, kernel_src (kernel_len), kernel_file, seed, seed_set, budget_s,
 * deadline_s, flags and label are read; the rest comes from the task. */
static inline int t_task_of_job(rung_task *t, const rung_job *job)
{
	int e = rung_task_of_spec(t, job->spec, job->kernel_file, job->kernel_src, job->kernel_len);
	t->label = job->label;
	return e;
}

/* The whole evaluation (rung_app_evaluate) of job's kernel on worker w. */
static inline int t_app_evaluate(rung_result *r, rung_worker *w, const rung_job *job, rung_progress_fn cb, void *ud)
{
	rung_task t;
	int e = t_task_of_job(&t, job);
	if (e < 0) {
		rung_result_init(r);
		rung_task_clear(&t);
		return e;
	}
	rung_evaluator ev;
	memset(&ev, 0, sizeof(ev));
	ev.w = w;
	rung_eval_opts o = {.flags = RUNG_EVAL_NO_STORE | (w ? 0 : RUNG_EVAL_COMPILE_ONLY),
			    .job_flags = job->flags,
			    .seed = job->seed,
			    .seed_set = job->seed_set,
			    .budget_s = job->budget_s,
			    .deadline_s = job->deadline_s,
			    .progress = cb,
			    .ud = ud};
	rung_eval_info info;
	rung_compiled kc, rc;
	e = rung_app_evaluate(r, &info, &ev, &t, &o, &kc, &rc);
	rung_compiled_clear(&kc);
	rung_compiled_clear(&rc);
	rung_task_clear(&t);
	return e;
}

/* The compile rung alone (rung_eval_compile) of job's kernel and reference for
 * arch, into r (initialised here), kc and rc (caller frees): 0 both compiled,
 * 1 r holds the verdict, negative on rung's own failure. */
static inline int t_app_compile(rung_result *r, rung_compiled *kc, rung_compiled *rc, const rung_job *job,
				const char *arch)
{
	rung_result_init(r);
	memset(kc, 0, sizeof(*kc));
	memset(rc, 0, sizeof(*rc));
	rung_task t;
	int e = t_task_of_job(&t, job);
	if (e == 0) {
		r->base_seed = job->seed;
		e = rung_eval_compile(r, kc, rc, &t, arch);
	}
	rung_task_clear(&t);
	return e;
}

#endif

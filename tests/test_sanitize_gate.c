/* The sanitize gate's pure part (app/sanitize_gate.h) on made-up results:
 * the state of a result under the gate's tools, the recommended version of a
 * list of rows (sanitized, pending, provisional, a failed run left out), the
 * words the views print, and the benchmark-shape notes. The runs themselves:
 * tests/sh/sanitize_gate.sh (fake worker and compute-sanitizer) and
 * tests/gpu_sanitize_gate.c (the H200). */
#include <stdlib.h>
#include <string.h>

#include "app/goal.h"
#include "app/sanitize_gate.h"
#include "harness.h"
#include "tui/model/model.h"

static const unsigned GATE = RUNG_GATE_BASE_TOOLS;

static rung_result *timed(double median_ms)
{
	rung_result *r = rung_model_fake_result("0123456789abcdef0123456789abcdef01234567", median_ms, 1e-6, true, 3);
	r->bench.shared.read = true;
	return r;
}

static void sanitized(rung_result *r, unsigned tools, rung_status st, const char *reason)
{
	r->steps[RUNG_STEP_SANITIZE].status = st;
	snprintf(r->steps[RUNG_STEP_SANITIZE].reason, sizeof(r->steps[0].reason), "%s", reason);
	r->sanitize_tools = tools;
	for (int t = 0; t < RUNG_NSAN_TOOLS; t++)
		if (tools & RUNG_SAN_BIT(t)) {
			r->sanitize_ms[t] = 100 + t;
			r->sanitize_bench_ms[t] = 200 + t;
			r->sanitize_bench[t] = RUNG_SANB_COVERED;
		}
	r->sanitize_bench_limit_s = 60;
}

static void free_rows(rung_vrow *rows, int n)
{
	for (int i = 0; i < n; i++)
		if (rows[i].result) {
			rung_result_clear(rows[i].result);
			free(rows[i].result);
		}
}

static void t_states(void)
{
	rung_result *r = timed(1.0);
	CHECK_INT(rung_gate_of(r, GATE), RUNG_GATE_NOT_SANITIZED);
	CHECK(rung_gate_needs(r, GATE));
	CHECK_INT(rung_gate_of(NULL, GATE), RUNG_GATE_NA);
	/* the explicit --sanitize default (memcheck, racecheck) lacks synccheck */
	sanitized(r, RUNG_SAN_DEFAULT, RUNG_S_OK, "no findings (memcheck, racecheck)");
	CHECK_INT(rung_gate_of(r, GATE), RUNG_GATE_NOT_SANITIZED);
	sanitized(r, GATE, RUNG_S_OK, "no findings (memcheck, racecheck, synccheck)");
	CHECK_INT(rung_gate_of(r, GATE), RUNG_GATE_SANITIZED);
	CHECK(!rung_gate_needs(r, GATE));
	/* initcheck when the spec asks for it */
	rung_spec spec;
	memset(&spec, 0, sizeof(spec));
	CHECK_INT(rung_gate_tools(&spec), GATE);
	spec.sanitize = RUNG_SAN_BIT(RUNG_SAN_INITCHECK);
	CHECK_INT(rung_gate_tools(&spec), GATE | RUNG_SAN_BIT(RUNG_SAN_INITCHECK));
	CHECK_INT(rung_gate_of(r, rung_gate_tools(&spec)), RUNG_GATE_NOT_SANITIZED);
	r->steps[RUNG_STEP_SANITIZE].status = RUNG_S_RUNNING;
	CHECK_INT(rung_gate_of(r, GATE), RUNG_GATE_SANITIZING);
	sanitized(r, GATE, RUNG_S_FAILED, "racecheck: race between read at k.cu:10 and write at k.cu:13 (25776 hazards)");
	CHECK_INT(rung_gate_of(r, GATE), RUNG_GATE_FAILED);
	CHECK(!rung_result_passed(r)); /* a failed run: not passed, never best */
	/* a version that failed its check is no candidate at all */
	rung_result *bad = timed(0.5);
	bad->steps[RUNG_STEP_CHECK].status = RUNG_S_FAILED;
	CHECK_INT(rung_gate_of(bad, GATE), RUNG_GATE_NA);
	/* the JSON names */
	CHECK_STR(rung_gate_name(RUNG_GATE_NOT_SANITIZED), "not-sanitized");
	CHECK_STR(rung_gate_name(RUNG_GATE_UNSANITIZED), "unsanitized");
	CHECK_STR(rung_gate_name(RUNG_NGATE), "?");
	rung_result_clear(r);
	free(r);
	rung_result_clear(bad);
	free(bad);
}

static void t_pick(void)
{
	rung_vrow rows[3];
	memset(rows, 0, sizeof(rows));
	rows[0].result = timed(1.0); /* newest, fastest */
	rows[1].result = timed(2.0);
	rows[2].result = timed(3.0);
	rung_gate_pick p;
	/* nothing sanitized: the fastest, provisional */
	rung_gate_pick_rows(&p, rows, 3, GATE);
	CHECK_INT(p.best, 0);
	CHECK_INT(p.candidate, 0);
	CHECK(p.provisional && !p.pending);
	CHECK_INT(p.best_state, RUNG_GATE_NOT_SANITIZED);
	/* a slower one sanitized: it is best, the fastest is pending */
	sanitized(rows[1].result, GATE, RUNG_S_OK, "no findings");
	rung_gate_pick_rows(&p, rows, 3, GATE);
	CHECK_INT(p.best, 1);
	CHECK_INT(p.candidate, 0);
	CHECK(!p.provisional && p.pending);
	CHECK_INT(p.best_state, RUNG_GATE_SANITIZED);
	CHECK_INT(p.candidate_state, RUNG_GATE_NOT_SANITIZED);
	/* the fastest fails its run: not best, not a candidate */
	sanitized(rows[0].result, GATE, RUNG_S_FAILED, "racecheck: race");
	rung_gate_pick_rows(&p, rows, 3, GATE);
	CHECK_INT(p.best, 1);
	CHECK_INT(p.candidate, 1);
	CHECK(!p.provisional && !p.pending);
	/* the fastest sanitized: best outright */
	sanitized(rows[0].result, GATE, RUNG_S_OK, "no findings");
	rung_gate_pick_rows(&p, rows, 3, GATE);
	CHECK_INT(p.best, 0);
	CHECK(!p.provisional && !p.pending);
	/* none passed at all */
	rung_vrow none[1];
	memset(none, 0, sizeof(none));
	rung_gate_pick_rows(&p, none, 1, GATE);
	CHECK_INT(p.best, -1);
	CHECK_INT(p.candidate, -1);
	free_rows(rows, 3);
}

static void t_describe(void)
{
	rung_result *r = timed(1.0);
	char buf[700];
	rung_gate_describe(buf, sizeof(buf), r, GATE, "no GPU");
	CHECK_STR(buf, "unsanitized (no GPU)");
	setenv("RUNG_COMPUTE_SANITIZER", "none", 1);
	rung_gate_describe(buf, sizeof(buf), r, GATE, NULL);
	CHECK_STR(buf, "unsanitized (no compute-sanitizer)");
	CHECK(rung_gate_unavailable(buf, sizeof(buf)));
	CHECK_STR(buf, "no compute-sanitizer");
	setenv("RUNG_COMPUTE_SANITIZER", "/bin/sh", 1); /* an executable: found */
	CHECK(!rung_gate_unavailable(buf, sizeof(buf)));
	rung_gate_describe(buf, sizeof(buf), r, GATE, NULL);
	CHECK_STR(buf, "not sanitized");
	sanitized(r, GATE, RUNG_S_OK, "no findings");
	rung_gate_describe(buf, sizeof(buf), r, GATE, NULL);
	CHECK_STR(buf, "sanitized (memcheck, racecheck, synccheck; benchmark shape covered)");
	r->sanitize_bench[RUNG_SAN_RACECHECK] = RUNG_SANB_OVER;
	r->sanitize_bench[RUNG_SAN_MEMCHECK] = RUNG_SANB_SAME;
	rung_gate_describe(buf, sizeof(buf), r, GATE, NULL);
	CHECK_STR(buf, "sanitized (memcheck, racecheck, synccheck; racecheck: over the 60 s limit at the benchmark shape "
		       "(not covered there))");
	r->sanitize_bench[RUNG_SAN_SYNCCHECK] = RUNG_SANB_OFF;
	rung_gate_bench_note(buf, sizeof(buf), r);
	CHECK_STR(buf, "racecheck: over the 60 s limit at the benchmark shape (not covered there); synccheck: not run at "
		       "the benchmark shape (limit 0)");
	sanitized(r, GATE, RUNG_S_FAILED, "memcheck: invalid __global__ read");
	rung_gate_describe(buf, sizeof(buf), r, GATE, NULL);
	CHECK_STR(buf, "sanitize failed: memcheck: invalid __global__ read");
	unsetenv("RUNG_COMPUTE_SANITIZER");
	rung_result_clear(r);
	free(r);
}

/* The stop rule's best (app/goal.c) follows the gate: the fastest sanitized
 * version when one is, else the fastest. */
static void t_goal_best(void)
{
	rung_result *slow = timed(2.0), *fast = timed(1.0);
	rung_goal_version v[2];
	memset(v, 0, sizeof(v));
	v[0].r = slow;
	snprintf(v[0].short_id, sizeof(v[0].short_id), "aaaaaaa");
	v[1].r = fast;
	snprintf(v[1].short_id, sizeof(v[1].short_id), "bbbbbbb");
	rung_goal_status s;
	CHECK_INT(rung_goal_compute(&s, NULL, RUNG_DT_F32, v, 2, NULL, NULL), 0);
	CHECK_INT(s.best, 1); /* nothing sanitized: the fastest */
	rung_goal_status_clear(&s);
	sanitized(slow, GATE, RUNG_S_OK, "no findings");
	CHECK_INT(rung_goal_compute(&s, NULL, RUNG_DT_F32, v, 2, NULL, NULL), 0);
	CHECK_INT(s.best, 0); /* the sanitized one */
	rung_goal_status_clear(&s);
	sanitized(fast, GATE, RUNG_S_OK, "no findings");
	CHECK_INT(rung_goal_compute(&s, NULL, RUNG_DT_F32, v, 2, NULL, NULL), 0);
	CHECK_INT(s.best, 1);
	rung_goal_status_clear(&s);
	rung_result_clear(slow);
	free(slow);
	rung_result_clear(fast);
	free(fast);
}

int main(void)
{
	T_RUN(t_states);
	T_RUN(t_pick);
	T_RUN(t_describe);
	T_RUN(t_goal_best);
	return t_done();
}

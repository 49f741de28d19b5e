/* The stop rule (app/goal.h) on stored results: goal met (roof, speedup),
 * the fitting roof (FP32 FMA, tensor), a plateau within the noise, shared and
 * suspect results ignored, the budget, and the person's done verdict and its
 * reopening, read from notes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "gitfix.h"
#include "app/goal.h"
#include "core/roofline_fit.h"
#include "vcs/store.h"
#include "vcs/task_rev.h"

#define FLOPS (2.0 * 4096 * 4096 * 4096)
#define BYTES (4.0 * 3 * 4096 * 4096)

static rung_result *passing(double median_ms, double rse)
{
	rung_result *r = calloc(1, sizeof(*r));
	rung_result_init(r);
	for (int s = RUNG_STEP_COMPILE; s <= RUNG_STEP_BENCH; s++)
		r->steps[s].status = RUNG_S_OK;
	r->env.valid = true;
	snprintf(r->env.arch, sizeof(r->env.arch), "sm_90");
	r->env.sms = 132;
	r->env.sm_clock_mhz = 1980;
	r->env.mem_clock_mhz = 3201;
	r->env.bus_width = 6016;
	r->bench.valid = true;
	r->bench.median = median_ms;
	r->bench.rse_median = rse;
	r->bench.n = 10;
	r->bench.tflops = FLOPS / (median_ms * 1e-3) / 1e12;
	r->bench.tbps = BYTES / (median_ms * 1e-3) / 1e12;
	r->bench.shared.read = true;
	return r;
}

static rung_result *failing(void)
{
	rung_result *r = passing(1.0, 0.001);
	r->steps[RUNG_STEP_CHECK].status = RUNG_S_FAILED;
	r->steps[RUNG_STEP_BENCH].status = RUNG_S_NONE;
	r->bench.valid = false;
	return r;
}

typedef struct {
	rung_goal_version v[16];
	int n;
} ladder;

static void add(ladder *l, rung_result *r)
{
	rung_goal_version *v = &l->v[l->n];
	memset(v, 0, sizeof(*v));
	v->r = r;
	snprintf(v->short_id, sizeof(v->short_id), "v%d", l->n);
	l->n++;
}

static void free_ladder(ladder *l)
{
	for (int i = 0; i < l->n; i++)
		if (l->v[i].r) {
			rung_result_clear((rung_result *)l->v[i].r);
			free((rung_result *)l->v[i].r);
		}
	l->n = 0;
}

/* FP32 FMA on the H200's datasheet: 132 SMs x 128 lanes x 2 x 1.98 GHz. */
static double fp32_floor_ms(void)
{
	return FLOPS / (132.0 * 128 * 2 * 1.98e9) * 1e3;
}

static void test_roof_goal_met(void)
{
	ladder l = {0};
	double f = fp32_floor_ms(); /* 2.05 ms */
	add(&l, passing(10 * f, 0.001));  /* 10% */
	add(&l, passing(2 * f, 0.001));   /* 50% */
	add(&l, failing());
	add(&l, passing(f / 0.86, 0.001)); /* 86% */
	rung_goal_spec g = {.line = 1, .roof = 80, .roof_line = 2};
	rung_goal_status s;
	CHECK_INT(rung_goal_compute(&s, &g, RUNG_DT_F32, l.v, l.n, NULL, NULL), 0);
	CHECK_INT(s.state, RUNG_STOP_GOAL_MET);
	CHECK_STR(s.which, "roof");
	CHECK_INT(s.met_by, 3);
	CHECK_INT(s.counted, 3);
	CHECK_INT(s.evaluated, 4);
	CHECK_INT(s.points[2].kind, RUNG_GP_FAILED);
	CHECK_NEAR(s.roof_pct, 86, 1e-6);
	CHECK(s.roof_lo < 86 && s.roof_hi > 86);
	CHECK_STR(s.roof.name, "FP32");
	CHECK_CONTAINS(s.line, "STOP: goal met: 86% of the FP32 roof (target 80%) by v3, interval 86% to 86%");
	rung_goal_status_clear(&s);

	/* a target out of reach: CONTINUE with the distance */
	g.roof = 90;
	CHECK_INT(rung_goal_compute(&s, &g, RUNG_DT_F32, l.v, l.n, NULL, NULL), 0);
	CHECK_INT(s.state, RUNG_STOP_CONTINUE);
	CHECK_CONTAINS(s.line, "CONTINUE: best 86% of the FP32 roof (target 90%) by v3; 0 versions since the last gain");
	rung_goal_status_clear(&s);

	/* the same without any goal: CONTINUE, and it says so */
	CHECK_INT(rung_goal_compute(&s, NULL, RUNG_DT_F32, l.v, l.n, NULL, NULL), 0);
	CHECK_INT(s.state, RUNG_STOP_CONTINUE);
	CHECK_CONTAINS(s.line, "CONTINUE: no [goal] in rung.ini; best 86% of the FP32 roof by v3");
	rung_goal_status_clear(&s);
	free_ladder(&l);
}

static void test_speedup_goal(void)
{
	ladder l = {0};
	add(&l, passing(40.0, 0.001));
	add(&l, passing(4.0, 0.001));
	add(&l, passing(1.6, 0.001)); /* 25x */
	rung_goal_spec g = {.line = 1, .speedup = 20};
	rung_goal_status s;
	CHECK_INT(rung_goal_compute(&s, &g, RUNG_DT_F32, l.v, l.n, NULL, NULL), 0);
	CHECK_INT(s.state, RUNG_STOP_GOAL_MET);
	CHECK_STR(s.which, "speedup");
	CHECK_INT(s.baseline, 0);
	CHECK_INT(s.met_by, 2);
	CHECK_NEAR(s.speedup, 25, 1e-9);
	CHECK(s.speedup_lo < 25 && s.speedup_hi > 25);
	CHECK_CONTAINS(s.line, "STOP: goal met: 25.0x over the baseline v0 (target 20.0x) by v2");
	rung_goal_status_clear(&s);
	/* the person's baseline is the yardstick: 4.0 / 1.6 = 2.5x */
	l.v[1].baseline = true;
	CHECK_INT(rung_goal_compute(&s, &g, RUNG_DT_F32, l.v, l.n, NULL, NULL), 0);
	CHECK_INT(s.state, RUNG_STOP_CONTINUE);
	CHECK_INT(s.baseline, 1);
	CHECK_NEAR(s.speedup, 2.5, 1e-9);
	CHECK_CONTAINS(s.line, "2.50x over the baseline (target 20.0x)");
	rung_goal_status_clear(&s);
	free_ladder(&l);
}

/* FP32 FMA unless the kernel issues tensor instructions (#28 D-9). */
static void test_fitting_roof(void)
{
	double f = fp32_floor_ms();
	rung_result *r = passing(f / 0.5, 0.001);
	rung_fit_roof roof;
	CHECK_INT(rung_result_tensor(r), -1);
	CHECK_NEAR(rung_result_fit_roof_pct(r, NULL, RUNG_DT_F32, -1, &roof), 50, 1e-6);
	CHECK_STR(roof.name, "FP32");
	/* the profile says the tensor pipe ran: the TF32 roof */
	r->counters = calloc(1, sizeof(*r->counters));
	r->ncounters = 1;
	snprintf(r->counters[0].name, sizeof(r->counters[0].name), "%s",
		 "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active");
	r->counters[0].value = 32;
	CHECK_INT(rung_result_tensor(r), 1);
	double tc = rung_result_fit_roof_pct(r, NULL, RUNG_DT_F32, rung_result_tensor(r), &roof);
	CHECK_STR(roof.name, "TF32 tensor");
	CHECK(tc > 0 && tc < 50);
	/* HFMA2.MMA moves keep the pipe at ~1% in FFMA kernels: not tensor */
	r->counters[0].value = 0.84;
	CHECK_INT(rung_result_tensor(r), 0);
	rung_result_clear(r);
	free(r);
	/* unknown, but faster than FP32 FMA allows: only tensor cores do that */
	r = passing(f / 2, 0.001);
	double p = rung_result_fit_roof_pct(r, NULL, RUNG_DT_F32, -1, &roof);
	CHECK_STR(roof.name, "TF32 tensor");
	CHECK(p > 0 && p < 100);
	/* f64 data: the FP64 FMA roof */
	rung_result_fit_roof_pct(r, NULL, RUNG_DT_F64, 0, &roof);
	CHECK_STR(roof.name, "FP64");
	rung_result_clear(r);
	free(r);
	rung_sass_mix mix;
	memset(&mix, 0, sizeof(mix));
	mix.n[RUNG_MIX_FFMA] = 100;
	CHECK(!rung_mix_tensor(&mix));
	mix.n[RUNG_MIX_HMMA] = 4;
	CHECK(rung_mix_tensor(&mix));
}

/* A plateau: versions within the noise of the best are no gain. */
static void test_plateau_within_noise(void)
{
	ladder l = {0};
	add(&l, passing(10.0, 0.002));
	add(&l, passing(5.0, 0.002));   /* a gain */
	add(&l, passing(4.99, 0.01));   /* 0.2% faster, noise 1%: no gain */
	add(&l, passing(5.03, 0.01));
	add(&l, passing(4.985, 0.01));
	rung_goal_spec g = {.line = 1, .plateau = 3};
	rung_goal_status s;
	CHECK_INT(rung_goal_compute(&s, &g, RUNG_DT_F32, l.v, l.n, NULL, NULL), 0);
	CHECK_INT(s.state, RUNG_STOP_PLATEAU);
	CHECK_INT(s.since_gain, 3);
	CHECK(s.points[1].gain && !s.points[2].gain && !s.points[4].gain);
	CHECK_NEAR(s.points[4].best_ms, 4.985, 1e-12);
	CHECK_CONTAINS(s.line, "STOP: plateau: 3 passing versions in a row without a gain beyond the noise (plateau = 3)");
	rung_goal_status_clear(&s);
	g.plateau = 4;
	CHECK_INT(rung_goal_compute(&s, &g, RUNG_DT_F32, l.v, l.n, NULL, NULL), 0);
	CHECK_INT(s.state, RUNG_STOP_CONTINUE);
	CHECK_CONTAINS(s.line, "3 versions since the last gain (plateau at 4)");
	rung_goal_status_clear(&s);
	/* a real gain resets it: 4.0 ms is 20% faster */
	add(&l, passing(4.0, 0.002));
	g.plateau = 3;
	CHECK_INT(rung_goal_compute(&s, &g, RUNG_DT_F32, l.v, l.n, NULL, NULL), 0);
	CHECK_INT(s.state, RUNG_STOP_CONTINUE);
	CHECK_INT(s.since_gain, 0);
	rung_goal_status_clear(&s);
	free_ladder(&l);
}

/* Shared-GPU and suspect timings never count, however fast. */
static void test_shared_and_suspect_ignored(void)
{
	ladder l = {0};
	double f = fp32_floor_ms();
	add(&l, passing(10 * f, 0.001));
	add(&l, passing(2 * f, 0.001)); /* 50% */
	rung_result *sh = passing(f / 0.95, 0.001);
	rung_gpu_procs_add(&sh->bench.shared, 4242, "python3");
	add(&l, sh);
	rung_result *su = passing(f / 0.9, 0.001);
	rung_result_add_suspect(su, RUNG_SUSPECT_MUTABLE_GLOBAL, "mutable __device__ global 'calls'");
	add(&l, su);
	rung_goal_spec g = {.line = 1, .roof = 80, .plateau = 2};
	rung_goal_status s;
	CHECK_INT(rung_goal_compute(&s, &g, RUNG_DT_F32, l.v, l.n, NULL, NULL), 0);
	CHECK_INT(s.state, RUNG_STOP_CONTINUE);
	CHECK_INT(s.counted, 2);
	CHECK_INT(s.best, 1);
	CHECK_INT(s.since_gain, 0); /* the ignored ones are not "no gain" either */
	CHECK_INT(s.points[2].kind, RUNG_GP_IGNORED);
	CHECK_INT(s.points[3].kind, RUNG_GP_IGNORED);
	CHECK_NEAR(s.roof_pct, 50, 1e-6);
	CHECK_CONTAINS(s.line, "CONTINUE: best 50% of the FP32 roof (target 80%) by v1");
	rung_goal_status_clear(&s);
	free_ladder(&l);
}

static void test_budget(void)
{
	ladder l = {0};
	add(&l, passing(10.0, 0.001));
	add(&l, failing());
	add(&l, NULL); /* not evaluated: not spent */
	add(&l, passing(5.0, 0.001));
	rung_goal_spec g = {.line = 1, .versions = 3};
	rung_goal_status s;
	CHECK_INT(rung_goal_compute(&s, &g, RUNG_DT_F32, l.v, l.n, NULL, NULL), 0);
	CHECK_INT(s.state, RUNG_STOP_BUDGET);
	CHECK_INT(s.evaluated, 3);
	CHECK_CONTAINS(s.line, "STOP: budget spent: 3 of 3 versions evaluated; best");
	rung_goal_status_clear(&s);
	g.versions = 4;
	CHECK_INT(rung_goal_compute(&s, &g, RUNG_DT_F32, l.v, l.n, NULL, NULL), 0);
	CHECK_INT(s.state, RUNG_STOP_CONTINUE);
	CHECK_CONTAINS(s.line, "; 3 of 4 versions evaluated");
	rung_goal_status_clear(&s);
	free_ladder(&l);
}

/* The person's done verdict, read from notes, and reopened. */
static void test_done_and_reopened(void)
{
	rung_note a, b;
	CHECK_INT(rung_note_parse(&a, "- 2026-11-29 22:50 Ada Lovelace: [task-wide] [done] good enough for the paper\n"
				      "- 2026-11-29 22:51 Ada Lovelace: [task-wide] never loosen tolerances\n"), 0);
	snprintf(a.commit, sizeof(a.commit), "%040d", 1);
	CHECK(a.ndirectives == 2 && a.directives[0].task_done && a.directives[0].task_wide && !a.directives[1].task_done);
	CHECK_STR(a.directives[0].text, "good enough for the paper");
	char *f = rung_note_format(&a);
	CHECK_CONTAINS(f, ": [task-wide] [done] good enough for the paper\n");
	free(f);
	const rung_note *notes[2] = {&a, NULL};
	rung_goal_done d;
	rung_goal_done_of_notes(&d, notes, 1);
	CHECK(d.in_force);
	CHECK_STR(d.reason, "good enough for the paper");
	CHECK_STR(d.who, "Ada Lovelace");

	ladder l = {0};
	add(&l, passing(10.0, 0.001));
	rung_goal_spec g = {.line = 1, .roof = 99};
	rung_goal_status s;
	CHECK_INT(rung_goal_compute(&s, &g, RUNG_DT_F32, l.v, l.n, &d, NULL), 0);
	CHECK_INT(s.state, RUNG_STOP_DONE);
	CHECK_STR(s.line, "STOP: done by the person: good enough for the paper (Ada Lovelace)");
	rung_goal_status_clear(&s);

	/* the person closes it: reopened */
	CHECK_INT(rung_note_parse(&b, "x 2026-11-29 22:50 Ada Lovelace: [task-wide] [done] good enough for the paper\n"
				      "  > closed 2026-11-30 09:12 Ada Lovelace: one more try with tensor cores\n"), 0);
	snprintf(b.commit, sizeof(b.commit), "%040d", 2);
	notes[0] = &b;
	rung_goal_done_of_notes(&d, notes, 1);
	CHECK(!d.in_force);
	CHECK_INT(rung_goal_compute(&s, &g, RUNG_DT_F32, l.v, l.n, &d, NULL), 0);
	CHECK_INT(s.state, RUNG_STOP_CONTINUE);
	rung_goal_status_clear(&s);
	/* an agent's ack keeps it in force: only the person reopens */
	rung_note_clear(&b);
	CHECK_INT(rung_note_parse(&b, "x 2026-11-29 22:55 Ada Lovelace: [task-wide] [done] stop here\n"
				      "  > done 2026-11-30 09:12 claude: stopped\n"), 0);
	snprintf(b.commit, sizeof(b.commit), "%040d", 2);
	rung_goal_done_of_notes(&d, notes, 1);
	CHECK(d.in_force);
	/* of two in force, the newer one speaks */
	notes[0] = &a;
	notes[1] = &b;
	rung_goal_done_of_notes(&d, notes, 2);
	CHECK_STR(d.reason, "stop here");
	rung_note_clear(&a);
	rung_note_clear(&b);
	free_ladder(&l);
}

/* Put a live result of rev into the store, by its content (as rung eval does). */
static void put_live(rung_store *st, const rung_vtask *t, const char *rev, double median, bool shared)
{
	rung_source src;
	CHECK_INT(rung_vtask_source(&src, t, rev, NULL), 0);
	char content[65];
	rung_vtask_content(content, t, &src);
	rung_source_clear(&src);
	rung_result *r = passing(median, 0.001);
	rung_result_key(r->key, content, "GPU-1");
	snprintf(r->rev, sizeof(r->rev), "%s", rev);
	snprintf(r->env.uuid, sizeof(r->env.uuid), "GPU-1");
	if (shared)
		rung_gpu_procs_add(&r->bench.shared, 77, "a.out");
	CHECK_INT(rung_store_put(st, r, content, rev), 0);
	rung_result_clear(r);
	free(r);
}

/* The rule on a repository: the spec's [goal], live results from the store,
 * the done verdict from git notes, and its reopening (rung_goal_load). */
static void test_on_stored_results(void)
{
	const char *dir = t_tmpdir();
	char *ini0 = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/rung.ini", NULL);
	char *ref = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/reference.cu", NULL);
	char *k = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/sgemm.cu", NULL);
	CHECK(ini0 && ref && k);
	if (!ini0 || !ref || !k)
		return;
	size_t l = strlen(ini0) + 64, kl = strlen(k) + 16;
	char *ini = malloc(l), *k2 = malloc(kl), *k3 = malloc(kl);
	snprintf(ini, l, "%s\n[goal]\nspeedup = 2.5x\n", ini0);
	snprintf(k2, kl, "%s// v2\n", k);
	snprintf(k3, kl, "%s// v3\n", k);
	git_repository *g = gf_init(dir);
	git_oid c[3];
	const char *ks[3] = {k, k2, k3};
	char h[3][41];
	for (int i = 0; i < 3; i++) {
		gf_commit(&c[i], g, "HEAD", NULL, -1, GF_T0 + 60 * i, "a version",
			  (const char *[]){"t/rung.ini", ini, "t/reference.cu", ref, "t/sgemm.cu", ks[i], NULL});
		gf_hex(h[i], &c[i]);
	}
	rung_repo *r;
	CHECK_INT(rung_repo_open(&r, dir), 0);
	rung_vtask t;
	CHECK_INT(rung_vtask_open(&t, r, "t", NULL), 0);
	rung_store *st;
	CHECK_INT(rung_store_open_repo(&st, r), 0);
	put_live(st, &t, h[0], 3.0, false);
	put_live(st, &t, h[1], 0.5, true); /* 6x, but beside another process */
	rung_store_close(st);
	rung_vtask_clear(&t);

	rung_vctx cx;
	rung_vctx_opts o = {.dir = dir, .task = "t"};
	CHECK_INT(rung_vctx_open(&cx, "test", &o, RUNG_VCTX_TASK | RUNG_VCTX_STORE), 0);
	rung_goal_status s;
	CHECK_INT(rung_goal_load(&s, &cx), 0);
	CHECK_INT(s.state, RUNG_STOP_CONTINUE);
	CHECK(s.has_goal && s.goal.speedup == 2.5);
	CHECK_INT(s.counted, 1);
	CHECK_INT(s.evaluated, 2);
	CHECK(!s.recorded);
	rung_goal_status_clear(&s);
	rung_vctx_close(&cx);

	CHECK_INT(rung_vtask_open(&t, r, "t", NULL), 0);
	CHECK_INT(rung_store_open_repo(&st, r), 0);
	put_live(st, &t, h[2], 1.0, false); /* 3x alone on the GPU */
	rung_store_close(st);
	rung_vtask_clear(&t);
	CHECK_INT(rung_vctx_open(&cx, "test", &o, RUNG_VCTX_TASK | RUNG_VCTX_STORE), 0);
	CHECK_INT(rung_goal_load(&s, &cx), 0);
	CHECK_INT(s.state, RUNG_STOP_GOAL_MET);
	CHECK_STR(s.which, "speedup");
	CHECK_NEAR(s.speedup, 3, 1e-9);
	char want[64];
	snprintf(want, sizeof(want), "by %.7s", h[2]);
	CHECK_CONTAINS(s.line, want);
	rung_goal_status_clear(&s);

	/* the person: done on the newest version, then closed (reopened) */
	CHECK_INT(rung_note_add(r, h[2], RUNG_NOTE_NONE, RUNG_TASK_WIDE_MARK RUNG_TASK_DONE_MARK "ship it", GF_T0 + 600), 0);
	rung_vctx_close(&cx);
	CHECK_INT(rung_vctx_open(&cx, "test", &o, RUNG_VCTX_TASK | RUNG_VCTX_STORE), 0);
	CHECK_INT(rung_goal_load(&s, &cx), 0);
	CHECK_INT(s.state, RUNG_STOP_DONE);
	CHECK_CONTAINS(s.line, "STOP: done by the person: ship it (Ada Lovelace)");
	char id[RUNG_DIRECTIVE_ID_LEN + 1];
	snprintf(id, sizeof(id), "%s", s.done.id);
	rung_goal_status_clear(&s);
	CHECK_INT(rung_note_answer(r, h[2], id, RUNG_ANSWER_CLOSED, h[2], "not yet", GF_T0 + 700), 0);
	rung_vctx_close(&cx);
	CHECK_INT(rung_vctx_open(&cx, "test", &o, RUNG_VCTX_TASK | RUNG_VCTX_STORE), 0);
	CHECK_INT(rung_goal_load(&s, &cx), 0);
	CHECK_INT(s.state, RUNG_STOP_GOAL_MET);
	rung_goal_status_clear(&s);
	rung_vctx_close(&cx);
	rung_repo_free(r);
	git_repository_free(g);
	free(ini0), free(ref), free(k), free(ini), free(k2), free(k3);
	char *out = NULL;
	t_sh(&out, "rm -rf '%s'", dir);
	free(out);
}

int main(void)
{
	T_RUN(test_roof_goal_met);
	T_RUN(test_speedup_goal);
	T_RUN(test_fitting_roof);
	T_RUN(test_plateau_within_noise);
	T_RUN(test_shared_and_suspect_ignored);
	T_RUN(test_budget);
	T_RUN(test_done_and_reopened);
	T_RUN(test_on_stored_results);
	return t_done();
}

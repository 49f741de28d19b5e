/* rung compare [--json] [--budget SEC] [-C DIR] [--task DIR] [--spec-rev REV] A B
 *
 * Times two versions of one task against each other in one worker, interleaved
 * (A B, B A, ...) with an L2 flush before each launch and every launch verified
 * (gpu/worker/compare.c), and prints
 *   FASTER speedup=1.05x [1.04, 1.05] A=15.503ms B=14.772ms n=41 dropped=0 verified=86
 * (the verdict is B relative to A; the speedup is A's median over B's, as the
 * workbench's compare screen says it, and its interval a bootstrap 95% interval
 * of the ratio of medians on the same scale, core/stats.h; --json keeps the
 * ratio B/A). Identical machine code prints
 *   SAME identical machine code
 * without timing. A verified launch that did not match gives no timing verdict:
 *   DISAGREE A and B disagree at timed round 7 (12288 elements of y, first at (1,0), ...): ...
 * and exit 1. Another process on the GPU during the rounds (NVML) gives
 *   SHARED speedup=1.05x [...] ... shared GPU: pid 4242 python3: the timing is not trusted (...)
 * and exit 1, unless --allow-shared (then the verdict, marked). --json prints one object with the same content. A and B are
 * kernel files (or task directories) of the same task; A's rung.ini is used for
 * both. A and B may also be git revisions (HEAD~1 HEAD, a short hash,
 * WORKTREE), read from git (rung_task_load_target).
 *
 * Without a GPU the timing is skipped, and what needs none is printed instead,
 * as the workbench's compare screen shows it: registers, spills and shared
 * memory of each, the SASS instruction mix and the SASS diff (nvdisasm on the
 * CUBINs, gpu/nvdisasm.h; registers renamed and diffed by basic block,
 * rung_sass_diff_listings in app/textdiff.h; --raw-sass: line by line with
 * nvdisasm's register names), then
 *   timing: SKIPPED (no GPU: no CUDA driver found (libcuda.so.1))
 * with exit 4. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app/sanitize_gate.h"
#include "app/session.h"
#include "app/task.h"
#include "app/textdiff.h"
#include "cli/cli.h"
#include "core/err.h"
#include "core/sass.h"
#include "core/stats.h"
#include "gpu/nvdisasm.h"
#include "gpu/worker.h"

/* One line: {"verdict":..., ...}; o is consumed. */
static void print_json(json_t *o)
{
	char *t = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(6));
	if (t)
		printf("%s\n", t);
	free(t);
	json_decref(o);
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* A verdict without timing (SAME identical, FAILED, SKIPPED). */
static void say(bool json, const char *verdict, const char *text)
{
	if (!json) {
		printf("%s %s\n", verdict, text);
		return;
	}
	json_t *o = json_pack("{s:s}", "verdict", verdict);
	if (!strcmp(verdict, "SAME"))
		json_object_set_new(o, "identical", json_true());
	else
		json_object_set_new(o, "reason", json_string(text));
	print_json(o);
}

static void add_verified(json_t *o, const rung_ab *ab)
{
	json_object_set_new(o, "verified", json_integer(ab->verified));
	json_object_set_new(o, "sets", json_integer(ab->sets));
	json_object_set_new(o, "verify_ms", num_or_null(ab->verify_ms));
}

static void say_disagree(bool json, const rung_ab *ab)
{
	if (!json) {
		printf("DISAGREE %s\n", ab->reason);
		return;
	}
	json_t *first = json_array();
	for (int k = 0; k < ab->rank; k++)
		json_array_append_new(first, json_integer(ab->first[k]));
	json_t *o = json_pack("{s:s,s:s,s:i,s:b,s:s,s:s,s:I,s:o}", "verdict", "DISAGREE", "reason", ab->reason, "round",
			      ab->round, "timed", ab->round_timed, "kernel", ab->kernel, "arg", ab->arg, "count",
			      (json_int_t)ab->count, "first", first);
	add_verified(o, ab);
	print_json(o);
}

/* One side of the comparison that needs no GPU. */
typedef struct {
	char name[160];     /* "a1b2c3d sgemm: tile it" or the kernel's path */
	const rung_kinfo *k;
	char *sass;         /* nvdisasm's listing, NULL when unavailable */
	rung_sass_mix mix;
	char sass_err[256]; /* why there is no SASS */
} static_side;

static void side_load(static_side *s, const rung_task *t, const rung_compiled *c)
{
	memset(s, 0, sizeof(*s));
	if (t->rev[0])
		snprintf(s->name, sizeof(s->name), "%s%s%.140s", t->short_rev, t->label ? " " : "", t->label ? t->label : "");
	else
		snprintf(s->name, sizeof(s->name), "%s", t->kernel.path ? t->kernel.path : "?");
	s->k = &c->kinfo;
	if (!c->cubin || rung_sass_from_cubin(&s->sass, c->cubin, c->cubin_len) < 0)
		snprintf(s->sass_err, sizeof(s->sass_err), "%s", c->cubin ? rung_error_last() : "no CUBIN");
	rung_error_clear();
}

static json_t *side_json(const static_side *s)
{
	json_t *o = json_pack("{s:s}", "version", s->name);
	if (s->k->valid) {
		json_object_set_new(o, "regs", json_integer(s->k->regs));
		json_object_set_new(o, "spills", json_integer(s->k->spill_stores + s->k->spill_loads));
		json_object_set_new(o, "smem", json_integer(s->k->smem));
	}
	if (s->sass) {
		json_t *mix = json_object();
		for (int k = 0; k < RUNG_MIX_COUNT; k++)
			if (s->mix.n[k])
				json_object_set_new(mix, rung_mix_name((rung_mix_id)k), json_integer(s->mix.n[k]));
		json_object_set_new(o, "mix", mix);
	}
	return o;
}

static void int_line(const char *name, bool valid, long long a, long long b)
{
	if (!valid) {
		printf("%-16s %8s %8s\n", name, "-", "-");
		return;
	}
	if (a == b)
		printf("%-16s %8lld %8lld\n", name, a, b);
	else
		printf("%-16s %8lld %8lld  %+lld\n", name, a, b, b - a);
}

/* The SASS diff as a unified diff: each block of changes as its deletions, then its additions. */
static void print_diff(const rung_sbs *d)
{
	for (int i = 0; i < d->n;) {
		const rung_diff_row *r = &d->rows[i];
		if (r->kind == RUNG_DIFF_HUNK || r->kind == RUNG_DIFF_SAME) {
			printf(r->kind == RUNG_DIFF_HUNK ? "%s\n" : " %s\n", r->left ? r->left : "");
			i++;
			continue;
		}
		int j = i;
		while (j < d->n && d->rows[j].kind != RUNG_DIFF_HUNK && d->rows[j].kind != RUNG_DIFF_SAME)
			j++;
		for (int k = i; k < j; k++)
			if (d->rows[k].left)
				printf("-%s\n", d->rows[k].left);
		for (int k = i; k < j; k++)
			if (d->rows[k].right)
				printf("+%s\n", d->rows[k].right);
		i = j;
	}
}

/* Without a GPU: what the two versions' compiles tell (o: the JSON answer, or NULL for text). */
static void print_static(json_t *o, const rung_task *ta, const rung_compiled *ka, const rung_task *tb, const rung_compiled *kb,
			 bool raw)
{
	static_side a, b;
	side_load(&a, ta, ka);
	side_load(&b, tb, kb);
	rung_sbs d;
	memset(&d, 0, sizeof(d));
	char diff_err[256] = "";
	if (a.sass && b.sass) {
		if (rung_sass_diff_listings(&d, &a.mix, &b.mix, a.sass, b.sass, raw, 3) < 0)
			snprintf(diff_err, sizeof(diff_err), "%s", rung_error_last());
	} else {
		snprintf(diff_err, sizeof(diff_err), "%s", a.sass ? b.sass_err : a.sass_err);
	}
	if (o) {
		json_object_set_new(o, "a", side_json(&a));
		json_object_set_new(o, "b", side_json(&b));
		if (diff_err[0])
			json_object_set_new(o, "sass_error", json_string(diff_err));
		else
			json_object_set_new(o, "sass_diff", json_pack("{s:s,s:i,s:i,s:i}", "mode", raw ? "raw" : "normalized", "hunks",
								       d.nhunks, "adds", d.adds, "dels", d.dels));
	} else {
		printf("a %s\nb %s\n", a.name, b.name);
		printf("%-16s %8s %8s  %s\n", "", "a", "b", "b vs a");
		bool kv = a.k->valid && b.k->valid;
		int_line("regs", kv, a.k->regs, b.k->regs);
		int_line("spills", kv, (long long)(a.k->spill_stores + a.k->spill_loads),
			 (long long)(b.k->spill_stores + b.k->spill_loads));
		int_line("smem", kv, (long long)a.k->smem, (long long)b.k->smem);
		if (diff_err[0]) {
			printf("SASS: %s\n", diff_err);
		} else {
			printf("instruction mix\n");
			rung_mix_id ids[RUNG_MIX_COUNT];
			int n = rung_mix_present(ids, &a.mix, &b.mix);
			for (int i = 0; i < n; i++) {
				char name[32];
				snprintf(name, sizeof(name), "  %s", rung_mix_name(ids[i]));
				int_line(name, true, (long long)a.mix.n[ids[i]], (long long)b.mix.n[ids[i]]);
			}
			printf("SASS diff a -> b (%s): %d hunk%s, +%d -%d\n",
			       raw ? "raw, --raw-sass" : "normalized by basic block; --raw-sass for the raw diff", d.nhunks,
			       d.nhunks == 1 ? "" : "s", d.adds, d.dels);
			print_diff(&d);
		}
	}
	rung_sbs_clear(&d);
	free(a.sass);
	free(b.sass);
}

typedef struct {
	bool json;
	double budget;
	bool allow_shared;
	bool raw_sass;
	bool stored, any_gpu;
	rung_task_where where;
} compare_opts;

/* Revision rev's row among rows (a prefix of its commit id, or WORKTREE). */
static const rung_vrow *find_row(const rung_vrow *rows, int n, rung_vctx *c, const char *rev)
{
	rung_version v;
	if (rung_version_at(&v, c->repo, rev, c->task.kernel_path) < 0)
		return NULL;
	for (int i = 0; i < n; i++)
		if (!strcmp(rows[i].v.id, v.id))
			return &rows[i];
	rung_error_set(RUNG_EINVAL, "%s is not a version of the task %s", rev, c->task.kernel_path);
	return NULL;
}

/* --stored: the verdict from the two stored results' bench samples, as the
 * workbench's compare screen gives it; nothing runs. Results timed on
 * different GPU models are refused (OTHER_GPU, exit 1) unless --any-gpu. */
static int compare_stored(const compare_opts *co, const char *ra, const char *rb)
{
	rung_vctx c;
	int rc = rung_cli_vctx_open(&c, "compare", &co->where, RUNG_VCTX_TASK | RUNG_VCTX_STORE);
	if (rc)
		return rc;
	rung_vrow *rows = NULL;
	int n = 0, code = RUNG_EXIT_OK;
	char why[1024];
	if (rung_vctx_rows(&rows, &n, &c, NULL, 0) < 0) {
		fprintf(stderr, "rung compare: %s\n", rung_error_last());
		rung_vctx_close(&c);
		return RUNG_EXIT_INTERNAL;
	}
	const rung_vrow *A = find_row(rows, n, &c, ra), *B = A ? find_row(rows, n, &c, rb) : NULL;
	if (!A || !B) {
		fprintf(stderr, "rung compare: %s\n", rung_error_last());
		code = RUNG_EXIT_USAGE;
		goto done;
	}
	const rung_vrow *side[2] = {A, B};
	for (int k = 0; k < 2; k++) {
		const rung_result *r = side[k]->result;
		if (!r || !r->key[0]) {
			snprintf(why, sizeof(why), "%s (%s) has no stored result: rung eval %s first", k ? "B" : "A",
				 side[k]->v.short_id, side[k]->v.short_id);
			say(co->json, "FAILED", why);
			code = RUNG_EXIT_FAIL;
			goto done;
		}
		if (!r->bench.valid || r->bench.n < 2 || !r->bench.samples) {
			snprintf(why, sizeof(why), "%s (%s) has no timing to compare (bench %s%s%s)", k ? "B" : "A",
				 side[k]->v.short_id, rung_status_name(r->steps[RUNG_STEP_BENCH].status),
				 r->steps[RUNG_STEP_BENCH].reason[0] ? ": " : "", r->steps[RUNG_STEP_BENCH].reason);
			say(co->json, "FAILED", why);
			code = RUNG_EXIT_FAIL;
			goto done;
		}
	}
	const rung_result *a = A->result, *b = B->result;
	char other[512];
	bool clash = rung_results_other_gpu(a, b, other, sizeof(other));
	if (clash && !co->any_gpu) {
		if (co->json) {
			json_t *o = json_pack("{s:s,s:s,s:s,s:s}", "verdict", "OTHER_GPU", "gpu_a", a->env.gpu, "gpu_b",
					      b->env.gpu, "reason", other);
			print_json(o);
		} else {
			printf("OTHER_GPU %s: timings of different GPU models are not compared (--any-gpu compares them "
			       "anyway)\n",
			       other);
		}
		code = RUNG_EXIT_FAIL;
		goto done;
	}
	rung_compare cmp;
	if (rung_compare_samples(&cmp, a->bench.samples, a->bench.n, b->bench.samples, b->bench.n, 0, 0x5eed)) {
		snprintf(why, sizeof(why), "the stored samples give no comparison: %s", rung_error_last());
		say(co->json, "FAILED", why);
		code = RUNG_EXIT_FAIL;
		goto done;
	}
	rung_gpu_procs both = a->bench.shared;
	for (int k = 0; k < b->bench.shared.n; k++)
		rung_gpu_procs_add(&both, b->bench.shared.p[k].pid, b->bench.shared.p[k].name);
	both.more += b->bench.shared.more;
	char shared[512];
	rung_gpu_procs_str(shared, sizeof(shared), &both);
	bool held = shared[0] && !co->allow_shared;
	const char *verdict = held ? "SHARED" : rung_cmp_verdict_name(cmp.verdict);
	if (held)
		code = RUNG_EXIT_FAIL;
	if (co->json) {
		json_t *o = json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:i,s:i,s:s,s:b,s:s,s:s}", "verdict", verdict, "ratio",
				      num_or_null(cmp.ratio), "lo", num_or_null(cmp.lo), "hi", num_or_null(cmp.hi), "median_a",
				      num_or_null(cmp.median_a), "median_b", num_or_null(cmp.median_b), "n_a", a->bench.n,
				      "n_b", b->bench.n, "source", "stored", "other_gpu", clash, "gpu_a", a->env.gpu, "gpu_b",
				      b->env.gpu);
		json_object_set_new(o, "shared", rung_gpu_procs_to_json(&both));
		if (held)
			json_object_set_new(o, "timing_verdict", json_string(rung_cmp_verdict_name(cmp.verdict)));
		print_json(o);
		goto done;
	}
	printf("%s B/A=%.3f [%.3f, %.3f] A=%.3fms B=%.3fms n=%d,%d stored", verdict, cmp.ratio, cmp.lo, cmp.hi,
	       cmp.median_a, cmp.median_b, a->bench.n, b->bench.n);
	if (clash)
		printf(" other GPU: %s", other);
	if (held)
		printf(" %s: the timing is not trusted (it would say %s; --allow-shared gives that verdict)", shared,
		       rung_cmp_verdict_name(cmp.verdict));
	else if (shared[0])
		printf(" %s", shared);
	printf("\n");
done:
	rung_vrows_free(rows, n);
	rung_vctx_close(&c);
	return code;
}

static const rung_opt_spec compare_specs[] = {
	{RUNG_OPT_BOOL(compare_opts, json), .name = "json", .help = "print one JSON object instead of the line"},
	{RUNG_OPT_DBL(compare_opts, budget, 0, 3600), .flags = RUNG_OPTF_GT, .name = "budget", .value = "SEC",
	 .help = "time budget of the interleaved rounds (default 2)"},
	{RUNG_OPT_BOOL(compare_opts, allow_shared), .name = "allow-shared",
	 .help = "give the timing verdict even when another process was on the GPU (else SHARED)"},
	{RUNG_OPT_BOOL(compare_opts, stored), .name = "stored",
	 .help = "compare the stored results of revisions A and B (their bench samples) instead of timing them now"},
	{RUNG_OPT_BOOL(compare_opts, any_gpu), .name = "any-gpu",
	 .help = "with --stored: compare results timed on different GPU models (else OTHER_GPU, exit 1)"},
	{RUNG_OPT_BOOL(compare_opts, raw_sass), .name = "raw-sass",
	 .help = "the SASS diff line by line with nvdisasm's register names (default: normalized, by basic block)"},
	{RUNG_OPT_SUBTABLE(compare_opts, where, rung_vctx_opt_specs)},
	{0}};
const rung_opt_table rung_opts_compare = {.cmd = "compare", .args = "A B", .max_args = 2,
					  .opts = compare_specs};

int rung_cmd_compare(int argc, char **argv)
{
	compare_opts co = {.budget = 2.0};
	int prc, nargs;
	if (rung_opts_parse(&prc, &rung_opts_compare, &co, argc, argv, &nargs))
		return prc;
	if (nargs != 2) {
		rung_cli_error("compare", RUNG_EXIT_USAGE, "needs two versions, A and B");
		return rung_cli_usage("compare", 1);
	}
	if (co.any_gpu && !co.stored) {
		fprintf(stderr, "rung compare: --any-gpu goes with --stored (timing now uses one GPU)\n");
		return RUNG_EXIT_USAGE;
	}
	if (co.stored)
		return compare_stored(&co, argv[1], argv[2]);
	double budget = co.budget;
	bool json = co.json;
	const char *targets[2] = {argv[1], argv[2]};
	rung_task_where where = co.where;
	rung_task ta, tb;
	memset(&tb, 0, sizeof(tb));
	int rc = rung_cli_task_load(&ta, "compare", targets[0], &where);
	if (rc) {
		rung_task_clear(&ta);
		return rc;
	}
	if ((rc = rung_cli_task_load(&tb, "compare", targets[1], &where))) {
		rung_task_clear(&ta);
		rung_task_clear(&tb);
		return rc;
	}
	rung_compiled ka, kb;
	memset(&ka, 0, sizeof(ka));
	memset(&kb, 0, sizeof(kb));
	int code = RUNG_EXIT_OK;
	rung_worker *w = NULL;
	rung_ab ab;
	memset(&ab, 0, sizeof(ab));
	char why[1024];
	if (rung_task_compile(&ka, &ta, false)) {
		snprintf(why, sizeof(why), "A does not compile: %s", ka.error[0] ? ka.error : rung_error_last());
		say(json, "FAILED", why);
		code = RUNG_EXIT_FAIL;
		goto done;
	}
	if (rung_task_compile(&kb, &tb, false)) {
		snprintf(why, sizeof(why), "B does not compile: %s", kb.error[0] ? kb.error : rung_error_last());
		say(json, "FAILED", why);
		code = RUNG_EXIT_FAIL;
		goto done;
	}
	if (rung_worker_open(&w, NULL)) {
		code = RUNG_EXIT_INTERNAL;
		goto done;
	}
	rung_compare_launch la = {ta.kernel.src, &ta.launch, ta.kernel.path}, lb = {tb.kernel.src, &tb.launch, tb.kernel.path};
	if (rung_compare_versions_l(&ab, w, ta.spec, &la, &ka, &lb, &kb, budget)) {
		fprintf(stderr, "rung compare: %s\n", rung_error_last());
		code = RUNG_EXIT_INTERNAL;
		goto done;
	}
	if (ab.identical) {
		say(json, "SAME", "identical machine code");
		goto done;
	}
	if (ab.failed && ab.skipped) {
		/* no GPU: what the compiles tell, and the timing marked skipped */
		if (json) {
			json_t *o = json_pack("{s:s,s:s}", "verdict", "SKIPPED", "reason", ab.reason);
			print_static(o, &ta, &ka, &tb, &kb, co.raw_sass);
			print_json(o);
		} else {
			print_static(NULL, &ta, &ka, &tb, &kb, co.raw_sass);
			printf("timing: SKIPPED (no GPU: %s)\n", ab.reason);
		}
		code = RUNG_EXIT_NOGPU;
		goto done;
	}
	if (ab.failed) {
		say(json, "FAILED", ab.reason);
		code = RUNG_EXIT_FAIL;
		goto done;
	}
	if (ab.disagree) { /* a verified launch did not match: no timing verdict */
		say_disagree(json, &ab);
		code = RUNG_EXIT_FAIL;
		goto done;
	}
	rung_compare cmp;
	if (ab.n < 2 || rung_compare_samples(&cmp, ab.a, ab.n, ab.b, ab.n, 0, 0x5eed)) {
		snprintf(why, sizeof(why), "too few samples (%d, %d dropped under 75%% of the max SM clock)", ab.n,
			 ab.dropped);
		say(json, "FAILED", why);
		code = RUNG_EXIT_FAIL;
		goto done;
	}
	/* the side called faster is sanitized first: never recommended before it
	 * passed the sanitizer (app/sanitize_gate.h); its state goes with the verdict */
	rung_result gr;
	rung_result_init(&gr);
	rung_gate_state gstate = RUNG_GATE_NA;
	char gwhy[512] = "", gdesc[800] = "";
	const char *gside = cmp.verdict == RUNG_CMP_FASTER ? "B" : cmp.verdict == RUNG_CMP_SLOWER ? "A" : NULL;
	if (gside) {
		const rung_task *ft = gside[0] == 'B' ? &tb : &ta;
		rung_store *gst = NULL;
		if (ft->repo && rung_store_open_repo(&gst, ft->repo) < 0) {
			rung_error_clear();
			gst = NULL;
		}
		rung_evaluator gev;
		memset(&gev, 0, sizeof(gev));
		gev.w = w; /* borrowed: the device as compare's worker sees it */
		gev.store = gst;
		if (!json)
			fprintf(stderr, "rung compare: sanitizing %s (called faster) before the verdict is given\n", gside);
		rung_result_clear(&gr);
		if (rung_gate_task(&gr, &gstate, &gev, ft, NULL, NULL, gwhy, sizeof(gwhy)) < 0) {
			fprintf(stderr, "rung compare: sanitize %s: %s\n", gside, rung_error_last());
			rung_error_clear();
			gstate = RUNG_GATE_UNSANITIZED;
			snprintf(gwhy, sizeof(gwhy), "the run could not be made");
		}
		rung_store_close(gst);
		if (gstate == RUNG_GATE_UNSANITIZED)
			snprintf(gdesc, sizeof(gdesc), "unsanitized (%s): the verdict is provisional", gwhy);
		else if (gstate == RUNG_GATE_FAILED)
			snprintf(gdesc, sizeof(gdesc), "sanitize FAILED: %s: %s is not recommended",
				 gr.steps[RUNG_STEP_SANITIZE].reason, gside);
		else
			rung_gate_describe(gdesc, sizeof(gdesc), &gr, rung_gate_tools(ft->spec), NULL);
		if (gstate == RUNG_GATE_FAILED)
			code = RUNG_EXIT_FAIL;
	}
	/* another process on the GPU: the timing is not trusted, no verdict unless asked */
	char shared[512];
	rung_gpu_procs_str(shared, sizeof(shared), &ab.shared);
	bool held = shared[0] && !co.allow_shared;
	const char *verdict = held ? "SHARED" : rung_cmp_verdict_name(cmp.verdict);
	if (held)
		code = RUNG_EXIT_FAIL;
	if (json) {
		json_t *o = json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:i,s:i,s:s,s:s}", "verdict",
				      verdict, "ratio", num_or_null(cmp.ratio), "lo",
				      num_or_null(cmp.lo), "hi", num_or_null(cmp.hi), "median_a", num_or_null(cmp.median_a),
				      "median_b", num_or_null(cmp.median_b), "n", ab.n, "dropped", ab.dropped, "method",
				      ab.method, "order", "alternate");
		add_verified(o, &ab);
		json_object_set_new(o, "shared", rung_gpu_procs_to_json(&ab.shared));
		if (held)
			json_object_set_new(o, "timing_verdict", json_string(rung_cmp_verdict_name(cmp.verdict)));
		if (gside)
			json_object_set_new(o, "sanitize",
					    json_pack("{s:s,s:s,s:s}", "version", gside[0] == 'B' ? "b" : "a", "state",
						      rung_gate_name(gstate), "detail", gdesc));
		print_json(o);
		rung_result_clear(&gr);
		goto done;
	}
	/* B's speedup over A in the form every screen uses ("2.43x [2.41, 2.45]",
	 * rung_fmt_compare_speedup, core/stats.h); --json keeps the ratio B/A */
	char sp[96];
	rung_fmt_compare_speedup(sp, sizeof(sp), &cmp, false);
	printf("%s speedup=%s A=%.3fms B=%.3fms n=%d dropped=%d verified=%d%s%s%s",
	       verdict, sp, cmp.median_a, cmp.median_b, ab.n,
	       ab.dropped, ab.verified, ab.sets == 1 ? " sets=1" : "", strcmp(ab.method, "cupti-activity") ? " method=" : "",
	       strcmp(ab.method, "cupti-activity") ? ab.method : "");
	if (held)
		printf(" %s: the timing is not trusted (it would say %s; --allow-shared gives that verdict)", shared,
		       rung_cmp_verdict_name(cmp.verdict));
	else if (shared[0])
		printf(" %s", shared);
	printf("\n");
	if (gside)
		printf("sanitize %s: %s\n", gside, gdesc);
	rung_result_clear(&gr);
done:
	rung_ab_clear(&ab);
	rung_worker_detach(w);
	rung_compiled_clear(&ka);
	rung_compiled_clear(&kb);
	rung_task_clear(&ta);
	rung_task_clear(&tb);
	return code;
}

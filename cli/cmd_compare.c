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
 * with exit 4. The comparison is app/compare.c's (rung_compare_run, and
 * rung_compare_to_json for --json and the MCP compare tool); this file prints it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app/compare.h"
#include "app/sanitize_gate.h"
#include "app/session.h"
#include "app/task.h"
#include "app/textdiff.h"
#include "cli/views.h"
#include "cli/cli.h"
#include "core/err.h"
#include "core/sass.h"
#include "core/stats.h"
#include "gpu/nvdisasm.h"
#include "gpu/worker.h"

/* One line: {"verdict":..., ...}; o is consumed. */
static void print_json(json_t *o)
{
	char *t = o ? json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(6)) : NULL;
	if (t)
		printf("%s\n", t);
	free(t);
	json_decref(o);
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

/* Without a GPU: what the two versions' compiles tell. */
static void print_static(const rung_compare_result *r)
{
	const rung_compare_side *a = &r->a, *b = &r->b;
	printf("a %s\nb %s\n", a->name, b->name);
	printf("%-16s %8s %8s  %s\n", "", "a", "b", "b vs a");
	bool kv = a->k->valid && b->k->valid;
	int_line("regs", kv, a->k->regs, b->k->regs);
	int_line("spills", kv, (long long)(a->k->spill_stores + a->k->spill_loads),
		 (long long)(b->k->spill_stores + b->k->spill_loads));
	int_line("smem", kv, (long long)a->k->smem, (long long)b->k->smem);
	if (r->diff_err[0]) {
		printf("SASS: %s\n", r->diff_err);
		return;
	}
	printf("instruction mix\n");
	rung_mix_id ids[RUNG_MIX_COUNT];
	int n = rung_mix_present(ids, &a->mix, &b->mix);
	for (int i = 0; i < n; i++) {
		char name[32];
		snprintf(name, sizeof(name), "  %s", rung_mix_name(ids[i]));
		int_line(name, true, (long long)a->mix.n[ids[i]], (long long)b->mix.n[ids[i]]);
	}
	printf("SASS diff a -> b (%s): %d hunk%s, +%d -%d\n",
	       r->raw ? "raw, --raw-sass" : "normalized by basic block; --raw-sass for the raw diff", r->diff.nhunks,
	       r->diff.nhunks == 1 ? "" : "s", r->diff.adds, r->diff.dels);
	print_diff(&r->diff);
}

/* The text of a comparison: its line (or the static table and the skipped timing). */
static void print_text(const rung_compare_result *r)
{
	const rung_ab *ab = &r->ab;
	const rung_compare *cmp = &r->cmp;
	const char *verdict = rung_compare_verdict(r);
	switch (r->kind) {
	case RUNG_COMPARE_SAME:
	case RUNG_COMPARE_FAILED:
		printf("%s %s\n", verdict, r->reason);
		return;
	case RUNG_COMPARE_SKIPPED:
		print_static(r);
		printf("timing: SKIPPED (no GPU: %s)\n", ab->reason);
		return;
	case RUNG_COMPARE_DISAGREE:
		printf("DISAGREE %s\n", ab->reason);
		return;
	case RUNG_COMPARE_OTHER_GPU:
		printf("OTHER_GPU %s: timings of different GPU models are not compared (--any-gpu compares them anyway)\n",
		       r->other);
		return;
	default:
		break;
	}
	if (r->stored) {
		printf("%s B/A=%.3f [%.3f, %.3f] A=%.3fms B=%.3fms n=%d,%d stored", verdict, cmp->ratio, cmp->lo, cmp->hi,
		       cmp->median_a, cmp->median_b, r->n_a, r->n_b);
		if (r->other_gpu)
			printf(" other GPU: %s", r->other);
	} else {
		/* B's speedup over A in the form every screen uses ("2.43x [2.41, 2.45]",
		 * rung_fmt_compare_speedup, core/stats.h); --json keeps the ratio B/A */
		char sp[96];
		rung_fmt_compare_speedup(sp, sizeof(sp), cmp, false);
		printf("%s speedup=%s A=%.3fms B=%.3fms n=%d dropped=%d verified=%d%s%s%s", verdict, sp, cmp->median_a,
		       cmp->median_b, ab->n, ab->dropped, ab->verified, ab->sets == 1 ? " sets=1" : "",
		       strcmp(ab->method, "cupti-activity") ? " method=" : "",
		       strcmp(ab->method, "cupti-activity") ? ab->method : "");
	}
	if (r->held)
		printf(" %s: the timing is not trusted (it would say %s; --allow-shared gives that verdict)", r->shared,
		       rung_cmp_verdict_name(cmp->verdict));
	else if (r->shared[0])
		printf(" %s", r->shared);
	printf("\n");
	if (r->gate_side)
		printf("sanitize %s: %s\n", r->gate_side, r->gate_detail);
}

int rung_cli_compare_exit(const rung_compare_result *r)
{
	switch (r->kind) {
	case RUNG_COMPARE_SAME: return RUNG_EXIT_OK;
	case RUNG_COMPARE_SKIPPED: return RUNG_EXIT_NOGPU;
	case RUNG_COMPARE_FAILED:
	case RUNG_COMPARE_OTHER_GPU:
	case RUNG_COMPARE_DISAGREE: return RUNG_EXIT_FAIL;
	default: return r->held || r->gate_state == RUNG_GATE_FAILED ? RUNG_EXIT_FAIL : RUNG_EXIT_OK;
	}
}

typedef struct {
	bool json;
	double budget;
	bool allow_shared;
	bool raw_sass;
	bool stored, any_gpu;
	rung_task_where where;
} compare_opts;

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

/* "sanitizing B (called faster) ...": the run takes a while (the text form only). */
static void on_sanitize(void *ud, const char *side)
{
	fprintf((FILE *)ud, "rung compare: sanitizing %s (called faster) before the verdict is given\n", side);
}

/* Loads A and B where w says and compares them (app/compare.h): 0 with *r
 * filled, or the exit code after its message on err (a failed sanitize run
 * of the faster side is said there too). */
static int compare_two(FILE *err, rung_compare_result *r, const compare_opts *co, const rung_task_where *where,
		       const char *a, const char *b, bool say_sanitize)
{
	memset(r, 0, sizeof(*r));
	if (co->stored) { /* the stored results' samples: nothing runs */
		rung_vctx c;
		int rc = rung_cli_vctx_open_to(err, &c, "compare", where, RUNG_VCTX_TASK | RUNG_VCTX_STORE);
		if (rc)
			return rc;
		int e = rung_compare_stored(r, &c, a, b, co->allow_shared, co->any_gpu);
		if (e < 0) {
			fprintf(err, "rung compare: %s\n", rung_error_last());
			rc = e == RUNG_EIO ? RUNG_EXIT_INTERNAL : RUNG_EXIT_USAGE;
		}
		rung_vctx_close(&c);
		return rc;
	}
	rung_task ta, tb;
	memset(&tb, 0, sizeof(tb));
	int rc = rung_cli_task_load_to(err, &ta, "compare", a, where);
	if (!rc)
		rc = rung_cli_task_load_to(err, &tb, "compare", b, where);
	if (!rc && rung_compare_run(r, &(rung_compare_req){.a = &ta, .b = &tb, .budget = co->budget,
							    .allow_shared = co->allow_shared, .raw_sass = co->raw_sass,
							    .on_sanitize = say_sanitize ? on_sanitize : NULL, .ud = err}) < 0) {
		if (r->error[0])
			fprintf(err, "rung compare: %s\n", r->error);
		rc = RUNG_EXIT_INTERNAL;
	}
	if (!rc && r->gate_error[0])
		fprintf(err, "rung compare: sanitize %s: %s\n", r->gate_side, r->gate_error);
	rung_task_clear(&ta);
	rung_task_clear(&tb);
	return rc;
}

int rung_cli_compare_run(FILE *err, rung_compare_result *r, const rung_task_where *where, const char *a, const char *b,
			 const char *budget, bool allow_shared, bool stored, bool any_gpu)
{
	memset(r, 0, sizeof(*r));
	compare_opts co = {.budget = 2.0, .allow_shared = allow_shared, .stored = stored, .any_gpu = any_gpu};
	if (any_gpu && !stored) {
		fprintf(err, "rung compare: --any-gpu goes with --stored (timing now uses one GPU)\n");
		return RUNG_EXIT_USAGE;
	}
	if (budget && rung_opts_set(err, &rung_opts_compare, &co, "budget", budget) < 0)
		return RUNG_EXIT_USAGE;
	return compare_two(err, r, &co, where, a, b, false); /* as --json: no "sanitizing" line */
}

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
	rung_task_where where = co.where;
	rung_compare_result r;
	int code = compare_two(stderr, &r, &co, &where, argv[1], argv[2], !co.json);
	if (!code) {
		if (co.json)
			print_json(rung_compare_to_json(&r));
		else
			print_text(&r);
		code = rung_cli_compare_exit(&r);
	}
	rung_compare_result_clear(&r);
	return code;
}

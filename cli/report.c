/* How the command line shows results (cli/report.h). */
#include "cli/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/expr.h"
#include "core/metric_table.h"
#include "core/inert.h"
#include "core/roofline_guard.h"
#include "core/timing.h"
#include "gpu/sanitize.h"
#include "app/sanitize_gate.h"
#include "cli/cli.h"
#include "core/sass.h"
#include "gpu/nvdisasm.h"
#include "app/suspects.h"

void rung_cli_progress(void *ud, rung_step_id step, double frac, const char *msg)
{
	(void)ud;
	if (step == RUNG_STEP_COMPILE || !isatty(STDERR_FILENO))
		return;
	rung_cli_tty_status("[%s] %3.0f%% %s", rung_step_name(step), 100 * (isfinite(frac) ? frac : 0), msg ? msg : "");
}

void rung_cli_progress_clear(void)
{
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(rung_cli_tty_stderr(), "\r\033[K");
	fflush(rung_cli_tty_stderr());
}

int rung_gpu_exit_code(const rung_result *r, rung_step_id last)
{
	int code = RUNG_EXIT_OK;
	for (int s = RUNG_STEP_RUN; s <= (int)last; s++) {
		const rung_step *st = &r->steps[s];
		if (st->status == RUNG_S_FAILED) {
			if (st->cause == RUNG_CAUSE_REFERENCE)
				return RUNG_EXIT_SPEC;
			code = RUNG_EXIT_FAIL;
		} else if (st->status == RUNG_S_SKIPPED && s == RUNG_STEP_RUN) {
			code = RUNG_EXIT_NOGPU;
		}
	}
	if (r->impossible) /* faster than the roofline: a verdict of its own, never a pass */
		code = RUNG_EXIT_FAIL;
	return code;
}

int rung_sanitize_exit_code(const rung_result *r)
{
	const rung_step *st = &r->steps[RUNG_STEP_SANITIZE];
	if (st->status == RUNG_S_FAILED)
		return st->cause == RUNG_CAUSE_REFERENCE ? RUNG_EXIT_SPEC : RUNG_EXIT_FAIL;
	if (st->status == RUNG_S_SKIPPED)
		return RUNG_EXIT_NOGPU;
	return RUNG_EXIT_OK;
}

/* "(4096,4096)": the first output's shape at the benchmark dims. */
static void output_shape(char *buf, size_t len, const rung_spec *spec, const rung_dimset *ds)
{
	buf[0] = 0;
	for (int i = 0; spec && i < spec->nargs; i++) {
		const rung_arg *a = &spec->args[i];
		if (a->kind != RUNG_ARG_OUTPUT && a->kind != RUNG_ARG_INOUT)
			continue;
		size_t n = (size_t)snprintf(buf, len, "(");
		for (int d = 0; d < a->rank && n < len; d++) {
			int64_t v = 0;
			if (rung_expr_eval(&v, a->shape[d].text, ds))
				v = -1;
			n += (size_t)snprintf(buf + n, len - n, "%s%lld", d ? "," : "", (long long)v);
		}
		if (n < len)
			snprintf(buf + n, len - n, ")");
		return;
	}
}

static void print_check_ok(FILE *f, const rung_result *r)
{
	/* check sets x seeds, plus the benchmark shape with the first seed, plus the
	 * check sets once per further input distribution (docs/CHECKS.md) */
	char in[96] = "";
	if (r->ninputs > 1) {
		char names[80];
		rung_result_inputs_str(names, sizeof(names), r);
		snprintf(in, sizeof(in), " (inputs %s)", names);
	}
	int runs = rung_result_runs(r);
	fprintf(f, "[check] ok %d shape%s, %d run%s%s", r->nshapes, r->nshapes == 1 ? "" : "s", runs, runs == 1 ? "" : "s",
		in);
	for (int k = 0; k < RUNG_NMETRICS; k++) { /* the worst of each (core/metric_table.h) */
		const rung_metric_info *mi = &rung_metrics[k];
		double w = mi->check ? rung_metric_worst(r, (rung_metric_id)k) : NAN;
		char v[48];
		if (!isnan(w)) /* absent from every output (an integer output's ULPs): left out */
			fprintf(f, " %s=%s", mi->check, rung_metric_str(v, sizeof(v), mi->check_fmt, w, "nan"));
	}
	if (r->nondet_elements > 0) /* declared deterministic = false: reported, not failed */
		fprintf(f, " nondeterministic=%lld elements (max |diff| %.2g)", (long long)r->nondet_elements,
			r->nondet_max_abs);
	fprintf(f, "\n");
}

static void print_bench_ok(FILE *f, const rung_result *r)
{
	const rung_bench *b = &r->bench;
	if (r->impossible) {
		fprintf(f, "[bench] IMPOSSIBLE median=%.4gms below the roofline floor %.4gms (%.0f%% of it): faster than the roofline"
			   " (the timing is wrong or the kernel skips work that [roofline] says it must do)\n",
			b->median, r->floor_ms, 100 * b->median / r->floor_ms);
		return;
	}
	fprintf(f, "[bench] ok median=%.3fms \xc2\xb1%.2f%% n=%d dropped=%d", b->median, 100 * b->rse_median, b->n,
		b->dropped);
	if (b->verified > 0)
		fprintf(f, " verified=%d/%d sets=%d", b->verified, b->verified, b->sets);
	if (isfinite(b->clock_mhz))
		fprintf(f, " clock=%.0fMHz", b->clock_mhz);
	if (isfinite(b->tflops))
		fprintf(f, " %.2fTFLOP/s", b->tflops);
	if (isfinite(b->tbps))
		fprintf(f, " %.2fTB/s", b->tbps);
	double roof = rung_result_roof_pct(r);
	if (isfinite(roof))
		fprintf(f, " roof=%.0f%%", roof);
	if (!b->noise_ok)
		fprintf(f, " noisy");
	if (strcmp(b->method, "cupti-activity") != 0)
		fprintf(f, " method=%s", b->method);
	if (isfinite(b->record_offset)) /* the records less their launch floor (core/calib.h) */
		fprintf(f, " records=%.4fms floor=%.2fus", b->record_median, b->record_offset * 1e3);
	else if (isfinite(b->record_median)) /* short kernel: the profiler's figure, the records' beside it */
		fprintf(f, " records=%.3fms", b->record_median);
	else if (b->calibration[0]) /* records as they are, and why */
		fprintf(f, " uncalibrated");
	char shared[512];
	rung_gpu_procs_str(shared, sizeof(shared), &b->shared);
	if (shared[0]) /* another process timed beside it (NVML) */
		fprintf(f, " %s", shared);
	fprintf(f, "\n");
}

static void print_sanitize(FILE *f, const rung_result *r)
{
	const rung_step *st = &r->steps[RUNG_STEP_SANITIZE];
	fprintf(f, "[sanitize] %s%s%s\n", rung_status_name(st->status), st->reason[0] ? " " : "", st->reason);
	if (st->status == RUNG_S_OK || st->status == RUNG_S_FAILED) {
		/* its reach and its cost, tool by tool (docs/CHECKS.md "At the benchmark shape") */
		char note[600], cost[600];
		rung_gate_bench_note(note, sizeof(note), r);
		if (note[0])
			fprintf(f, "[sanitize]   benchmark shape: %s\n", note);
		size_t o = 0;
		cost[0] = 0;
		for (int t = 0; t < RUNG_NSAN_TOOLS && o < sizeof(cost); t++) {
			if (!(r->sanitize_tools & RUNG_SAN_BIT(t)) || !(r->sanitize_ms[t] > 0))
				continue;
			o += (size_t)snprintf(cost + o, sizeof(cost) - o, "%s%s %.2f s", o ? ", " : "",
					      rung_san_tool_name((rung_san_tool)t), r->sanitize_ms[t] / 1000);
			if (o < sizeof(cost) && r->sanitize_bench_ms[t] > 0)
				o += (size_t)snprintf(cost + o, sizeof(cost) - o, " + %.2f s at the benchmark shape",
						      r->sanitize_bench_ms[t] / 1000);
		}
		if (cost[0])
			fprintf(f, "[sanitize]   cost: %s\n", cost);
	}
	if (st->status != RUNG_S_FAILED)
		return;
	/* the reason is the first finding in the kernels; the others follow */
	bool first = true;
	for (int i = 0; i < r->nsanitize; i++) {
		const rung_san_finding *fd = &r->sanitize[i];
		if (fd->where == RUNG_SANW_HOST)
			continue;
		if (first) {
			first = false;
			continue;
		}
		char d[400];
		rung_san_describe(d, sizeof(d), fd);
		fprintf(f, "[sanitize]   also %s%s\n", fd->where == RUNG_SANW_REFERENCE ? "in the reference: " : "", d);
	}
}

bool rung_check_print_gpu_step(FILE *f, const rung_result *r, const rung_spec *spec, rung_step_id s)
{
	const rung_step *st = &r->steps[s];
	if (s == RUNG_STEP_SANITIZE && st->status != RUNG_S_NONE) {
		print_sanitize(f, r);
		return true;
	}
	if (s < RUNG_STEP_RUN || s > RUNG_STEP_BENCH || st->status == RUNG_S_NONE)
		return false;
	if (st->status != RUNG_S_OK) {
		fprintf(f, "[%s] %s%s%s", rung_step_name(s), rung_status_name(st->status), st->reason[0] ? " " : "",
			st->reason);
		if (s == RUNG_STEP_RUN)
			fprintf(f, " seed=%llu", (unsigned long long)r->base_seed);
		fprintf(f, "\n");
		return true;
	}
	if (s == RUNG_STEP_RUN) {
		char shape[160];
		output_shape(shape, sizeof(shape), spec, &r->run_dims);
		fprintf(f, "[run] ok shape=%s finite=%s", shape, r->run_finite ? "true" : "false");
		if (isfinite(r->run_ms))
			fprintf(f, " %.1fms", r->run_ms);
		fprintf(f, " seed=%llu\n", (unsigned long long)r->base_seed);
	} else if (s == RUNG_STEP_CHECK) {
		print_check_ok(f, r);
	} else {
		print_bench_ok(f, r);
	}
	return true;
}

void rung_check_print_output(FILE *f, const rung_result *r)
{
	if (r->output_bytes <= 0 && !(r->output && *r->output))
		return;
	const char *text = r->output ? r->output : "";
	int lines = 0;
	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	if (*text && text[strlen(text) - 1] != '\n')
		lines++;
	char total[32], kept[32];
	rung_fmt_bytes(total, sizeof(total), r->output_bytes);
	int show = lines < RUNG_OUTPUT_SHOW_LINES ? lines : RUNG_OUTPUT_SHOW_LINES;
	fprintf(f, "[output] the kernel printed %s", total);
	if (r->output_dropped > 0) {
		rung_fmt_bytes(kept, sizeof(kept), r->output_bytes - r->output_dropped);
		fprintf(f, " (the first %s kept)", kept);
	} else {
		fprintf(f, " (%d line%s)", lines, lines == 1 ? "" : "s");
	}
	fprintf(f, show ? "; %s %d line%s:\n" : "\n", show == lines && !r->output_dropped ? "its" : "its first", show,
		show == 1 ? "" : "s");
	const char *p = text;
	for (int i = 0; i < show && *p; i++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char buf[256];
		size_t used = rung_inert(buf, sizeof(buf), p, len);
		fprintf(f, "  | %s%s\n", buf, used < len ? " ..." : "");
		p = nl ? nl + 1 : p + len;
	}
	if (show < lines || r->output_dropped > 0)
		fprintf(f, "  (rung check --json or the detail screen shows %s)\n",
			r->output_dropped > 0 ? "the first 64 KiB" : "the rest");
}


void rung_suspects_print(FILE *f, const rung_result *r, const char *prefix)
{
	char buf[1024];
	for (int k = 0; r && k < r->nsuspects; k++)
		fprintf(f, "%s%s\n", prefix, rung_suspect_text(buf, sizeof buf, &r->suspects[k]));
}


/* The normalized SASS of kc (nvdisasm) and its kernel's function index. */
static int kernel_sass(rung_sass *s, int *func, const rung_compiled *kc)
{
	char *listing = NULL;
	int rc = rung_sass_from_cubin(&listing, kc->cubin, kc->cubin_len);
	if (rc)
		return rc;
	rc = rung_sass_normalize(s, listing, 0);
	free(listing);
	if (rc == 0)
		*func = rung_sass_find_func(s, kc->lowered);
	return rc;
}

int rung_profile_print_hot(FILE *f, const rung_compiled *kc, const rung_sass_counts *c, int max)
{
	rung_sass s;
	int func, rc = kernel_sass(&s, &func, kc);
	if (rc)
		return rc;
	uint64_t total = 0, thr = 0;
	for (int i = 0; i < c->n; i++) {
		total += c->pcs[i].inst;
		thr += c->pcs[i].thread_inst;
	}
	fprintf(f, "[sass] %d instructions executed %llu times (warp level), %llu thread instructions; top %d:\n", c->n,
		(unsigned long long)total, (unsigned long long)thr, max);
	rung_sass_print_hot(f, &s, func, c, max);
	rung_sass_clear(&s);
	return 0;
}

int rung_profile_print_stalls(FILE *f, const rung_compiled *kc, const rung_stall *st, int max)
{
	fprintf(f, "[stalls] %llu samples at %d PCs%s", (unsigned long long)st->total, st->n,
		st->period ? "" : " (CUPTI's default interval)");
	if (st->period)
		fprintf(f, ", one per %llu cycles per SM", 1ULL << st->period);
	if (st->dropped)
		fprintf(f, ", %llu dropped", (unsigned long long)st->dropped);
	fprintf(f, "; top stall reasons:\n");
	rung_stall_print_bars(f, st, 8, 40);
	rung_sass s;
	int func, rc = kernel_sass(&s, &func, kc);
	if (rc)
		return rc;
	fprintf(f, "[stalls] the %d lines with the most samples:\n", max);
	rung_stall_print_hot(f, &s, func, st, max);
	rung_sass_clear(&s);
	return 0;
}

void rung_cli_eval_progress(void *ud, int index, int total, const rung_version *v, rung_step_id step, double frac,
			    const char *msg)
{
	rung_cli_bar *b = ud;
	if (b->started <= 0)
		b->started = rung_now_s();
	if (index != b->index) {
		b->index = index;
		b->last_step = -1;
	}
	double el = rung_now_s() - b->started;
	double done = index + (step + (frac >= 0 && frac <= 1 ? frac : 0)) / RUNG_NSTEPS;
	const char *id = v ? v->short_id : "";
	if (isatty(STDERR_FILENO)) {
		char bar[31];
		int fill = total > 0 ? (int)(30 * done / total) : 0;
		for (int i = 0; i < 30; i++)
			bar[i] = i < fill ? '=' : i == fill ? '>' : ' ';
		bar[30] = 0;
		char eta[32] = "?";
		if (done > 0.05) {
			int sec = (int)(el / done * (total - done));
			snprintf(eta, sizeof(eta), "%d:%02d", sec / 60, sec % 60);
		}
		rung_cli_tty_status("[%s] %d/%d %s %s%s%s ETA %s", bar, index + 1, total, id, rung_step_name(step),
				    msg && *msg ? ": " : "", msg ? msg : "", eta);
	} else if ((int)step != b->last_step) {
		fprintf(stderr, "%s %d/%d %s %s\n", b->cmd, index + 1, total, id, rung_step_name(step));
	}
	b->last_step = (int)step;
}

/* ---- the sanitize gate after a batch (app/sanitize_gate.h) ---- */

void rung_cli_gate_progress(void *ud, rung_step_id step, double frac, const char *msg)
{
	rung_cli_gate *g = ud;
	(void)step;
	(void)frac;
	const char *m = msg ? msg : "";
	if (isatty(STDERR_FILENO)) {
		rung_cli_tty_status("sanitize %s: %s", g->v ? g->v->short_id : "", m);
		return;
	}
	size_t k = strcspn(m, ":");
	if (k >= sizeof(g->last))
		k = sizeof(g->last) - 1;
	if (strncmp(g->last, m, k) || g->last[k]) {
		memcpy(g->last, m, k);
		g->last[k] = 0;
		fprintf(stderr, "rung %s: sanitize %s: %s\n", g->cmd, g->v ? g->v->short_id : "", g->last);
	}
}

/* One tool's cost: "racecheck 1.2 s + 3.4 s at the benchmark shape" */
static void tool_costs(char *buf, size_t len, const rung_result *r)
{
	size_t o = 0;
	buf[0] = 0;
	for (int t = 0; t < RUNG_NSAN_TOOLS && o < len; t++) {
		if (!(r->sanitize_tools & RUNG_SAN_BIT(t)) || !(r->sanitize_ms[t] > 0))
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s %.1f s", o ? ", " : "", rung_san_tool_name((rung_san_tool)t),
				      r->sanitize_ms[t] / 1000);
		if (o < len && r->sanitize_bench_ms[t] > 0)
			o += (size_t)snprintf(buf + o, len - o, " + %.1f s at the benchmark shape%s", r->sanitize_bench_ms[t] / 1000,
					      r->sanitize_bench[t] == RUNG_SANB_OVER ? " (over the limit)" : "");
	}
}

void rung_cli_gate_event(void *ud, const rung_gate_event *ev)
{
	rung_cli_gate *g = ud;
	rung_cli_progress_clear();
	if (ev->kind == RUNG_GATE_EV_START) {
		g->v = ev->v;
		g->last[0] = 0;
		char tl[128];
		rung_san_tools_format(tl, sizeof(tl), ev->tools);
		fprintf(stderr, "rung %s: sanitizing %s before it is recommended (the fastest passing version, %.4g ms): %s\n",
			g->cmd, ev->v->short_id, ev->median_ms, tl);
		return;
	}
	char d[700], cost[400];
	rung_gate_describe(d, sizeof(d), ev->r, ev->tools, ev->state == RUNG_GATE_UNSANITIZED ? ev->why : NULL);
	if (ev->state == RUNG_GATE_UNSANITIZED) {
		fprintf(stderr, "rung %s: %s: unsanitized (%s)\n", g->cmd, ev->v->short_id, ev->why);
		return;
	}
	tool_costs(cost, sizeof(cost), ev->r);
	fprintf(stderr, "rung %s: %s: %s%s%s%s%s\n", g->cmd, ev->v->short_id, d, ev->reused ? " (the run of the same machine code)" : "",
		cost[0] ? "; " : "", cost, ev->state == RUNG_GATE_FAILED ? "; not best" : "");
	/* on stdout too: a verdict changed after the version's line */
	if (ev->state == RUNG_GATE_FAILED)
		printf("%-8s sanitize FAILED: %s  (not best)\n", ev->v->short_id, ev->r->steps[RUNG_STEP_SANITIZE].reason);
}


int rung_cli_gate_batch(rung_evaler *e, const char *cmd, bool stats, int *failed)
{
	rung_cli_gate g = {.cmd = cmd};
	rung_gate_report rep;
	double g0 = rung_now_s();
	int err = rung_gate_batch(&rep, e, rung_cli_gate_event, rung_cli_gate_progress, &g);
	rung_cli_progress_clear();
	*failed = err < 0 ? 0 : rep.failed;
	if (err < 0) {
		fprintf(stderr, "rung %s: sanitize before best: %s\n", cmd, rung_error_last());
		return err;
	}
	if (rep.ran && stats)
		printf("stats: sanitize before best: %d version(s) in %.2f s\n", rep.ran, rung_now_s() - g0);
	if (rep.pick.best >= 0) {
		if (rep.pick.provisional)
			fprintf(stderr, "rung %s: best %s is provisional: %s%s%s\n", cmd, rep.best_short,
				rep.why[0] ? "unsanitized (" : "not sanitized", rep.why, rep.why[0] ? ")" : "");
		else
			fprintf(stderr, "rung %s: best %s (sanitized)%s\n", cmd, rep.best_short,
				rep.pick.pending ? "; a faster version is not sanitized yet" : "");
	}
	return 0;
}

void rung_cli_print_result_line(const rung_version *v, const rung_result *r)
{
	char line[1024];
	rung_vrow_line(line, sizeof(line), v, r);
	if (r->worker[0])
		printf("%s  [worker %s]\n", line, r->worker);
	else
		printf("%s\n", line);
	fflush(stdout);
}

/* How a check is shown (cli/check_view.h). */
#define _GNU_SOURCE /* open_memstream */
#include "cli/check_view.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/inert.h"
#include "gpu/compile.h"
#include "cli/cli.h"
#include "cli/report.h"
#include "app/suspects.h"

int rung_check_exit(const rung_check_result *c)
{
	if (!c->loaded)
		return rung_cli_exit_of(c->err);
	const rung_result *r = &c->r;
	int code = RUNG_EXIT_OK;
	if (c->err < 0)
		code = RUNG_EXIT_INTERNAL;
	else if (r->steps[RUNG_STEP_COMPILE].status != RUNG_S_OK)
		code = RUNG_EXIT_FAIL;
	else if (c->info.reference_failed)
		code = RUNG_EXIT_SPEC;
	else if (!c->compile_only) {
		code = rung_gpu_exit_code(r, RUNG_STEP_BENCH);
		if (code == RUNG_EXIT_OK && c->sanitize_tools)
			code = rung_sanitize_exit_code(r);
	}
	if (c->info.reference_failed || c->kc.spec_error) /* the spec's arch or options, or the reference */
		code = RUNG_EXIT_SPEC;
	return code;
}

static void format_kb(char *buf, size_t len, int64_t bytes)
{
	snprintf(buf, len, "%.1fKB", (double)bytes / 1024.0);
}

/* "[compile] ok regs=40 spills=0 stack=0 smem=8192 ptx=12.1KB cubin=9.8KB 38ms"
 * (" cached" after the time when the CUBIN came from the task's CUBIN cache) */
static void print_compile_ok(FILE *f, const rung_result *r)
{
	const rung_kinfo *k = &r->compile.kernel;
	char ptx[32], cubin[32];
	format_kb(ptx, sizeof(ptx), r->compile.ptx_bytes);
	format_kb(cubin, sizeof(cubin), r->compile.cubin_bytes);
	if (!k->valid) { /* ptxas printed no resource lines: say so, never a fake 0 */
		fprintf(f, "[compile] ok regs=n/a spills=n/a stack=n/a smem=n/a ptx=%s cubin=%s %.0fms%s\n", ptx, cubin,
		        r->compile.compile_ms, r->compile.cached ? " cached" : "");
		return;
	}
	fprintf(f, "[compile] ok regs=%d spills=%lld stack=%lld smem=%lld ptx=%s cubin=%s %.0fms%s\n", k->regs,
	        (long long)(k->spill_stores + k->spill_loads), (long long)k->stack, (long long)k->smem, ptx, cubin,
	        r->compile.compile_ms, r->compile.cached ? " cached" : "");
}

/* A GPU rung's line, with " (cached)" before the newline for a stored result
 * (not for a sanitize rung that ran now on a stored result). */
static bool print_gpu_line(FILE *f, const rung_result *r, const rung_spec *spec, rung_step_id s, bool sanitize_fresh)
{
	if (!r->cached || (s == RUNG_STEP_SANITIZE && sanitize_fresh))
		return rung_check_print_gpu_step(f, r, spec, s);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return rung_check_print_gpu_step(f, r, spec, s);
	bool done = rung_check_print_gpu_step(m, r, spec, s);
	fclose(m);
	if (done && len && buf[len - 1] == '\n')
		buf[--len] = 0;
	if (done) { /* after the rung's own line; the sanitize rung's detail lines follow it */
		char *nl = strchr(buf, '\n');
		if (nl)
			fprintf(f, "%.*s (cached)%s\n", (int)(nl - buf), buf, nl);
		else
			fprintf(f, "%s (cached)\n", buf);
	}
	free(buf);
	return done;
}

/* One line per rung: "[name] STATUS details". */
static void print_step_line(FILE *f, const rung_result *r, const rung_spec *spec, rung_step_id s, bool sanitize_fresh)
{
	const rung_step *st = &r->steps[s];
	if (st->status == RUNG_S_NONE)
		return;
	if (print_gpu_line(f, r, spec, s, sanitize_fresh))
		return;
	if (s == RUNG_STEP_COMPILE && st->status == RUNG_S_OK) {
		print_compile_ok(f, r);
		return;
	}
	fprintf(f, "[%s] %s%s%s\n", rung_step_name(s), rung_status_name(st->status), st->reason[0] ? " " : "", st->reason);
	/* the compiler's other errors, after the first that the line names (#28 D-20) */
	if (s == RUNG_STEP_COMPILE && st->status == RUNG_S_FAILED && r->compile_log) {
		int n = rung_compile_log_nerrors(r->compile_log);
		char e[600], shown[1200];
		for (int i = 1; i < n && i <= 5; i++)
			if (rung_compile_log_error(r->compile_log, i, e, sizeof(e))) {
				rung_inert(shown, sizeof(shown), e, strlen(e)); /* the compiler quotes the source */
				fprintf(f, "          %s\n", shown);
			}
		if (n > 6)
			fprintf(f, "          ... %d more (rung dump writes the whole compile log)\n", n - 6);
	}
}

/* "[scratch] global_scratch 512 B per program x 128 = 65536 B, profile_scratch
 * null; added after [arg n] from t/k.json (the spec declares no kind = scratch)":
 * what the sidecar added, so that the person sees it. Nothing otherwise. */
static void print_scratch(FILE *f, const rung_task *t)
{
	const rung_spec *sp = t->spec;
	if (sp->nscratch || !t->launch.nscratch)
		return;
	fprintf(f, "[scratch]");
	for (int k = 0; k < t->launch.nscratch; k++) {
		const rung_launch_scratch *x = &t->launch.scratch[k];
		int64_t b = 0;
		if (rung_launch_scratch_bytes(&b, &t->launch, k, &sp->dims) < 0)
			rung_error_clear();
		if (x->per_program > 0)
			fprintf(f, "%s %s %lld bytes (%lld per program)", k ? "," : "", x->name, (long long)b,
			        (long long)x->per_program);
		else
			fprintf(f, "%s %s null", k ? "," : "", x->name);
	}
	char from[600];
	rung_inert(from, sizeof(from), t->launch.sidecar, strlen(t->launch.sidecar));
	fprintf(f, "; added after [arg %s] from %s (the spec declares no kind = scratch)\n", sp->args[sp->nargs - 1].name,
	        from);
}

void rung_check_print_lines(FILE *f, const rung_check_result *c)
{
	if (!c->loaded)
		return;
	const rung_result *r = &c->r;
	for (int s = 0; s < RUNG_NSTEPS; s++) {
		print_step_line(f, r, c->task.spec, (rung_step_id)s, c->sanitize_fresh);
		if (s == RUNG_STEP_COMPILE) /* what the sidecar added (the parameter count is checked with it) */
			print_scratch(f, &c->task);
	}
	rung_suspects_print(f, r, "[suspect] "); /* evidence: the exit code is the rungs' */
	rung_check_print_output(f, r);           /* never raw */
	if (r->noop_of[0])
		fprintf(f, "[no-op] same machine code, launch, spec and reference as %.7s: its verdict and timing"
		           " (rung check --force measures this version)\n", r->noop_of);
}

void rung_check_print_before(FILE *f, const rung_check_result *c)
{
	if (c->store_warning[0])
		fprintf(f, "rung check: %s (the result will not be stored)\n", c->store_warning);
	if (c->err < 0)
		fprintf(f, "rung check: %s\n", c->error);
	if (c->info.store_error[0])
		fprintf(f, "rung check: %s (the result was not stored)\n", c->info.store_error);
}

void rung_check_print_after(FILE *f, const rung_check_result *c)
{
	if (!c->loaded || !c->info.reference_failed)
		return;
	if (c->rc.spec_error) /* the spec's arch or options: the kernel failed so too */
		fprintf(f, "rung check: %s\n", c->info.reference_error);
	else
		fprintf(f, "rung check: the reference %s does not compile: %s\n", c->task.reference.path,
		        c->info.reference_error);
}

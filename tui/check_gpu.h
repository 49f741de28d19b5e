/* The GPU rungs of `rung check` (run, check, bench through the worker) and
 * their one-line summaries:
 *   [run] ok shape=(4096,4096) finite=true 15.6ms seed=1234
 *   [check] ok 4 shapes, 10 runs max_abs=1.2e-4 max_rel=3.1e-6 rmse=2.0e-5 psnr=118.3dB cos=1.0000000
 *   [bench] ok median=15.503ms ±0.06% n=41 dropped=0 clock=1980MHz 8.87TFLOP/s */
#ifndef RUNG_TUI_CHECK_GPU_H
#define RUNG_TUI_CHECK_GPU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/result.h"
#include "gpu/compile.h"
#include "gpu/worker.h"
#include "tui/task_load.h"
#include "tui/opts.h"

/* Runs the GPU rungs for a compiled task (kc; rc when it has a reference) into r
 * in a fresh worker. Returns the exit code for them: RUNG_EXIT_OK, RUNG_EXIT_FAIL,
 * RUNG_EXIT_SPEC (the reference failed), RUNG_EXIT_NOGPU (skipped) or
 * RUNG_EXIT_INTERNAL. budget_s <= 0 or NAN: the default. Progress goes to stderr
 * when it is a terminal. */
int rung_check_gpu(rung_result *r, const rung_task *t, const rung_compiled *kc, const rung_compiled *rc, uint64_t seed,
		   bool has_seed, double budget_s);

/* The same in a worker the caller opened (and closes). */
int rung_check_gpu_with(rung_result *r, rung_worker *w, const rung_task *t, const rung_compiled *kc,
			const rung_compiled *rc, uint64_t seed, bool has_seed, double budget_s);

/* A worker job for task t's version: its kernel and the headers it includes at
 * the same revision, the reference and its headers, the seed and flags. */
void rung_task_job(rung_job *job, const rung_task *t, uint64_t seed, bool seed_set, unsigned flags);

/* The measured ceilings of the device the worker w reports (its hello), from
 * the results store of t's repository (`rung ceilings` stores them, per device
 * UUID and clocks: vcs/ceil_store.h), for the speed-of-light guard: buf
 * filled and returned, or NULL (no error left set) for a task outside a
 * repository (a path target reads the store of the repository it is in, when
 * that has one), no device, or none measured: the guard then uses the
 * datasheet ceilings. */
const rung_ceilings *rung_task_ceilings(rung_ceilings *buf, const rung_task *t, rung_worker *w);

/* Runs a job of task t through the worker w (progress on stderr when it is a
 * terminal, the line cleared afterwards); as rung_evaluate_gpu. A job without
 * ceilings gets rung_task_ceilings(): the guard uses the measured ones. */
int rung_task_evaluate(rung_result *r, rung_worker *w, const rung_job *job, const rung_task *t,
		       const rung_compiled *kc, const rung_compiled *rc);

/* The exit code of a result's GPU rungs from run up to `last`: RUNG_EXIT_SPEC when
 * the reference failed, RUNG_EXIT_FAIL for a failed rung or an impossible result,
 * RUNG_EXIT_NOGPU when the run was skipped, else RUNG_EXIT_OK. */
int rung_gpu_exit_code(const rung_result *r, rung_step_id last);

/* Prints the line of a GPU rung (run, check, bench, sanitize); returns false
 * for other rungs or a rung that did not run (nothing printed). The sanitize
 * rung prints its step line, then "[sanitize]   also TOOL: ..." for every
 * other finding in the kernels. */
bool rung_check_print_gpu_step(FILE *f, const rung_result *r, const rung_spec *spec, rung_step_id s);

/* What the kernel printed, never raw: nothing when it printed nothing, else
 *   [output] the kernel printed 112.3 KiB (the first 64.0 KiB kept); its first 5 lines:
 *     | tid 0 \x1b[2J ...
 * each line made inert (core/inert.h), at most RUNG_OUTPUT_SHOW_LINES of them,
 * then where the rest is (--json, the detail screen). */
#define RUNG_OUTPUT_SHOW_LINES 5
void rung_check_print_output(FILE *f, const rung_result *r);
/* The sanitize rung (gpu/sanitize.h) for task t's compiled version into r,
 * which holds the other rungs (its base_seed is used): run with `tools`, or
 * SKIPPED with the run rung's reason when that was SKIPPED (no GPU). A stored
 * sanitize rung that covers `tools` (r->sanitize_tools, status ok or FAILED)
 * is kept: returns 1 then; one that covers some of them gets the others run
 * and judged with its findings. 0 when it ran (or was skipped), RUNG_EXIT_INTERNAL
 * on rung's own failure (message on stderr). Progress goes to stderr when it
 * is a terminal. */
int rung_check_sanitize(rung_result *r, const rung_task *t, const rung_compiled *kc, const rung_compiled *rc,
			unsigned tools);

/* True when r's sanitize rung ran with every tool of `tools` (ok or FAILED). */
bool rung_sanitize_covers(const rung_result *r, unsigned tools);

/* The exit code of the sanitize rung: RUNG_EXIT_FAIL when FAILED (RUNG_EXIT_SPEC
 * for "reference failed: ..."), RUNG_EXIT_NOGPU when SKIPPED, else OK. */
int rung_sanitize_exit_code(const rung_result *r);

/* `--sanitize` (memcheck, racecheck), `--sanitize=memcheck,initcheck` or
 * `--no-sanitize` (arg) for command cmd: 1 and *tools set (0 for
 * --no-sanitize), 0 when arg is none of these, -1 after printing
 * "rung CMD: --sanitize: unknown tool 'x' (...)" (a usage error). */
int rung_sanitize_opt(unsigned *tools, const char *cmd, const char *arg);
/* The same two options as a sub-table (tui/opts.h) for a rung_sanitize_sel field:
 * {RUNG_OPT_SUBTABLE(my_opts, sanitize, rung_sanitize_opt_specs)}. */
typedef struct {
	bool set;       /* --sanitize or --no-sanitize given (else the spec's [check] sanitize) */
	unsigned tools; /* RUNG_SAN_BIT mask; 0 after --no-sanitize */
} rung_sanitize_sel;
extern const rung_opt_spec rung_sanitize_opt_specs[];

#endif

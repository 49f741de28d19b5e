/* How the command line shows results: the rung lines of `rung check`,
 *   [run] ok shape=(4096,4096) finite=true 15.6ms seed=1234
 *   [check] ok 4 shapes, 10 runs max_abs=1.2e-4 max_rel=3.10e-06 rmse=2.0e-5 psnr=118.3dB cos=1.0000000
 *   [bench] ok median=15.503ms ±0.06% n=41 dropped=0 clock=1980MHz 8.87TFLOP/s
 * (ending in " shared GPU: pid 4242 python3" when another process was on the GPU),
 * the kernel's output, the suspects, the progress line, and the exit codes of
 * a verdict (docs/CLI.md). Everything printed is inert (core/inert.h). */
#ifndef RUNG_CLI_REPORT_H
#define RUNG_CLI_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/result.h"
#include "core/sass_prof.h"
#include "core/stall.h"
#include "core/spec.h"
#include "gpu/compile.h"
#include "app/session.h"

/* A progress callback (rung_progress_fn) that draws "[bench]  41% msg" on the
 * terminal's stderr, and nothing when stderr is not a terminal; and the line
 * cleared afterwards. */
void rung_cli_progress(void *ud, rung_step_id step, double frac, const char *msg);
void rung_cli_progress_clear(void);
/* A version's result line on stdout, as rung eval and rung watch print it
 * (rung_vrow_line), with "  [worker LABEL]" when a pool's worker ran it; flushed. */
void rung_cli_print_result_line(const rung_version *v, const rung_result *r);

/* The progress bar of `rung eval` and `rung watch` (a rung_evaler_progress_fn,
 * app/pipeline.h, with a rung_cli_bar as ud): on a terminal
 *   [=====>      ] 3/11 a1b2c3d bench: 41% ETA 0:12
 * redrawn in place; otherwise one line "eval 3/11 a1b2c3d bench" per rung. */
typedef struct {
	const char *cmd;
	double started;
	int index, last_step;
} rung_cli_bar;
#include "vcs/history.h"
#include "app/sanitize_gate.h"
void rung_cli_eval_progress(void *ud, int index, int total, const rung_version *v, rung_step_id step, double frac,
			    const char *msg);

/* The sanitize gate after a batch of `rung eval` or `rung watch`
 * (app/sanitize_gate.h, rung_gate_batch), its messages on stderr as "rung
 * CMD: ...": the version it sanitizes, a line per tool and shape, its verdict
 * and cost, a failure also on stdout ("abc1234  sanitize FAILED: ...  (not
 * best)"), and the best at the end, sanitized or provisional. stats: the
 * time it took on stdout. *failed: versions whose run failed. 0 or negative
 * (said on stderr). */
typedef struct {
	const char *cmd;
	char last[96]; /* the tool part of the last progress line (not a terminal) */
	const rung_version *v;
} rung_cli_gate;
void rung_cli_gate_progress(void *ud, rung_step_id step, double frac, const char *msg);
void rung_cli_gate_event(void *ud, const rung_gate_event *ev);
int rung_cli_gate_batch(rung_evaler *e, const char *cmd, bool stats, int *failed);

/* The exit code of a result's GPU rungs from run up to `last`: RUNG_EXIT_SPEC when
 * the reference failed, RUNG_EXIT_FAIL for a failed rung or an impossible result,
 * RUNG_EXIT_NOGPU when the run was skipped, else RUNG_EXIT_OK. */
int rung_gpu_exit_code(const rung_result *r, rung_step_id last);
/* The exit code of the sanitize rung: RUNG_EXIT_FAIL when FAILED (RUNG_EXIT_SPEC
 * for a finding in the reference), RUNG_EXIT_NOGPU when SKIPPED, else OK. */
int rung_sanitize_exit_code(const rung_result *r);

/* Prints the line of a GPU rung (run, check, bench, sanitize); returns false
 * for other rungs or a rung that did not run (nothing printed). The sanitize
 * rung prints its step line, then "[sanitize]   also TOOL: ..." for every
 * other finding in the kernels. */
bool rung_check_print_gpu_step(FILE *f, const rung_result *r, const rung_spec *spec, rung_step_id s);

/* What the kernel printed, never raw: nothing when it printed nothing, else
 *   [output] the kernel printed 112.3 KiB (the first 64.0 KiB kept); its first 5 lines:
 *     | tid 0 \x1b[2J ...
 * each line made inert, at most RUNG_OUTPUT_SHOW_LINES of them, then where
 * the rest is (--json, the detail screen). */
#define RUNG_OUTPUT_SHOW_LINES 5
void rung_check_print_output(FILE *f, const rung_result *r);

/* One line per suspect: "<prefix>kind: reason\n" ("[suspect] " for rung check). */
void rung_suspects_print(FILE *f, const rung_result *r, const char *prefix);

/* Disassembles kc's CUBIN, annotates it with c and prints the top max lines
 * ("[sass] ..." header). Returns 0, or negative (no nvdisasm: message). */
int rung_profile_print_hot(FILE *f, const rung_compiled *kc, const rung_sass_counts *c, int max);
/* `rung profile --stalls`: the sample count, the top stall reasons as bars and
 * the max lines with the most samples (kc's SASS through nvdisasm). */
int rung_profile_print_stalls(FILE *f, const rung_compiled *kc, const rung_stall *st, int max);

#endif

/* The sanitize rung: the worker run under NVIDIA compute-sanitizer, one
 * process per tool, at the smallest check shape with one seed and no bench;
 * the tool's report goes to a private log file that core/sanitize.c parses
 * into findings stored with the result (docs/CHECKS.md, "The sanitize rung").
 * rung builds every argument itself: only tool names from the fixed list of
 * core/sanitize.h, the log path it made and its own binary reach the command
 * line, never a string from the spec or the repository. */
#ifndef RUNG_GPU_SANITIZE_H
#define RUNG_GPU_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"
#include "core/sanitize.h"
#include "gpu/compile.h"
#include "gpu/worker.h"

#define RUNG_SANITIZER_NOT_FOUND \
	"compute-sanitizer not found (looked in PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)"
#define RUNG_SANITIZE_DEADLINE_S 120.0 /* per job, unless $RUNG_DEADLINE */
#define RUNG_SANITIZE_PRINT_LIMIT 100  /* --print-limit: reports printed per run */
/* The cost limit of a tool's run at the benchmark shape: seconds without
 * progress from the sanitized worker (one sanitized launch, or the
 * reference's), unless $RUNG_SANITIZE_BENCH_LIMIT (0: no bench-shape run).
 * A run past it is killed and recorded as RUNG_SANB_OVER, not as a failure. */
#define RUNG_SANITIZE_BENCH_LIMIT_S 60.0

/* The bench-shape limit in force: $RUNG_SANITIZE_BENCH_LIMIT, else the default. */
double rung_sanitize_bench_limit_s(void);

/* Where compute-sanitizer is, into buf: $RUNG_COMPUTE_SANITIZER when set (a
 * path to use as it is, or "none": absent), else the first executable
 * compute-sanitizer on PATH, in $CUDA_HOME/bin, in /usr/local/cuda/bin.
 * False when there is none (or buf is too small). Looked up on every call. */
bool rung_sanitizer_find(char *buf, size_t len);

/* The command line of one tool run, up to the rung binary (the worker appends
 * it and "worker"): {sanitizer, "--tool", TOOL, "--target-processes", "all",
 * "--log-file", log_path, "--print-limit", "100", NULL}. The strings are the
 * arguments and static text; print_limit (at least 1) goes into store.
 * Returns the number of entries before the NULL, or -1 when max is too small,
 * the tool is not one of the list or the log path holds '%' (which
 * compute-sanitizer would expand). */
int rung_sanitize_argv(const char **argv, int max, char *store, size_t storelen, const char *sanitizer,
		       rung_san_tool tool, const char *log_path, int print_limit);

/* Runs the sanitize rung for a compiled version (kernel; ref when the spec
 * has a reference) of job's spec into out, which holds the other rungs (and
 * maybe an earlier sanitize rung: its findings of tools not in `tools` are
 * kept and judged with the new ones): for
 * each tool of `tools` (in list order) a worker under compute-sanitizer runs
 * the job cut to the smallest check shape and one seed (out->base_seed), no
 * bench, with a deadline of $RUNG_DEADLINE or 120 s; its report is parsed and
 * the findings added (rung_result_sanitize_add); then, unless the smallest
 * shape is the benchmark shape, that run already found something in the
 * candidate or was incomplete (the rung FAILS either way), or the limit is 0, a second worker under the same tool runs the
 * benchmark shape (one seed, normal inputs, no bench) with the cost limit as
 * its deadline; its new findings are added. Each run's wall time and how the
 * benchmark shape was covered go into out (sanitize_ms, sanitize_bench_ms,
 * sanitize_bench). Then the step is judged
 * (rung_result_sanitize_judge). Without compute-sanitizer, or without a GPU,
 * the step is SKIPPED with the reason. Progress comes as RUNG_STEP_SANITIZE.
 * Returns negative only for rung's own failures (memory, temporary files),
 * and for a cancel (job->cancel set: the worker under the tool is killed at
 * once, RUNG_ETIMEOUT "cancelled", nothing judged). */
int rung_sanitize_version(rung_result *out, const rung_job *job, const rung_compiled *kernel,
			  const rung_compiled *ref, unsigned tools, rung_progress_fn cb, void *ud);

#endif

/* The isolated GPU worker. All CUDA work happens in a child process
 * (`rung worker`, this binary re-executed); the parent never calls the driver.
 * The worker is persistent and restarted after a crash, sticky error or missed
 * deadline (SIGKILL). Protocol: gpu/protocol.h and docs/ARCHITECTURE.md.
 *
 * Evaluation is split so that compiles (CPU, NVRTC, in the parent) can overlap
 * the GPU work of the previous version: the caller compiles (app/evaluate.h,
 * rung_eval_compile), then rung_evaluate_gpu() runs the GPU rungs here. */
#ifndef RUNG_GPU_WORKER_H
#define RUNG_GPU_WORKER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/result.h"
#include "core/roofline.h"
#include "core/spec.h"
#include "gpu/compile.h"

typedef struct rung_worker rung_worker;

enum {
	RUNG_JOB_COMPILE_ONLY = 1 << 0,
	RUNG_JOB_NO_BENCH = 1 << 1,
	RUNG_JOB_PROFILE = 1 << 2,
	/* With RUNG_JOB_PROFILE: per-PC SASS counts instead of the range profiler
	 * (result.aux "sass"; gpu/worker/sass.c). */
	RUNG_JOB_SASS = 1 << 3,
	/* One untimed launch with the rung.h trace buffer attached (result.aux
	 * "trace"; gpu/worker/trace.c); the bench rung is SKIPPED. */
	RUNG_JOB_TRACE = 1 << 4,
	/* The sanitize rung's job (gpu/sanitize.c): the plan cut to the smallest
	 * check shape and one seed (rung_plan_sanitize); give RUNG_JOB_NO_BENCH too. */
	RUNG_JOB_SANITIZE = 1 << 5,
	/* Measure the job's GPU busy time (result gpu_busy_ms, gpu_kernels) from
	 * CUPTI kernel records kept on for the whole job (`rung eval --stats`). */
	RUNG_JOB_STATS = 1 << 6,
	/* With RUNG_JOB_PROFILE: warp stall reasons per PC from CUPTI PC
	 * sampling (result.aux "stall"; gpu/worker/sass.c). */
	RUNG_JOB_STALLS = 1 << 7,
	/* With RUNG_JOB_SANITIZE: the plan cut to the benchmark shape instead,
	 * one seed, normal inputs only (rung_plan_sanitize_bench): the sanitize
	 * rung's run at the benchmark shape (docs/CHECKS.md). The worker then
	 * launches the candidate once: no reference, no comparison, no
	 * determinism run (the sanitizer's report is the verdict). */
	RUNG_JOB_SANITIZE_BENCH = 1 << 8,
};

/* One version to evaluate. Strings are borrowed. */
typedef struct {
	const rung_spec *spec;
	const char *kernel_src, *kernel_file;   /* candidate */
	/* The candidate's launch as the loader resolved it ([launch], sidecar,
	 * `// rung:` line: rung_launch_for_kernel); NULL: from kernel_src's line. */
	const rung_launch *kernel_launch;
	const rung_header *headers; int nheaders; /* files it #includes, at the same revision */
	const char *ref_src, *ref_file;         /* reference */
	size_t kernel_len, ref_len;             /* bytes of the sources; 0: strlen (rung_compile_req's src_len) */
	const rung_header *ref_headers; int ref_nheaders;
	const char *rev, *label;                /* recorded in the result */
	uint64_t seed; bool seed_set;           /* base seed; drawn fresh when !seed_set */
	double budget_s;                        /* bench time budget (default 2 s) */
	double deadline_s;                      /* per-job deadline (default: generous cover of compile+check+bench) */
	unsigned flags;
	/* Measured ceilings of this device (from the store), or NULL: the
	 * speed-of-light guard then uses the datasheet ones (core/roofline_guard.h). */
	const rung_ceilings *ceilings;
	/* The sanitize rung (gpu/sanitize.c): a NULL-terminated argv put before
	 * compute-sanitizer's (a pool's local worker: env CUDA_VISIBLE_DEVICES=N,
	 * so that it runs on that worker's device); NULL: none. */
	const char *const *wrap;
	/* Set by any thread (NULL: never): the sanitize rung's workers are
	 * killed and the rung gives up (gpu/sanitize.h, "cancelled"). */
	const volatile int *cancel;
} rung_job;

typedef void (*rung_progress_fn)(void *ud, rung_step_id step, double frac, const char *msg);

typedef struct {
	const char *exe; /* path of the rung binary (NULL: /proc/self/exe) */
	/* NULL-terminated; the child runs argv_prefix[0] with argv_prefix...,
	 * exe, "worker" (compute-sanitizer: gpu/sanitize.h). With a prefix, exe
	 * is resolved to the binary's real path (under a wrapper /proc/self/exe
	 * would be the wrapper) and the child gets a process group of its own,
	 * so that a kill at the deadline reaches the worker under the wrapper. */
	const char *const *argv_prefix;
	/* The protocol over the child's stdin and stdout (`rung worker --stdio`)
	 * instead of a socket: for a prefix that reaches another machine (ssh,
	 * srun), which carries pipes, not a socket. The child's stderr is still
	 * captured (the worker moves the kernel's stdout there), and no socket
	 * path is offered (`--connect`). Remote: exe is the rung binary as the
	 * remote side names it. Also for a local prefix such as env(1). */
	bool stdio;
	/* Set by any thread to stop the job in flight (NULL: never): the worker
	 * (its group) is killed within RUNG_CHAN_CANCEL_MS and the job ends
	 * failed, "cancelled" (rung_worker_cancelled). The sanitize rung's
	 * workers, which may run for minutes, take it from rung_job.cancel. */
	const volatile int *cancel;
} rung_worker_opts;

int rung_worker_open(rung_worker **out, const rung_worker_opts *opts);
void rung_worker_close(rung_worker *w);
/* For a process about to exit: asks the worker to quit and forgets it without
 * waiting for its CUDA teardown (the worker exits on its own; the caller's
 * verdict is not held up by it). */
void rung_worker_detach(rung_worker *w);

/* Asks the worker to quit and waits up to grace_ms for the child (the
 * wrapper of argv_prefix, which writes its report when the worker exits) to
 * end, then kills it (its group). Returns the wait status, or -1 when no child
 * was running. The worker stays usable: the next job starts a fresh one. */
int rung_worker_finish(rung_worker *w, int grace_ms);

/* True when the last request (or start) ended with the worker gone without
 * a reply: it died, was killed at the deadline, or its connection dropped
 * (app/pool.c re-runs such a job elsewhere). False after a reply, even a
 * fault's, and after a hello that said there is no device. */
bool rung_worker_lost(const rung_worker *w);
/* The child's process id (the wrapper's, under a prefix: env(1) execs the
 * worker, ssh and srun do not), or -1 when none runs. */
int rung_worker_pid(const rung_worker *w);
/* True when the last request ended because rung_worker_opts.cancel was set. */
bool rung_worker_cancelled(const rung_worker *w);

/* Device environment; RUNG_ENODEV with a clear message when no driver or GPU. */
int rung_worker_env(rung_env *out, rung_worker *w);

/* Starts the worker process now without waiting for its hello, so that its
 * context creation overlaps the caller's compiles; the next call that needs the
 * worker reads the hello. Errors are reported then, not here. */
void rung_worker_prestart(rung_worker *w);

/* The GPU rungs only (run, check, bench) for a version the caller has already
 * compiled (kernel, and ref when the spec has a reference; app/evaluate.h is
 * the one caller that compiles): *out must be initialised and hold the compile
 * rung; its base_seed is used when set (else job's seed, else a fresh one).
 * Always fills a verdict: faults become FAILED/SKIPPED steps, not errors;
 * negative only for rung's own failures (out of memory, bad arguments). */
int rung_evaluate_gpu(rung_result *out, rung_worker *w, const rung_job *job, const rung_compiled *kernel,
		      const rung_compiled *ref, rung_progress_fn cb, void *ud);

/* A/B timing of two compiled versions of one task (rung compare). */
typedef struct {
	bool identical;   /* same machine code (.text sections): not timed */
	bool failed;      /* reason says why (compile, geometry, fault, no device) */
	bool skipped;     /* no driver / no GPU: reason says so */
	char reason[512];
	int n, dropped;   /* rounds (one A and one B sample each); batches under 75% clock */
	double *a, *b;    /* n samples each, ms, taken A B A B ... (owned) */
	char method[64];  /* "cupti-activity" or "events" */
	/* Every launch, warm-up and timed, is verified (docs/CHECKS.md, "Compare is
	 * verified too"): B's outputs against A's with twice the check's tolerance,
	 * the inputs bit for bit, the guard bands. */
	int verified;     /* launches of A and B verified */
	int sets;         /* input sets used (2; 1 when the second did not fit) */
	double verify_ms; /* GPU time of the verification over the timed rounds, outside the timed windows */
	/* A verified launch did not match (no timing verdict; reason says where):
	 * "A and B disagree at timed round 7 (12288 elements of y, first at (1,0)): ..." */
	bool disagree;
	int round;        /* 1-based, among the warm-up rounds or the timed rounds */
	bool round_timed;
	char kernel[2];   /* "A" or "B" when one of them is known to be at fault, else "" */
	char arg[64];     /* the argument */
	int64_t count;    /* elements that differ (bytes of guard band) */
	int rank;         /* of first; 0 when no element is named */
	int64_t first[RUNG_MAX_RANK];
	/* Other processes on the GPU during the timed rounds (NVML, before and
	 * after them): the timing is not trusted (rung compare says SHARED). */
	rung_gpu_procs shared;
} rung_ab;

/* Times kernel A (src_a/file_a, compiled ka) against B at the spec's benchmark
 * shape in one worker, interleaved (A B, B A, ...) with an L2 flush before each
 * launch and every launch verified, until both medians are stable or budget_s
 * (default 2 s) is spent. Identical machine code gives identical=true without
 * timing. Returns negative only for rung's own errors; faults are in
 * out->failed/reason, a verified launch that did not match in out->disagree. */
int rung_compare_versions(rung_ab *out, rung_worker *w, const rung_spec *spec, const char *src_a, const char *file_a,
			  const rung_compiled *ka, const char *src_b, const char *file_b, const rung_compiled *kb,
			  double budget_s);
/* The same with each version's launch as its loader resolved it (launch NULL:
 * from src's `// rung:` line): a PTX version's sidecar sets its block. */
typedef struct {
	const char *src;
	const rung_launch *launch;
	const char *file;
} rung_compare_launch;
int rung_compare_versions_l(rung_ab *out, rung_worker *w, const rung_spec *spec, const rung_compare_launch *a,
			    const rung_compiled *ka, const rung_compare_launch *b, const rung_compiled *kb, double budget_s);
void rung_ab_clear(rung_ab *ab);

/* The worker process itself (`rung worker`): speaks the protocol on in_fd/out_fd
 * until end of input or "quit". out_fd == in_fd: one socket both ways, and
 * stdout is left to the kernel's output (the parent captures it); out_fd ==
 * STDOUT_FILENO: stdout is moved to stderr so that it carries only the
 * protocol. Returns the process exit code: 0, or 1 after a sticky CUDA error
 * so that the parent starts a fresh worker. */
int rung_worker_main(int in_fd, int out_fd);

#endif

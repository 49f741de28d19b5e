/* Result records: what one evaluation of one version produced, rung by rung.
 * A field is either measured or absent (validity flags / NAN), never a fake zero.
 * Records travel as JSON (worker -> parent, store, --json) via rung_result_to_json
 * and rung_result_from_json; the JSON form is documented in docs/RESULT-JSON.md. */
#ifndef RUNG_CORE_RESULT_H
#define RUNG_CORE_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/errmap.h"
#include "core/sanitize.h"
#include "core/spec.h"

/* The rungs of the ladder, as one list macro: id, name. The sanitize rung is
 * last: it runs only on request (`rung check --sanitize`, [check] sanitize),
 * and lists that predate it (the CRKB column, `rung log --csv`) show it only
 * where it ran (docs/CHECKS.md, "The sanitize rung"). */
#define RUNG_STEP_LIST(_) \
	_(COMPILE, "compile") \
	_(RUN, "run") \
	_(CHECK, "check") \
	_(BENCH, "bench") \
	_(PROFILE, "profile") \
	_(SANITIZE, "sanitize")

typedef enum {
#define RUNG_STEP_ENUM(id, name) RUNG_STEP_##id,
	RUNG_STEP_LIST(RUNG_STEP_ENUM)
#undef RUNG_STEP_ENUM
	RUNG_NSTEPS
} rung_step_id;

typedef enum {
	RUNG_S_NONE = 0, /* not run (absent) */
	RUNG_S_PENDING,
	RUNG_S_RUNNING,
	RUNG_S_OK,
	RUNG_S_FAILED,
	RUNG_S_SKIPPED,
} rung_status;

const char *rung_step_name(rung_step_id s);  /* "compile" */
const char *rung_status_name(rung_status s); /* "ok", "FAILED", "SKIPPED", ... */

/* Why a rung FAILED, typed (the reason keeps the text): REFERENCE when the
 * reference (or the golden files) failed, not the candidate: a spec problem,
 * exit 3. JSON "cause" (absent reads as none). */
#define RUNG_CAUSE_LIST(_) \
	_(NONE, "none") \
	_(REFERENCE, "reference")

typedef enum {
#define RUNG_CAUSE_ENUM(id, name) RUNG_CAUSE_##id,
	RUNG_CAUSE_LIST(RUNG_CAUSE_ENUM)
#undef RUNG_CAUSE_ENUM
	RUNG_NCAUSES
} rung_cause;

const char *rung_cause_name(rung_cause c); /* "none", "reference" */

typedef struct {
	rung_status status;
	char reason[512]; /* for FAILED/SKIPPED: "sgemm.cu:12: identifier \"x\" is undefined" */
	double wall_ms;   /* how long this rung took (NAN if unknown) */
	rung_cause cause; /* for FAILED: whose failure (RUNG_CAUSE_NONE: the candidate's or unknown) */
} rung_step;

/* Per-kernel resource usage parsed from the ptxas -v log. */
typedef struct {
	bool valid;
	char name[256]; /* mangled name */
	int regs, barriers;
	int64_t stack, smem, cmem, spill_stores, spill_loads, stack_frame;
} rung_kinfo;

typedef struct {
	rung_kinfo kernel, reference;
	int64_t ptx_bytes, cubin_bytes;
	double compile_ms;
	bool cached; /* the kernel's CUBIN came from the task's CUBIN cache (gpu/compile_cache.h): NVRTC did not run */
	char arch[16];
	char lowered_name[256];
} rung_compile_info;

#define RUNG_MAX_BAD 5
#define RUNG_ULP_BINS 8 /* 0, 1, 2-3, 4-15, 16-255, 256-65535, >=65536, nan/inf mismatch */

/* Metrics for one output of one (shape, seed) run. */
typedef struct {
	char output[RUNG_NAME_MAX];
	rung_dimset dims;
	uint64_t seed;
	rung_dist inputs; /* the case's input distribution ([check] inputs); normal unless listed */
	int64_t n;
	/* max_rel: max over the finite elements of |got - ref| / max(|ref|, atol_eff)
	 * (docs/CHECKS.md); NAN when no element is finite. Shown only through
	 * rung_result_max_rel and rung_fmt_max_rel. */
	double max_abs, max_rel, mae, mse, rmse, psnr, cossim, peak; /* psnr peak = max |ref| */
	int64_t nan_count, inf_count, mismatches, unwritten;
	int nbad;
	int64_t bad_index[RUNG_MAX_BAD];             /* flat index */
	int64_t bad_coord[RUNG_MAX_BAD][RUNG_MAX_RANK];
	int bad_rank;
	double bad_got[RUNG_MAX_BAD], bad_expected[RUNG_MAX_BAD];
	bool has_ulp;
	uint64_t ulp_hist[RUNG_ULP_BINS];
	bool pass;
	char reason[256]; /* first failure: "12 of 4096 elements of C outside ...; worst at (127,4): ..." */
	/* Where the output is wrong: the worst level per tile (core/errmap.h);
	 * map.g.rows == 0 when there is none (results from before it). */
	rung_err_map map;
} rung_check_metric;

/* Another process with a context on the GPU (NVML's compute and MPS process
 * lists): its kernels share the SMs, the memory bandwidth and the clocks with
 * the timed ones. name: its command (/proc/PID/comm), printable ASCII only. */
#define RUNG_MAX_GPU_PROCS 8
typedef struct {
	int pid;
	char name[64];
} rung_gpu_proc;

/* The other processes seen on the device while something was timed. */
typedef struct {
	bool read; /* the process lists were read (false: unknown, e.g. no NVML) */
	int n;     /* kept in p */
	int more;  /* seen beyond RUNG_MAX_GPU_PROCS */
	rung_gpu_proc p[RUNG_MAX_GPU_PROCS];
} rung_gpu_procs;

/* Adds a process once (by pid); beyond RUNG_MAX_GPU_PROCS it is counted in
 * more. The name is kept as printable ASCII ('?' for any other byte). */
void rung_gpu_procs_add(rung_gpu_procs *s, int pid, const char *name);
/* True when any other process was seen. */
bool rung_gpu_procs_any(const rung_gpu_procs *s);
/* "shared GPU: pid 4242 python3, pid 77 a.out (+3 more)", or "" when none. */
void rung_gpu_procs_str(char *buf, size_t len, const rung_gpu_procs *s);
/* JSON {"read": true, "procs": [{"pid": 4242, "name": "python3"}], "more": 0}
 * (docs/RESULT-JSON.md, bench.shared), and back (0; a malformed entry is skipped). */
struct json_t;
struct json_t *rung_gpu_procs_to_json(const rung_gpu_procs *s);
void rung_gpu_procs_from_json(rung_gpu_procs *s, const struct json_t *o);

/* Timing statistics (all in milliseconds). */
typedef struct {
	bool valid;
	double median, mean, min, max, q1, q3, stddev;
	double rse_median;  /* relative standard error of the median, fraction */
	bool noise_ok;      /* rse_median <= target */
	int n, dropped;     /* dropped: samples under 75% of max SM clock */
	double *samples;    /* n values, ms, owned */
	double event_median; /* CUDA-event cross-check, ms (NAN if absent) */
	/* With method "cupti-profiler" (short kernels, docs/CHECKS.md): the serial
	 * kernel records' median of the same bench, ms (NAN otherwise). */
	double record_median;
	/* With method "cupti-activity-calibrated" (kernels of 50 us and more,
	 * core/calib.h): the launch floor taken off every record, ms, and the two
	 * readings of rung's empty kernel it is the difference of: the records'
	 * now and the range profiler's. calibration says where the profiler's
	 * came from ("measured now", "cached from <UTC time>") or why no offset
	 * was taken ("not calibrated: ..."; the method stays "cupti-activity").
	 * NAN / "" otherwise. record_median is then the records' own median. */
	double record_offset, record_floor, profiler_floor;
	char calibration[128];
	double clock_mhz;   /* median SM clock during sampling (NAN if unknown) */
	double tflops, tbps; /* achieved, from [roofline] (NAN if absent) */
	char method[64];    /* "cupti-activity-calibrated", "cupti-activity", "cupti-profiler", "events" */
	/* Every bench launch (warm-up and timed) is verified: the outputs poisoned
	 * before it and compared with the reference's after it (docs/CHECKS.md). */
	int verified;       /* launches verified (0 in results from before) */
	int sets;           /* input sets the timed launches ran on */
	double verify_ms;   /* GPU time of that verification, ms (NAN if unknown) */
	/* The other processes on the device, listed before and after the timed
	 * loop (the worker itself left out; docs/CHECKS.md, "A shared GPU"). A
	 * timing taken beside any is marked and kept out of A/B verdicts. */
	rung_gpu_procs shared;
} rung_bench;

/* True when another process was on the GPU while b was timed. */
bool rung_bench_shared(const rung_bench *b);

typedef struct {
	bool valid;
	char gpu[128], uuid[64], driver[32], cuda[32], arch[16];
	int sms;
	int sm_clock_mhz, mem_clock_mhz, bus_width;
	int64_t l2_bytes, persisting_l2_limit;
	double power_limit_w;
	char host[64];
} rung_env;

typedef struct {
	char name[96];
	double value;
} rung_counter;

/* What makes a kernel suspect (docs/CHECKS.md, "Evidence"): one list macro,
 * id and the name used in JSON and on screen. A suspect is evidence the person
 * sees; it fails a version only where its rung says so (a timed launch whose
 * output differs fails the bench rung; a mutable global alone only flags). */
#define RUNG_SUSPECT_LIST(_) \
	_(MUTABLE_GLOBAL, "mutable-global") \
	_(DEVICE_MALLOC, "device-malloc") \
	_(DEVICE_LAUNCH, "device-launch") \
	_(KERNEL_RECORDS, "kernel-records") \
	_(IMPOSSIBLE, "impossible") \
	_(TIMED_MISMATCH, "timed-mismatch") \
	_(NONDETERMINISTIC, "nondeterministic")

typedef enum {
#define RUNG_SUSPECT_ENUM(id, name) RUNG_SUSPECT_##id,
	RUNG_SUSPECT_LIST(RUNG_SUSPECT_ENUM)
#undef RUNG_SUSPECT_ENUM
	RUNG_NSUSPECT_KINDS
} rung_suspect_kind;

#define RUNG_MAX_SUSPECTS 8

typedef struct {
	rung_suspect_kind kind;
	char reason[256]; /* "mutable __device__ global 'calls' (written by sgemm)" */
} rung_suspect;

const char *rung_suspect_name(rung_suspect_kind k); /* "mutable-global" */
/* Parses a name back; RUNG_EINVAL when unknown. */
int rung_suspect_parse(rung_suspect_kind *out, const char *name);

typedef struct rung_result {
	char key[65];        /* content hash (hex sha256) */
	char rev[48];        /* commit or "WORKTREE" or a file path */
	char label[128];     /* subject or file name */
	uint64_t base_seed;
	int64_t created;     /* unix seconds */
	bool cached;         /* came from the store */
	bool recorded;       /* imported from another machine (demo): never mixed with live */
	char recorded_note[128]; /* "recorded on NVIDIA H200, 2026-11-29" */
	/* A no-op version: its machine code, launch geometry, spec and reference
	 * equal those of this earlier commit, whose verdict and timing it carries
	 * (app/evaluate.c; docs/CHECKS.md "No-op versions"). "" otherwise. */
	char noop_of[41];
	/* The pool worker that ran the GPU rungs ("local:1", "ssh:gpu3",
	 * "slurm:2": app/pool.h), with the jobs it was re-run after; "" when the
	 * evaluator's own worker ran them. JSON "worker" (absent when ""). */
	char worker[160];

	rung_step steps[RUNG_NSTEPS];
	rung_compile_info compile;
	char *compile_log;   /* owned, may be NULL */

	/* The check rung's second run of the run case (docs/CHECKS.md): elements of
	 * the outputs that differed from the first run (-1 when not run) and their
	 * largest difference; fails the check unless [check] deterministic = false. */
	int64_t nondet_elements;
	double nondet_max_abs;

	rung_dimset run_dims; /* the benchmark shape */
	double run_ms;
	bool run_finite;

	int nmetrics;
	rung_check_metric *metrics; /* owned */
	int nshapes, nseeds;
	int ninputs;                   /* distributions checked: 0 or 1 = normal only */
	rung_dist inputs[RUNG_NDISTS]; /* inputs[0] normal, then the spec's others */

	rung_bench bench;
	rung_env env;

	int nsuspects;
	rung_suspect suspects[RUNG_MAX_SUSPECTS]; /* evidence, in the order found */

	/* The sanitize rung: the compute-sanitizer tools that ran (RUNG_SAN_BIT
	 * mask; 0: it did not run) and their findings, the candidate's first,
	 * then the reference's, then the host's (core/sanitize.h). */
	unsigned sanitize_tools;
	int nsanitize;
	rung_san_finding sanitize[RUNG_SAN_MAX_FINDINGS];
	/* Its cost and reach, per tool (index rung_san_tool): the wall time of the
	 * run at the smallest check shape and of the run at the benchmark shape
	 * (0: not run), and how the benchmark shape was covered; the cost limit
	 * the bench-shape runs had (seconds without progress, 0: not recorded).
	 * In the result JSON as "sanitize_cost" (docs/RESULT-JSON.md). */
	double sanitize_ms[RUNG_NSAN_TOOLS], sanitize_bench_ms[RUNG_NSAN_TOOLS];
	rung_san_bench sanitize_bench[RUNG_NSAN_TOOLS];
	double sanitize_bench_limit_s;

	bool impossible; /* faster than the roofline floor */
	double floor_ms; /* roofline time floor at the benchmark shape (NAN if unknown) */

	int ncounters;
	rung_counter *counters; /* profile counters (owned) */

	/* Worker side data of a profile run (owned JSON object text, or NULL):
	 * {"sass": {...}} per-PC counts, {"trace": {...}} intra-kernel trace
	 * (core/sass_prof.h, core/trace.h). In the result JSON as "aux" only when
	 * set; stored in the store's profile_extra table, not with the result. */
	char *aux;

	/* What the kernel printed (device printf, assert messages: the worker's
	 * stdout and stderr during the job), captured by the parent
	 * (docs/ARCHITECTURE.md, "Kernel output"): the first RUNG_OUTPUT_KEEP bytes
	 * as UTF-8 text (core/inert.h rung_inert_utf8: invalid bytes as \xNN;
	 * controls kept, so it is shown only through rung_inert or the TUI's
	 * sanitizer), owned, NULL when nothing was printed. output_bytes counts all
	 * the bytes printed, output_dropped those beyond the first RUNG_OUTPUT_KEEP. */
	char *output;
	int64_t output_bytes, output_dropped;

	/* GPU busy time of the worker's job (`rung eval --stats`, RUNG_JOB_STATS):
	 * the sum of the durations of every kernel that ran in it, rung's own
	 * included, from CUPTI's kernel records, and how many; gpu_kernels 0 and
	 * gpu_busy_ms NAN when not measured. In the result JSON only when set. */
	double gpu_busy_ms;
	int64_t gpu_kernels;
} rung_result;

#define RUNG_OUTPUT_KEEP (64 * 1024)

void rung_result_init(rung_result *r);  /* zeroes, sets NANs for absent values */
void rung_result_clear(rung_result *r); /* frees owned memory, then init */
/* Overall status: FAILED if any step FAILED, OK if all run steps OK, else the first non-ok. */
rung_status rung_result_status(const rung_result *r);
/* Step s, or, when it did not run (NONE), the earlier step that stopped it
 * (SKIPPED or FAILED): what a report of s should say ("SKIPPED no CUDA
 * driver"). */
const rung_step *rung_result_step_or_cause(const rung_result *r, rung_step_id s);
/* "check: C: 12 of 4096 elements ..." of the first failed step, or "" */
const char *rung_result_reason(const rung_result *r);

/* A result's max_rel: the largest of its metrics' max_rel (every shape, seed
 * and input distribution), NAN ones skipped; NAN when none is a number. The
 * one value every view shows as the version's max_rel. */
double rung_result_max_rel(const rung_result *r);
/* A max_rel as every view writes it: "4.50e+01" (3 significant digits), "inf",
 * or "-" for NAN (not checked). Returns buf. */
const char *rung_fmt_max_rel(char *buf, size_t len, double v);

/* How many (shape, seed, distribution) cases the run and check rungs ran:
 * (nshapes - 1) * nseeds + 1 for normal (the benchmark shape with the first seed
 * only), plus nshapes - 1 per further distribution (first seed; 1 when the
 * benchmark shape is the only shape). 0 when nshapes is 0. Equals
 * rung_plan_cases (gpu/plan.h) on the plan that produced the result. */
int rung_result_runs(const rung_result *r);
/* "normal, wide" into buf: the distributions checked. */
void rung_result_inputs_str(char *buf, size_t len, const rung_result *r);

/* Appends a suspect (one of each kind: a second of the same kind is dropped;
 * beyond RUNG_MAX_SUSPECTS the rest are dropped). */
void rung_result_add_suspect(rung_result *r, rung_suspect_kind k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The suspect of kind k, or NULL. */
const rung_suspect *rung_result_suspect(const rung_result *r, rung_suspect_kind k);
/* Removes the suspect of kind k (the others keep their order). */
void rung_result_drop_suspect(rung_result *r, rung_suspect_kind k);
/* Keeps the impossible suspect in step with r->impossible: added with its
 * reason (median against floor_ms) when set, dropped when not. The
 * speed-of-light guard calls it; reading a record that has the flag but not
 * the suspect (an older rung's) adds it, so all evidence is in one list. */
void rung_result_sync_impossible(rung_result *r);

/* Adds the findings of one tool's report (in the order candidate, reference,
 * host; beyond RUNG_SAN_MAX_FINDINGS a host finding gives way to a device one,
 * the rest are dropped) and marks the tool as run. */
void rung_result_sanitize_add(rung_result *r, const rung_san_report *rep);
/* Sets the sanitize step from the findings: FAILED with the candidate's first
 * finding ("racecheck: race between read at k.cu:10 and write at k.cu:13
 * (25776 hazards)"); else FAILED "reference failed: ..." with the reference's
 * first; else FAILED with `incomplete` (why a tool gave no report) when set;
 * else OK "no findings (memcheck, racecheck)". Host findings never fail. */
void rung_result_sanitize_judge(rung_result *r, const char *incomplete);
/* Copies the sanitize rung (step, tools, findings) from src into dst. */
void rung_result_sanitize_copy(rung_result *dst, const rung_result *src);

/* JSON (compact, one line; caller frees with free()). */
char *rung_result_to_json(const rung_result *r);
int rung_result_from_json(rung_result *out, const char *json);

#endif

/* Inside the worker process (gpu/worker_main.c, worker_job.c, worker_bench.c):
 * the device context and one job's state. Not part of the public API. */
#ifndef RUNG_GPU_WORKER_CHILD_H
#define RUNG_GPU_WORKER_CHILD_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"
#include "gpu/driver.h"
#include "gpu/plan.h"
#include "gpu/protocol.h"
#include "gpu/worker.h"

typedef struct {
	int out_fd;
	CUdevice dev;
	CUcontext ctx;
	CUstream stream;
	int max_block_threads, smem_optin, l2_bytes;
	int max_clock_mhz; /* NVML max SM clock, else the device attribute; 0 unknown */
	bool nvml;
	rung_env env;
	CUdeviceptr flush; /* L2 flush scratch (lazily allocated) */
	size_t flush_bytes;
} rung_wctx;

/* Device buffer with guard bands: base .. base+total; payload at ptr. */
typedef struct {
	CUdeviceptr base, ptr;
	size_t bytes, total;
} rung_dbuf;

/* The bench rung's input sets at the benchmark shape (worker_bench.c): set 0
 * holds the run case's inputs, set 1 the same with about one element in 64
 * moved (positions from a nonce the kernel cannot know). Each has the
 * reference's outputs for it. Prepared while the run case is checked, on a
 * stream of its own, so the reference's second launch overlaps the host's
 * checks. */
#define RUNG_BENCH_SETS 2
typedef struct {
	int nsets;              /* 2, 1 when a second did not fit, 0 before the run case */
	bool pending;           /* work queued on st */
	CUstream st;
	CUdeviceptr in[RUNG_BENCH_SETS][RUNG_MAX_ARGS];  /* pristine inputs and inouts */
	rung_dbuf out[RUNG_BENCH_SETS][RUNG_MAX_ARGS];   /* the reference's outputs (and inouts) */
	double peak[RUNG_BENCH_SETS][RUNG_MAX_ARGS];      /* max |finite| of those */
	CUdeviceptr peak_dev;   /* set 1's peaks, RUNG_MAX_ARGS u64 */
	char note[256];         /* why only one set */
} rung_bset;

typedef struct {
	rung_wctx *c;
	const rung_plan *p;
	rung_result *res;
	CUmodule kmod, rmod;
	CUfunction kfn, rfn;
	int kstatic_smem, rstatic_smem;
	bool fatal; /* a sticky error happened: report, then exit */
	/* The run case's candidate buffers (benchmark shape, first seed), kept for the
	 * bench so that its inputs need not be generated and uploaded again. */
	rung_dbuf keep[RUNG_MAX_ARGS];
	bool have_keep;
	/* The candidate's CUBIN, loaded again before the bench (no state carries
	 * over from checking to timing). */
	const void *kcubin;
	size_t kcubin_len;
	rung_bset bset;
	/* A "reference failed: ..." reason was written (the reference or the
	 * golden files, not the candidate): the FAILED rung gets RUNG_CAUSE_REFERENCE. */
	bool ref_failed;
} rung_wjob;

/* Device printf FIFO of the worker's context (bytes; the driver's default is 1 MiB). */
#define RUNG_PRINTF_FIFO (16 * 1024 * 1024)

/* Writes a message to the parent, after flushing stdout and stderr (the
 * kernel's output comes before the message that follows it). Every message
 * the worker sends goes through here. */
int rung__wsend(rung_wctx *c, json_t *hdr, const rung_blob *blobs, int nblobs);

/* An argument the kernel writes (output or inout), or reads (input or inout). */
static inline bool rung__is_out(const rung_plan_arg *a)
{
	return a->kind == RUNG_ARG_OUTPUT || a->kind == RUNG_ARG_INOUT;
}
static inline bool rung__has_input(const rung_plan_arg *a)
{
	return a->kind == RUNG_ARG_INPUT || a->kind == RUNG_ARG_INOUT;
}

/* Sends {"type":"progress","step":...,"frac":...,"msg":...}. */
void rung__wprogress(rung_wctx *c, rung_step_id step, double frac, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* snprintf without the truncation warnings: messages are cut, by design. */
void rung__sfmt(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Sets a step's status and reason. */
void rung__wstep(rung_result *r, rung_step_id s, rung_status st, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Runs run + check (+ bench) for one plan into res. Module images are the
 * job's blobs. Never fails: every problem becomes a step verdict. */
void rung__wjob_run(rung_wctx *c, const rung_plan *p, const void *kcubin, size_t kcubin_len, const void *rcubin,
		    size_t rcubin_len, rung_result *res, bool *fatal);

/* --- shared by worker_job.c and worker_bench.c --- */


/* Kernel parameter storage for one argument. */
typedef union {
	CUdeviceptr p;
	double f64;
	float f32;
	int64_t i64;
	int32_t i32;
	uint16_t h16;
	uint8_t u8;
} rung_kparam;

/* Fills a scalar parameter from the shape's value for arg i. */
void rung__scalar_param(rung_kparam *kp, const rung_plan *p, const rung_plan_shape *sh, int i);
/* Host input data for arg i at (shape, seed): generated or loaded from .npy.
 * Returns malloc'd bytes or NULL with reason set. */
void *rung__make_input(const rung_plan *p, const rung_plan_shape *sh, int i, uint64_t seed, char *reason,
		       size_t rlen);
CUresult rung__launch(rung_wctx *c, CUfunction f, const rung_geom *g, void **params);
/* Describes a launch/sync failure: "illegal memory access (CUDA_ERROR_ILLEGAL_ADDRESS) in sgemm". */
void rung__describe_fault(char *buf, size_t len, CUresult r, const char *what);

/* Loads a CUBIN and finds the kernel; 1 with reason on failure. */
int rung__load_fn(rung_wjob *j, const void *img, size_t len, const rung_plan_kernel *kn, CUmodule *mod,
		  CUfunction *fn, int *static_smem, char *reason, size_t rlen);
/* Checks every shape's geometry (ref: the reference's) against the device and
 * the function; opts in to > 48 KiB dynamic shared memory. 1 with reason. */
int rung__check_geometry(rung_wjob *j, CUfunction fn, int static_smem, bool ref, const char *name, char *reason,
			 size_t rlen);

/* Frees the kept run-case buffers (if the bench did not take them). */
void rung__keep_free(rung_wjob *j);

/* Input sets for the bench (worker_bench.c): queued while the run case is
 * checked, from the reference's buffers `ref` of that case (its inputs pristine,
 * its outputs the expected ones), right after the candidate's launch. */
void rung__bench_prep(rung_wjob *j, const rung_plan_shape *sh, rung_dbuf *ref);
/* The run case passed: set 0's expected outputs are moved out of ref (which
 * then no longer owns them), with their peaks. */
void rung__bench_prep_keep(rung_wjob *j, rung_dbuf *ref, const double *peak);
void rung__bset_free(rung_wjob *j);
/* The check rung's second run of the run case (worker_bench.c): the kept
 * buffers run again with the other poison and the shared memory filled, and
 * the outputs must be bit-identical (or, with [check] deterministic = false,
 * their difference is reported). Returns 0, 1 with reason (check FAILED), or -1
 * with reason (a fault). */
int rung__determinism(rung_wjob *j, char *reason, size_t rlen);

/* The bench rung at the benchmark shape (worker_bench.c). */
void rung__wbench(rung_wjob *j);
/* Buffers at the benchmark shape with the first seed's inputs, and the kernel
 * parameters pointing at them. 1 on failure (bench step FAILED with reason). */
int rung__bench_buffers(rung_wjob *j, rung_dbuf *buf, rung_kparam *kp, void **params);
bool rung__flush_ready(rung_wctx *c);
CUresult rung__flush_l2(rung_wctx *c);

/* A/B timing (worker_compare.c): answers a "compare" message. Returns true
 * after a sticky error. */
bool rung__wcompare(rung_wctx *c, const json_t *msg, const rung_blob *blobs, int nblobs);

/* The profile rung (worker_profile.c): CUPTI counters at the benchmark shape. */
void rung__wprofile(rung_wjob *j);
/* Per-PC SASS counts (worker_sass.c, RUNG_JOB_SASS) and the rung.h trace
 * (worker_trace.c, RUNG_JOB_TRACE): result.aux. */
void rung__wsass(rung_wjob *j);
void rung__wtrace(rung_wjob *j);

/* Roofline ceilings (worker_ceil.c): answers a "ceilings" message. Returns
 * true after a sticky error. */
bool rung__wceilings(rung_wctx *c, const json_t *msg, const rung_blob *blobs, int nblobs);

#endif

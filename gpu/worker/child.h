/* Inside the worker process (every file of gpu/worker/): the device context,
 * one job's state and the types every layer of the worker shares; no
 * functions (each file's header declares its own, docs/ARCHITECTURE.md gives
 * their order). Not part of the public API. */
#ifndef RUNG_GPU_WORKER_CHILD_H
#define RUNG_GPU_WORKER_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* Device buffer with guard bands: base .. base+total; payload at ptr. The
 * bands hold the bytes of key `band` (core/guard_hd.h). */
typedef struct {
	CUdeviceptr base, ptr;
	size_t bytes, total;
	uint64_t band;
	bool bare; /* no guard bands: exactly `bytes` (a sanitize run, where memcheck sees every access past the end) */
} rung_dbuf;

/* The bench rung's input sets at the benchmark shape (gpu/worker/bset.c): set 0
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
	/* The guard-band key of this job's buffers, drawn from the nonce when the
	 * job starts (the poison key is set then too: core/guard.h). */
	uint64_t band_key;
	/* The case being run is judged but stores no metric row (the declared
	 * distributions' one run each at the benchmark shape: job.c). */
	bool no_rows;
} rung_wjob;

/* Device printf FIFO of the worker's context (bytes; the driver's default is 1 MiB). */
#define RUNG_PRINTF_FIFO (16 * 1024 * 1024)

/* An argument the kernel writes (output or inout), or reads (input or inout). */
static inline bool rung__is_out(const rung_plan_arg *a)
{
	return a->kind == RUNG_ARG_OUTPUT || a->kind == RUNG_ARG_INOUT;
}
static inline bool rung__has_input(const rung_plan_arg *a)
{
	return a->kind == RUNG_ARG_INPUT || a->kind == RUNG_ARG_INOUT;
}

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

#endif

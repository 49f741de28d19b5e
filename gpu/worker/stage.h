/* The worker's host staging slabs (gpu/worker/stage.c): four 4 MiB buffers,
 * page-locked where the driver gives them, through which inputs are uploaded
 * and outputs read back in slabs, and the double-buffered readback walk over
 * device arrays. Inside the worker only. */
#ifndef RUNG_GPU_WORKER_STAGE_H
#define RUNG_GPU_WORKER_STAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/worker/child.h"

/* Allocates the slabs on first use (they are kept for the process's life);
 * false when host memory is out. */
bool rung__stage_ready(void);
/* Slab b (0..3). */
char *rung__stage(int b);
/* Waits for slab b's last async copy. */
CUresult rung__stage_wait(int b);
/* Waits for every slab (first error wins). */
CUresult rung__stage_drain(void);
/* After issuing an async copy from or into slab b on stream st. Without an
 * event, waits for the stream instead. */
CUresult rung__stage_mark(int b, CUstream st);
/* Elements of es bytes per slab: a multiple of the metrics chunk. */
int64_t rung__slab_elems(size_t es);

/* Chunks of RUNG_METRICS_CHUNK elements in n. */
int64_t rung__nchunks(int64_t n);
/* A 64-bit hash of len bytes (per chunk: "input unchanged", "reference unchanged"):
 * rung_hd_hash_term/final of core/metrics_hd.h, which the device computes too. */
uint64_t rung__hash_bytes(const void *p, size_t len);

/* A double-buffered walk over nsrc (1 or 2) device arrays of n elements in
 * slabs: rung__walk_next returns the next slab (its data in the staging slabs:
 * 0 and 1 for one array, 0..3 for two) while the one after it is being copied. */
typedef struct {
	rung_wjob *j;
	const CUdeviceptr *src;
	int nsrc, p;
	size_t es;
	int64_t n, slab, s; /* s: start of the slab rung__walk_next hands out next */
} rung_slab_walk;

CUresult rung__walk_start(rung_slab_walk *w, rung_wjob *j, const CUdeviceptr *src, int nsrc, size_t es, int64_t n);
/* The next slab: *s0, *cnt and its buffers bufs[0..nsrc-1]. Returns 0 when the
 * walk is over, 1 with a slab, or -1 with *err set (every copy drained). */
int rung__walk_next(rung_slab_walk *w, int64_t *s0, int64_t *cnt, char **bufs, CUresult *err);

#endif

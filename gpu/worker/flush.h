/* The L2 flush before every bench, compare and profile sample
 * (gpu/worker/flush.c). Inside the worker only. */
#ifndef RUNG_GPU_WORKER_FLUSH_H
#define RUNG_GPU_WORKER_FLUSH_H

#include <stdbool.h>

#include "gpu/worker/child.h"

/* Allocates the scratch buffer (twice the L2) and loads the sweep once; false
 * when the buffer does not fit. */
bool rung__flush_ready(rung_wctx *c);
/* Queues the flush on the worker's stream (with RUNG_FLUSH_GAP_US, waits for
 * it and then the gap). */
CUresult rung__flush_l2(rung_wctx *c);
/* Queues rung's empty kernel (rung_empty: one block, nothing done) after
 * rung__flush_ready; CUDA_ERROR_NOT_FOUND when its module did not load. */
CUresult rung__empty_launch(rung_wctx *c);

#endif

/* A/B timing inside the worker (gpu/worker/compare.c). Inside the worker only. */
#ifndef RUNG_GPU_WORKER_COMPARE_H
#define RUNG_GPU_WORKER_COMPARE_H

#include <stdbool.h>

#include "gpu/worker/child.h"

/* Answers a "compare" message. Returns true after a sticky error. */
bool rung__wcompare(rung_wctx *c, const json_t *msg, const rung_blob *blobs, int nblobs);

#endif

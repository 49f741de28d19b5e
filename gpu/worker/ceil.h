/* Roofline ceilings inside the worker (gpu/worker/ceil.c). Inside the worker only. */
#ifndef RUNG_GPU_WORKER_CEIL_H
#define RUNG_GPU_WORKER_CEIL_H

#include <stdbool.h>

#include "gpu/worker/child.h"

/* Answers a "ceilings" message. Returns true after a sticky error. */
bool rung__wceilings(rung_wctx *c, const json_t *msg, const rung_blob *blobs, int nblobs);

#endif

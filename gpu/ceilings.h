/* `rung ceilings`: measures the device's roofline ceilings in the worker
 * (docs/ARCHITECTURE.md, "Roofline and profiling"). Kernels are source strings
 * compiled with NVRTC in the parent and sent as one CUBIN; the worker times
 * each with CUPTI activity records (CUDA events without CUPTI) and reports the
 * best of several launches:
 *   dram  a copy of 1 GiB into 1 GiB (bytes read + written)
 *   l2    a copy between two buffers that together fit in a third of L2, repeated in the kernel
 *   l1    128-bit ld.global.ca loads of one 16 KiB working set, read over and over by every
 *         block (bytes read; L1-resident after the first pass)
 *   fp32  a register-resident FFMA loop (8 independent chains per thread)
 *   fp64  the same with DFMA
 *   bf16  mma.sync.m16n8k16 BF16 -> F32 in a loop (4 independent accumulators per warp)
 *   tf32  mma.sync.m16n8k8 TF32 -> F32 in a loop
 * mma.sync is the portable tensor path; on sm_90 wgmma reaches more, so the
 * measured tensor figures sit below the datasheet ones (the guard takes the higher). */
#ifndef RUNG_GPU_CEILINGS_H
#define RUNG_GPU_CEILINGS_H

#include "core/result.h"
#include "core/roofline.h"
#include "gpu/worker.h"

/* The CUDA source of the ceiling kernels (extern "C": ceil_copy, ceil_l1, ceil_ffma,
 * ceil_dfma, ceil_mma_bf16, ceil_mma_tf32). */
const char *rung_ceilings_source(void);

/* Measures into *out (every value measured, or absent with src NONE) and
 * copies the device environment into *env. RUNG_ENODEV without a GPU; faults
 * and compile failures are errors with a message (none is expected). */
int rung_worker_ceilings(rung_ceilings *out, rung_env *env, rung_worker *w, rung_progress_fn cb, void *ud);

#endif

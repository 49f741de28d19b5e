/* ptxas as a subprocess, for kernels committed as PTX (a Triton or hand-written
 * .ptx version): rung builds the command line itself (`ptxas -arch=sm_XX -v
 * -lineinfo -o OUT IN`, both files in a private temporary directory), so no
 * spec key, sidecar or note reaches it. Without ptxas the PTX goes to the worker
 * as it is and the driver JIT-compiles it there (gpu/compile.c). */
#ifndef RUNG_GPU_PTXAS_RUN_H
#define RUNG_GPU_PTXAS_RUN_H

#include <stddef.h>

/* Where ptxas is, or NULL. Looked up once per process: $RUNG_PTXAS (if set, only
 * there; empty: none, the driver JITs), PATH, $CUDA_HOME/bin, the toolkit rung
 * was built with, /usr/local/cuda/bin, then the ptxas that Triton bundles
 * (site-packages/triton/backends/nvidia/bin/ptxas) and the pip package
 * (site-packages/nvidia/cuda_nvcc/bin/ptxas). */
const char *rung_ptxas_path(void);

/* Assembles ptx (len bytes) for arch ("sm_90") into *cubin (caller frees) with
 * its -v log in *log (caller frees; also on failure, NULL if none). Returns 0;
 * RUNG_ENOTFOUND without ptxas; RUNG_ECOMPILE when ptxas rejects the PTX (the
 * log says why); RUNG_EIO, RUNG_ETIMEOUT (60 s), RUNG_ENOMEM. */
int rung_ptxas_run(void **cubin, size_t *cubin_len, char **log, const char *ptx, size_t len, const char *arch);

#endif

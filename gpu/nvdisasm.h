/* SASS from a CUBIN through the nvdisasm tool (run as a subprocess: NVIDIA ships
 * no disassembler library). Without nvdisasm, SASS is reported unavailable and
 * everything else works. */
#ifndef RUNG_GPU_NVDISASM_H
#define RUNG_GPU_NVDISASM_H

#include <stddef.h>

/* Where nvdisasm is, or NULL. Looked up once per process: $RUNG_NVDISASM (if set,
 * only there), PATH, $CUDA_HOME/bin, the toolkit rung was built with,
 * /usr/local/cuda/bin, $CONDA_PREFIX/bin, then the pip package
 * (site-packages/nvidia/<pkg>/bin/nvdisasm under the usual Python prefixes). */
const char *rung_nvdisasm_path(void);

/* Disassembles a CUBIN with `nvdisasm -c -gi` (code sections, default labels,
 * line info with inline chains from a -lineinfo build: core/sass.h reads it)
 * into *out_text (caller frees); an nvdisasm that rejects -gi is run again
 * with `-c` alone. Returns 0; RUNG_ENOTFOUND with "nvdisasm not found
 * (pip install nvidia-cuda-nvdisasm)"; RUNG_EIO when nvdisasm fails (its first
 * stderr line is in the message); RUNG_ETIMEOUT after 60 s. */
int rung_sass_from_cubin(char **out_text, const void *cubin, size_t len);

#endif

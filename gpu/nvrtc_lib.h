/* NVRTC, loaded at run time on the first compile of CUDA C (dlopen
 * libnvrtc.so.<CUDA major>, then the toolkit's library directory rung was
 * built against; $RUNG_NVRTC_LIBRARY, when set, names the file to load
 * instead); libnvrtc is never linked, so a process that compiles
 * nothing (the workbench's first frame, the worker, rung log) does not pay for
 * its 100 MB and 200,000 relocations. The table follows gpu/driver.h: one list
 * of symbols, file-static loading, types from nvrtc.h (checked against it at
 * build time), no symbol referenced at link time. A missing library is a
 * clear error naming it: RUNG_EUNSUPPORTED, "NVRTC not found
 * (libnvrtc.so.13): ...". */
#ifndef RUNG_GPU_NVRTC_LIB_H
#define RUNG_GPU_NVRTC_LIB_H

#include <stdbool.h>

#include <nvrtc.h>

/* _(symbol, return type, parameter types) */
#define RUNG_NVRTC_LIST(_) \
	_(nvrtcVersion, nvrtcResult, (int *, int *)) \
	_(nvrtcGetNumSupportedArchs, nvrtcResult, (int *)) \
	_(nvrtcGetSupportedArchs, nvrtcResult, (int *)) \
	_(nvrtcGetErrorString, const char *, (nvrtcResult)) \
	_(nvrtcCreateProgram, nvrtcResult, (nvrtcProgram *, const char *, const char *, int, const char *const *, \
	                                     const char *const *)) \
	_(nvrtcAddNameExpression, nvrtcResult, (nvrtcProgram, const char *const)) \
	_(nvrtcCompileProgram, nvrtcResult, (nvrtcProgram, int, const char *const *)) \
	_(nvrtcGetProgramLogSize, nvrtcResult, (nvrtcProgram, size_t *)) \
	_(nvrtcGetProgramLog, nvrtcResult, (nvrtcProgram, char *)) \
	_(nvrtcGetLoweredName, nvrtcResult, (nvrtcProgram, const char *const, const char **)) \
	_(nvrtcGetPTXSize, nvrtcResult, (nvrtcProgram, size_t *)) \
	_(nvrtcGetPTX, nvrtcResult, (nvrtcProgram, char *)) \
	_(nvrtcGetCUBINSize, nvrtcResult, (nvrtcProgram, size_t *)) \
	_(nvrtcGetCUBIN, nvrtcResult, (nvrtcProgram, char *)) \
	_(nvrtcDestroyProgram, nvrtcResult, (nvrtcProgram *))

typedef struct {
#define RUNG_NVRTC_FIELD(name, ret, args) ret (*name) args;
	RUNG_NVRTC_LIST(RUNG_NVRTC_FIELD)
#undef RUNG_NVRTC_FIELD
} rung_nvrtc_api;

/* The loaded table (valid after rung_nvrtc_load() returned 0). */
extern rung_nvrtc_api rung_nvrtc;

/* Loads NVRTC and resolves every symbol, once (thread-safe; later calls give
 * the first call's answer). RUNG_EUNSUPPORTED with "NVRTC not found
 * (libnvrtc.so.13): ..." or "... lacks nvrtcX" when it cannot. */
int rung_nvrtc_load(void);
/* Whether this process has loaded it (for tests: the worker must not). */
bool rung_nvrtc_loaded(void);
/* The library file it was loaded from ("" before, or when not found). */
const char *rung_nvrtc_path(void);

#endif

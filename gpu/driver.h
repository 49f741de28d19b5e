/* The CUDA driver API, loaded at run time (dlopen libcuda.so.1 +
 * cuGetProcAddress_v2); libcuda is never linked. Only the worker process calls
 * this. A missing driver is a normal state: rung_driver_load() returns
 * RUNG_ENODEV with "no CUDA driver found (libcuda.so.1)". */
#ifndef RUNG_GPU_DRIVER_H
#define RUNG_GPU_DRIVER_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda.h>
#include <cudaTypedefs.h>

/* _(symbol, PFN version from cudaTypedefs.h, required). The version selects the
 * ABI (cuMemAlloc at 2000 is the 32-bit one; cuCtxSynchronize at 13000 takes a
 * context), so it is the PFN's own version, never CUDA_VERSION. */
#define RUNG_CU_LIST(_) \
	_(cuInit, 2000, 1) \
	_(cuDriverGetVersion, 2020, 1) \
	_(cuDeviceGet, 2000, 1) \
	_(cuDeviceGetCount, 2000, 1) \
	_(cuDeviceGetName, 2000, 1) \
	_(cuDeviceGetUuid, 11040, 0) \
	_(cuDeviceGetAttribute, 2000, 1) \
	_(cuDeviceTotalMem, 3020, 1) \
	_(cuDevicePrimaryCtxRetain, 7000, 1) \
	_(cuDevicePrimaryCtxRelease, 11000, 0) \
	_(cuCtxSetCurrent, 4000, 1) \
	_(cuCtxSynchronize, 2000, 1) \
	_(cuCtxGetLimit, 3010, 0) \
	_(cuCtxSetLimit, 3010, 0) \
	_(cuCtxResetPersistingL2Cache, 11000, 0) \
	_(cuModuleLoadData, 2000, 1) \
	_(cuModuleUnload, 2000, 1) \
	_(cuModuleGetFunction, 2000, 1) \
	_(cuModuleGetGlobal, 3020, 0) \
	_(cuFuncSetAttribute, 9000, 1) \
	_(cuFuncGetAttribute, 2020, 1) \
	_(cuLaunchKernel, 4000, 1) \
	_(cuMemAlloc, 3020, 1) \
	_(cuMemFree, 3020, 1) \
	_(cuMemGetInfo, 3020, 1) \
	_(cuMemcpyHtoD, 3020, 1) \
	_(cuMemcpyDtoH, 3020, 1) \
	_(cuMemcpyHtoDAsync, 3020, 1) \
	_(cuMemcpyDtoHAsync, 3020, 1) \
	_(cuMemcpyDtoDAsync, 3020, 1) \
	_(cuMemHostAlloc, 2020, 0) \
	_(cuMemsetD8, 3020, 1) \
	_(cuMemsetD16, 3020, 1) \
	_(cuMemsetD32, 3020, 1) \
	_(cuMemsetD32Async, 3020, 1) \
	_(cuMemsetD16Async, 3020, 1) \
	_(cuMemsetD8Async, 3020, 1) \
	_(cuStreamWaitEvent, 3020, 1) \
	_(cuStreamCreate, 2000, 1) \
	_(cuStreamCreateWithPriority, 5050, 0) \
	_(cuCtxGetStreamPriorityRange, 5050, 0) \
	_(cuStreamDestroy, 4000, 1) \
	_(cuStreamSynchronize, 2000, 1) \
	_(cuEventCreate, 2000, 1) \
	_(cuEventDestroy, 4000, 1) \
	_(cuEventRecord, 2000, 1) \
	_(cuEventSynchronize, 2000, 1) \
	_(cuEventElapsedTime, 2000, 1) \
	_(cuGetErrorName, 6000, 1) \
	_(cuGetErrorString, 6000, 1)

typedef struct {
#define RUNG_CU_FIELD(name, ver, req) PFN_##name##_v##ver name;
	RUNG_CU_LIST(RUNG_CU_FIELD)
#undef RUNG_CU_FIELD
} rung_cu_api;

/* The loaded table (valid after rung_driver_load() returned 0). Optional
 * entries (third column 0) may be NULL: check before use. */
extern rung_cu_api rung_cu;

/* Loads libcuda.so.1, resolves every symbol and calls cuInit(0). Idempotent.
 * RUNG_ENODEV: no driver ("no CUDA driver found (libcuda.so.1)") or no device
 * ("no CUDA device found (cuInit: CUDA_ERROR_NO_DEVICE)"); RUNG_ECUDA: a
 * required symbol is missing (driver too old). */
int rung_driver_load(void);
bool rung_driver_loaded(void);

/* "CUDA_ERROR_ILLEGAL_ADDRESS" (works without a driver: known codes are built in). */
const char *rung_cu_errname(CUresult r);
/* "illegal memory access (CUDA_ERROR_ILLEGAL_ADDRESS)" */
void rung_cu_describe(char *buf, size_t len, CUresult r);
/* True for errors that poison the context until the process exits
 * (illegal address, kernel fault, assert, ...): the worker must restart. */
bool rung_cu_is_sticky(CUresult r);

#endif

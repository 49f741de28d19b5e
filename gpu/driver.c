#include "gpu/driver.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"

rung_cu_api rung_cu;

static void *lib;
static bool loaded;

bool rung_driver_loaded(void)
{
	return loaded;
}

int rung_driver_load(void)
{
	if (loaded)
		return 0;
	if (!lib)
		lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return rung_error_set(RUNG_ENODEV, "no CUDA driver found (libcuda.so.1)");
	PFN_cuGetProcAddress_v12000 gpa;
	*(void **)&gpa = dlsym(lib, "cuGetProcAddress_v2");
	if (!gpa)
		return rung_error_set(RUNG_ECUDA, "CUDA driver too old: libcuda.so.1 has no cuGetProcAddress_v2 (need a CUDA 12+ driver)");

	memset(&rung_cu, 0, sizeof(rung_cu));
#define RUNG_CU_RESOLVE(name, ver, req) \
	do { \
		void *p = NULL; \
		CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND; \
		CUresult r = gpa(#name, &p, ver, CU_GET_PROC_ADDRESS_DEFAULT, &st); \
		if (r != CUDA_SUCCESS || st != CU_GET_PROC_ADDRESS_SUCCESS || !p) { \
			p = NULL; \
			if (req) \
				return rung_error_set(RUNG_ECUDA, "CUDA driver lacks %s (version %d): driver too old?", #name, ver); \
		} \
		*(void **)&rung_cu.name = p; \
	} while (0);
	RUNG_CU_LIST(RUNG_CU_RESOLVE)
#undef RUNG_CU_RESOLVE

	CUresult r = rung_cu.cuInit(0);
	if (r != CUDA_SUCCESS) {
		int code = (r == CUDA_ERROR_NO_DEVICE || r == CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)
			? RUNG_ENODEV : RUNG_ECUDA;
		if (r == CUDA_ERROR_NO_DEVICE)
			return rung_error_set(code, "no CUDA device found (cuInit: %s)", rung_cu_errname(r));
		char d[160];
		rung_cu_describe(d, sizeof(d), r);
		return rung_error_set(code, "CUDA driver failed to initialise (cuInit: %s)", d);
	}
	int n = 0;
	r = rung_cu.cuDeviceGetCount(&n);
	if (r != CUDA_SUCCESS || n < 1)
		return rung_error_set(RUNG_ENODEV, "no CUDA device found (cuDeviceGetCount: %d devices)", n);
	loaded = true;
	return 0;
}

/* Built-in names so messages work without a driver (and for codes the driver
 * does not name). Descriptions are short and plain. */
#define RUNG_CU_ERRORS(_) \
	_(CUDA_SUCCESS, "no error") \
	_(CUDA_ERROR_INVALID_VALUE, "invalid argument") \
	_(CUDA_ERROR_OUT_OF_MEMORY, "out of device memory") \
	_(CUDA_ERROR_NOT_INITIALIZED, "driver not initialised") \
	_(CUDA_ERROR_NO_DEVICE, "no CUDA device") \
	_(CUDA_ERROR_INVALID_DEVICE, "invalid device") \
	_(CUDA_ERROR_INVALID_IMAGE, "invalid kernel image") \
	_(CUDA_ERROR_INVALID_CONTEXT, "invalid context") \
	_(CUDA_ERROR_NO_BINARY_FOR_GPU, "no kernel image for this GPU (wrong arch?)") \
	_(CUDA_ERROR_NOT_FOUND, "symbol not found") \
	_(CUDA_ERROR_INVALID_HANDLE, "invalid handle") \
	_(CUDA_ERROR_ILLEGAL_STATE, "illegal state") \
	_(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "too many resources requested for launch (registers x threads?)") \
	_(CUDA_ERROR_LAUNCH_TIMEOUT, "kernel timed out") \
	_(CUDA_ERROR_ILLEGAL_ADDRESS, "illegal memory access") \
	_(CUDA_ERROR_ASSERT, "device-side assert triggered") \
	_(CUDA_ERROR_HARDWARE_STACK_ERROR, "hardware stack error (stack overflow?)") \
	_(CUDA_ERROR_ILLEGAL_INSTRUCTION, "illegal instruction") \
	_(CUDA_ERROR_MISALIGNED_ADDRESS, "misaligned address") \
	_(CUDA_ERROR_INVALID_ADDRESS_SPACE, "invalid address space") \
	_(CUDA_ERROR_INVALID_PC, "invalid program counter") \
	_(CUDA_ERROR_LAUNCH_FAILED, "kernel fault (unspecified launch failure)") \
	_(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "cooperative launch too large") \
	_(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "unsupported PTX version (driver older than NVRTC?)") \
	_(CUDA_ERROR_UNKNOWN, "unknown error")

const char *rung_cu_errname(CUresult r)
{
	switch (r) {
#define RUNG_CU_ERRCASE(code, desc) case code: return #code;
		RUNG_CU_ERRORS(RUNG_CU_ERRCASE)
#undef RUNG_CU_ERRCASE
	default:
		break;
	}
	const char *s = NULL;
	if (rung_cu.cuGetErrorName && rung_cu.cuGetErrorName(r, &s) == CUDA_SUCCESS && s)
		return s;
	static _Thread_local char buf[32];
	snprintf(buf, sizeof(buf), "CUresult %d", (int)r);
	return buf;
}

void rung_cu_describe(char *buf, size_t len, CUresult r)
{
	const char *desc = NULL;
	switch (r) {
#define RUNG_CU_ERRDESC(code, d) case code: desc = d; break;
		RUNG_CU_ERRORS(RUNG_CU_ERRDESC)
#undef RUNG_CU_ERRDESC
	default:
		break;
	}
	if (!desc && rung_cu.cuGetErrorString)
		if (rung_cu.cuGetErrorString(r, &desc) != CUDA_SUCCESS)
			desc = NULL;
	snprintf(buf, len, "%s (%s)", desc ? desc : "CUDA error", rung_cu_errname(r));
}

bool rung_cu_is_sticky(CUresult r)
{
	switch (r) {
	case CUDA_ERROR_ILLEGAL_ADDRESS:
	case CUDA_ERROR_LAUNCH_TIMEOUT:
	case CUDA_ERROR_ASSERT:
	case CUDA_ERROR_HARDWARE_STACK_ERROR:
	case CUDA_ERROR_ILLEGAL_INSTRUCTION:
	case CUDA_ERROR_MISALIGNED_ADDRESS:
	case CUDA_ERROR_INVALID_ADDRESS_SPACE:
	case CUDA_ERROR_INVALID_PC:
	case CUDA_ERROR_LAUNCH_FAILED:
	case CUDA_ERROR_UNKNOWN:
	case CUDA_ERROR_CONTEXT_IS_DESTROYED:
		return true;
	default:
		return false;
	}
}

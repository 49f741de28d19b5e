#include "gpu/cupti_lib.h"

#include <dlfcn.h>
#include <stdio.h>

#include "core/err.h"

#ifndef RUNG_CUDA_LIBDIR
#define RUNG_CUDA_LIBDIR "/usr/local/cuda/lib64"
#endif

void *rung__cupti_open(void)
{
	const char *dirs[] = {RUNG_CUDA_LIBDIR, "/usr/local/cuda/lib64", "/usr/local/cuda/extras/CUPTI/lib64", NULL};
	char path[1024];
	for (int i = 0; dirs[i]; i++) {
		snprintf(path, sizeof(path), "%s/libcupti.so.13", dirs[i]);
		void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (h)
			return h;
	}
	return dlopen("libcupti.so.13", RTLD_NOW | RTLD_LOCAL);
}

const char *rung__cupti_str(void *lib, CUptiResult r)
{
	CUptiResult (*fn)(CUptiResult, const char **) = NULL;
	if (lib)
		*(void **)&fn = dlsym(lib, "cuptiGetResultString");
	const char *s = NULL;
	if (fn && fn(r, &s) == CUPTI_SUCCESS && s)
		return s;
	return "CUPTI error";
}

int rung__cupti_fail(void *lib, CUptiResult r, const char *call, char *why, size_t len)
{
	snprintf(why, len, "%s: %s (CUptiResult %d)", call, rung__cupti_str(lib, r), (int)r);
	if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || r == CUPTI_ERROR_NOT_SUPPORTED ||
	    r == CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED || r == CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED ||
	    r == CUPTI_ERROR_NOT_COMPATIBLE || r == CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED)
		return RUNG_EUNSUPPORTED;
	return RUNG_ECUDA;
}

int rung__cupti_syms(void **lib, void **const slots[], const char *const names[], int n, char *why, size_t len)
{
	if (!*lib)
		*lib = rung__cupti_open();
	if (!*lib) {
		snprintf(why, len, "CUPTI not found (libcupti.so.13)");
		return RUNG_EUNSUPPORTED;
	}
	for (int i = 0; i < n; i++)
		if (!(*slots[i] = dlsym(*lib, names[i]))) {
			snprintf(why, len, "CUPTI lacks %s (too old?)", names[i]);
			return RUNG_EUNSUPPORTED;
		}
	return 0;
}

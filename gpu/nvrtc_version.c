#include "gpu/compile.h"

#include <cuda.h>
#include <pthread.h>
#include <stdio.h>

#include "core/err.h"
#include "gpu/nvrtc_lib.h"

/* Written once (compile threads ask at the same time: the pipeline, the pool). */
static char nvrtc_buf[16] = "unknown", cuda_buf[16];
static pthread_once_t nvrtc_once = PTHREAD_ONCE_INIT, cuda_once = PTHREAD_ONCE_INIT;

static void nvrtc_read(void)
{
	int ma = 0, mi = 0;
	if (rung_nvrtc_load() < 0) { /* "not found": rung --version says so */
		rung_error_clear();
		snprintf(nvrtc_buf, sizeof(nvrtc_buf), "not found");
		return;
	}
	if (rung_nvrtc.nvrtcVersion(&ma, &mi) == NVRTC_SUCCESS)
		snprintf(nvrtc_buf, sizeof(nvrtc_buf), "%d.%d", ma, mi);
}

const char *rung_nvrtc_version(void)
{
	pthread_once(&nvrtc_once, nvrtc_read);
	return nvrtc_buf;
}

static void cuda_read(void)
{
	snprintf(cuda_buf, sizeof(cuda_buf), "%d.%d", CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
}

const char *rung_cuda_build_version(void)
{
	pthread_once(&cuda_once, cuda_read);
	return cuda_buf;
}

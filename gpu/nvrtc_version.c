#include "gpu/compile.h"

#include <cuda.h>
#include <stdio.h>
#include <nvrtc.h>

const char *rung_nvrtc_version(void)
{
	static char buf[16];
	int ma = 0, mi = 0;
	if (nvrtcVersion(&ma, &mi) != NVRTC_SUCCESS)
		return "unknown";
	snprintf(buf, sizeof(buf), "%d.%d", ma, mi);
	return buf;
}

const char *rung_cuda_build_version(void)
{
	static char buf[16];
	snprintf(buf, sizeof(buf), "%d.%d", CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
	return buf;
}

#include "gpu/compile.h"

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

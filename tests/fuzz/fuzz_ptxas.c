/* The ptxas -v log (core/ptxas.c), as NVRTC returns it: the first kernel, then
 * the same kernel by its name, and a name the seeds use. */
#include "core/err.h"
#include "core/ptxas.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *log = fuzz_text(data, size);
	rung_kinfo k;
	if (rung_ptxas_parse(&k, log, NULL) == 0) {
		FUZZ_ASSERT(k.valid);
		FUZZ_ASSERT(memchr(k.name, 0, sizeof k.name) != NULL);
		char name[sizeof k.name];
		memcpy(name, k.name, sizeof name);
		/* the first kernel, by its name (a name cut at 255 bytes may not match) */
		if (strlen(name) < sizeof name - 1 && rung_ptxas_parse(&k, log, name) == 0)
			FUZZ_ASSERT(strcmp(k.name, name) == 0);
	}
	(void)rung_ptxas_parse(&k, log, "_Z5sgemmiiiPKfS0_Pf");
	rung_error_clear();
	free(log);
	return 0;
}

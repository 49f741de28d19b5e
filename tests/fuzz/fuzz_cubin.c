/* A committed CUBIN (gpu/cubin.c; a .cubin version, read as the repository
 * gives it): its kernel names, each kernel's parameters and register count,
 * its code key, its code compared with itself. A register count that is
 * taken must be one a thread can have (0..255), and the occupancy of that
 * kernel at every block size must compute without overflow (UBSan). */
#include "core/err.h"
#include "core/occupancy.h"
#include "gpu/cubin.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char names[400];
	int count = 0;
	if (rung_cubin_entry_names(names, sizeof(names), &count, data, size) == 0) {
		FUZZ_ASSERT(count >= 0);
		char key[65];
		if (rung_cubin_code_key(key, data, size) == 0)
			FUZZ_ASSERT(strlen(key) == 64);
		FUZZ_ASSERT(rung_cubin_same_code(data, size, data, size) == 1);
		/* each name in the list (a cut one too: it is simply not found) */
		for (char *p = names, *end; *p; p = *end ? end + 2 : end) {
			end = strstr(p, ", ");
			if (!end)
				end = p + strlen(p);
			char entry[400];
			snprintf(entry, sizeof(entry), "%.*s", (int)(end - p), p);
			rung_cubin_entry e;
			if (rung_cubin_entry_info(&e, data, size, entry) != 0)
				continue;
			FUZZ_ASSERT(e.nparams >= 0 && e.nparams <= RUNG_CUBIN_MAX_PARAMS);
			if (!e.has_regs)
				continue;
			FUZZ_ASSERT(e.regs >= 0 && e.regs <= 255);
			static const int threads[] = {1, 32, 128, 1024};
			for (size_t t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
				rung_occupancy o;
				rung_occ_input in = {.threads = threads[t], .regs = e.regs};
				if (rung_occupancy_calc(&o, "sm_90", &in) == 0)
					FUZZ_ASSERT(o.by_regs >= 0 && o.regs_per_block >= 0);
			}
		}
	}
	rung_error_clear();
	return 0;
}

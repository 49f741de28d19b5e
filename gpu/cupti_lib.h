/* What the CUPTI users of gpu/ share (cupti.c, cupti_prof.c, cupti_sass.c,
 * cupti_pcsamp.c): opening libcupti.so.13 at run time and turning a failed
 * call into rung's errors. */
#ifndef RUNG_GPU_CUPTI_LIB_H
#define RUNG_GPU_CUPTI_LIB_H

#include <stddef.h>

#include <cupti_result.h>

/* dlopen of libcupti.so.13 from the toolkit's directories, then the loader's
 * path; NULL when absent. */
void *rung__cupti_open(void);

/* Opens CUPTI into *lib (once) and looks up names[i] into *slots[i], n of
 * them. RUNG_EUNSUPPORTED with why when CUPTI or a symbol is missing. */
int rung__cupti_syms(void **lib, void **const slots[], const char *const names[], int n, char *why, size_t len);

/* Defines `static int load(char *why, size_t len)` for a file whose table
 * `st` (a struct with `void *lib; bool ok;` and one function pointer per
 * entry of the list macro FNS(_), _(name, ParamsType)) is filled from CUPTI. */
#define RUNG_CUPTI_LOADER(st, FNS) \
	static int load(char *why, size_t len) \
	{ \
		if (st.ok) \
			return 0; \
		void **const slots_[] = {FNS(RUNG_CUPTI_SLOT_)}; \
		const char *const names_[] = {FNS(RUNG_CUPTI_NAME_)}; \
		int rc_ = rung__cupti_syms(&st.lib, slots_, names_, (int)(sizeof(names_) / sizeof(names_[0])), why, len); \
		st.ok = rc_ == 0; \
		return rc_; \
	}
#define RUNG_CUPTI_NAME_(name, T) #name,

/* Calls st.name(&var); on failure sets `ret` and `why` (why_len) from it and
 * jumps to `out`, the caller's cleanup. */
#define RUNG_CUPTI_CALL(st, name, var) \
	do { \
		CUptiResult r_ = st.name(&var); \
		if (r_ != CUPTI_SUCCESS) { \
			ret = rung__cupti_fail(st.lib, r_, #name, why, why_len); \
			goto out; \
		} \
	} while (0)

/* cuptiGetResultString of lib (NULL: none) for r, "CUPTI error" without one. */
const char *rung__cupti_str(void *lib, CUptiResult r);

/* A failed CUPTI call: why = "call: message (CUptiResult N)"; privileges and
 * unsupported configurations return RUNG_EUNSUPPORTED (the rung is SKIPPED),
 * anything else RUNG_ECUDA. */
int rung__cupti_fail(void *lib, CUptiResult r, const char *call, char *why, size_t len);

#endif

/* NVRTC loaded at run time (gpu/nvrtc_lib.h). */
#define _GNU_SOURCE /* dlinfo: the file it was loaded from */
#include "gpu/nvrtc_lib.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"

#ifndef RUNG_NVRTC_SONAME
#define RUNG_NVRTC_SONAME "libnvrtc.so.13"
#endif
#ifndef RUNG_NVRTC_LIBDIR
#define RUNG_NVRTC_LIBDIR "/usr/local/cuda/lib64"
#endif

/* Each entry's type is nvrtc.h's: a change of signature fails the build here. */
#define RUNG_NVRTC_CHECK(name, ret, args) \
	_Static_assert(_Generic(&name, ret(*) args: 1, default: 0), #name ": not nvrtc.h's type");
RUNG_NVRTC_LIST(RUNG_NVRTC_CHECK)
#undef RUNG_NVRTC_CHECK

rung_nvrtc_api rung_nvrtc;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int load_rc;
static char load_msg[512];
static char path[512];
static bool loaded;

static void load(void)
{
	/* $RUNG_NVRTC_LIBRARY alone when set; else the name as the dynamic linker
	 * finds it (LD_LIBRARY_PATH, the binary's run path, ld.so.cache), then in
	 * the toolkit rung was built against */
	const char *own = getenv("RUNG_NVRTC_LIBRARY");
	void *lib = NULL;
	if (own && *own) {
		if (!(lib = dlopen(own, RTLD_NOW | RTLD_LOCAL))) {
			load_rc = RUNG_EUNSUPPORTED;
			snprintf(load_msg, sizeof(load_msg), "NVRTC not found (%.300s, from RUNG_NVRTC_LIBRARY)", own);
			return;
		}
	} else if (!(lib = dlopen(RUNG_NVRTC_SONAME, RTLD_NOW | RTLD_LOCAL)) &&
	           !(lib = dlopen(RUNG_NVRTC_LIBDIR "/" RUNG_NVRTC_SONAME, RTLD_NOW | RTLD_LOCAL))) {
		load_rc = RUNG_EUNSUPPORTED;
		snprintf(load_msg, sizeof(load_msg),
		         "NVRTC not found (" RUNG_NVRTC_SONAME "): CUDA C kernels need the CUDA toolkit's NVRTC "
		         "(on the library path, or in " RUNG_NVRTC_LIBDIR ")");
		return;
	}
	rung_nvrtc_api t;
	memset(&t, 0, sizeof(t));
#define RUNG_NVRTC_RESOLVE(name, ret, args) \
	if (!(*(void **)&t.name = dlsym(lib, #name))) { \
		load_rc = RUNG_EUNSUPPORTED; \
		snprintf(load_msg, sizeof(load_msg), "NVRTC (%.300s) lacks %s: too old?", own && *own ? own : RUNG_NVRTC_SONAME, #name); \
		goto fail; \
	}
	RUNG_NVRTC_LIST(RUNG_NVRTC_RESOLVE)
#undef RUNG_NVRTC_RESOLVE
	struct link_map *lm = NULL;
	if (dlinfo(lib, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name)
		snprintf(path, sizeof(path), "%s", lm->l_name);
	rung_nvrtc = t;
	loaded = true;
	return;
fail:
	dlclose(lib);
}

int rung_nvrtc_load(void)
{
	pthread_once(&once, load);
	if (load_rc < 0)
		return rung_error_set(load_rc, "%s", load_msg);
	return 0;
}

bool rung_nvrtc_loaded(void)
{
	return loaded;
}

const char *rung_nvrtc_path(void)
{
	return path;
}

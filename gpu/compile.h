/* The compile rung: NVRTC to PTX + CUBIN with ptxas -v and -lineinfo, ptxas log
 * parsed per kernel. Needs no GPU. Thread-safe (one nvrtcProgram per call). */
#ifndef RUNG_GPU_COMPILE_H
#define RUNG_GPU_COMPILE_H

#include <stdbool.h>
#include <stddef.h>
#include "core/result.h"
#include "core/source.h"
#include "core/spec.h"
#include "core/ptxas.h"

/* Before NVRTC sees them, the source, its in-memory headers and the headers it
 * #includes "..." from the include dirs are checked with rung_source_check
 * (core/source.h): a file that is not UTF-8 text fails the compile with its
 * file:line; a UTF-8 byte-order mark is dropped. */
typedef struct {
	const char *src;        /* kernel source text */
	size_t src_len;         /* bytes of src; 0: strlen(src) (a NUL byte inside is then not seen) */
	const char *file;       /* name shown in errors, e.g. "sgemm.cu" (path relative to repo as the user sees it) */
	const char *entry;      /* kernel name or name expression, e.g. "sgemm<128,8>" */
	const char *arch;       /* "sm_90"; NULL -> "sm_90" */
	const char *options;    /* extra NVRTC options, whitespace separated (may be NULL) */
	const char *const *include_dirs; /* extra -I dirs, NULL-terminated (may be NULL) */
	const rung_header *headers; int nheaders; /* in-memory headers (from git) */
	/* The task's spec when src is its kernel or reference (may be NULL): an arch or
	 * an option that NVRTC rejects is then reported at the spec's line
	 * ("t/rung.ini:8: [task] arch: ..."), and the entry's parameters are counted
	 * against its [arg] sections. */
	const rung_spec *spec;
	/* The kernel's launch (may be NULL): the scratch arguments its sidecar
	 * adds after the [arg] sections (rung_launch.scratch) are counted and
	 * sized too. NULL for the reference. */
	const rung_launch *launch;
	/* The directory every file the source #includes must lie in (the task's
	 * repository or task directory, app/task.h), with root_what naming it in
	 * messages; NULL: no such check (rung's own kernels). Each #include "..." or
	 * <...> of the source and of the headers it reaches is resolved as NVRTC
	 * resolves it (beside the including file, then each -I directory, the
	 * toolkit's first); the file found must lie in root or in the toolkit's
	 * include directory, else the compile fails with
	 * "sgemm.cu:3: #include \"../../../etc/passwd\" reads /etc/passwd, outside the repository (/r)".
	 * A computed #include (a macro) fails the same way: which file it reads is
	 * not known before NVRTC opens it. */
	const char *root, *root_what;
	/* The user's cache directory (rung_fs_cache_dir, ending in '/'), or NULL:
	 * NVRTC's output for this request is kept in DIR/cubin/ by a key of
	 * everything that makes it (gpu/compile_cache.h) and reused by the next
	 * request with the same key, without running NVRTC. Used only for a CUDA
	 * source with root set (every file it #includes is then resolved and
	 * read here, so it is in the key). Never a repository's: whoever commits
	 * could plant a reference's machine code there. */
	const char *cache_dir;
} rung_compile_req;

typedef struct {
	char *ptx; size_t ptx_len;
	void *cubin; size_t cubin_len;
	char *log;               /* full NVRTC/ptxas log (owned) */
	char lowered[512];       /* lowered (mangled) name of entry */
	rung_kinfo kinfo;        /* resources of the entry kernel */
	double ms;               /* compile wall time */
	char error[512];         /* on failure: "sgemm.cu:12: identifier \"x\" is undefined" */
	bool spec_error;         /* the failure is the spec's (its arch or options line): every source fails so */
	bool cached;             /* ptx, cubin, log and lowered came from req->cache_dir: NVRTC did not run */
} rung_compiled;

/* Returns 0 on success; RUNG_ECOMPILE with out->error and out->log filled when the
 * source does not compile or the entry is missing; other negatives on setup errors. */
int rung_compile(rung_compiled *out, const rung_compile_req *req);
void rung_compiled_clear(rung_compiled *c);

/* The i-th (from 0) error of the source in an NVRTC log ("sgemm.cu(19):
 * error: ..."), as "sgemm.cu:19: ..." into buf: 1, or 0 when there are fewer.
 * rung_compile's error names the first and how many more there are ("(and 1
 * more error)"); rung check lists the rest. */
int rung_compile_log_error(const char *log, int i, char *buf, size_t len);
/* How many errors of the source the log has. */
int rung_compile_log_nerrors(const char *log);

/* The version of NVRTC, "13.0" ("not found" when it cannot be loaded: this loads it). */
const char *rung_nvrtc_version(void);
/* The CUDA version of the headers rung was built against ("12.4", from cuda.h's CUDA_VERSION). */
const char *rung_cuda_build_version(void);

#endif

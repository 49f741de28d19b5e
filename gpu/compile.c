/* The compile rung: NVRTC (loaded on the first compile of CUDA C,
 * gpu/nvrtc_lib.h) to PTX + CUBIN, ptxas -v log parsed for the entry kernel. NVRTC diagnostics ("sgemm.cu(12): error: identifier \"x\" is
 * undefined") become "sgemm.cu:12: identifier \"x\" is undefined". */
#define _GNU_SOURCE /* dladdr: the NVRTC library's file, in the CUBIN cache's key */
#include "gpu/compile.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/err.h"
#include "core/fs.h"
#include "core/ptxscan.h"
#include "core/sha256.h"
#include "gpu/compile_cache.h"
#include "gpu/cubin.h"
#include "gpu/nvrtc_lib.h"
#include "gpu/ptxas_run.h"
#include "core/timing.h"
#include "gpu/rung_h.h"

#ifndef RUNG_CUDA_INCLUDE
#define RUNG_CUDA_INCLUDE "/usr/local/cuda/include"
#endif

#define MAX_OPTS 128

/* The largest static shared memory a kernel may declare without opt-in. */
#define STATIC_SMEM_LIMIT 49152

typedef struct {
	char *v[MAX_OPTS];
	int n;
} opt_list;

static int opt_add(opt_list *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int opt_add(opt_list *o, const char *fmt, ...)
{
	if (o->n >= MAX_OPTS)
		return rung_error_set(RUNG_EINVAL, "too many NVRTC options (max %d)", MAX_OPTS);
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (!s)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	o->v[o->n++] = s;
	return 0;
}

static void opt_free(opt_list *o)
{
	for (int i = 0; i < o->n; i++)
		free(o->v[i]);
	o->n = 0;
}

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The toolkit's include directory: the one rung was built against, else
 * $CUDA_HOME/include, else /usr/local/cuda/include; NULL if none exists. */
static const char *cuda_include(char *buf, size_t len)
{
	if (is_dir(RUNG_CUDA_INCLUDE))
		return RUNG_CUDA_INCLUDE;
	const char *home = getenv("CUDA_HOME");
	if (home && *home) {
		snprintf(buf, len, "%s/include", home);
		if (is_dir(buf))
			return buf;
	}
	if (is_dir("/usr/local/cuda/include"))
		return "/usr/local/cuda/include";
	return NULL;
}

static int build_options(opt_list *o, const rung_compile_req *req)
{
	int rc;
	if ((rc = opt_add(o, "--gpu-architecture=%s", req->arch && *req->arch ? req->arch : "sm_90")) < 0 ||
	    (rc = opt_add(o, "-lineinfo")) < 0 || (rc = opt_add(o, "--ptxas-options=-v")) < 0 ||
	    (rc = opt_add(o, "--std=c++17")) < 0)
		return rc;
	char buf[1024];
	const char *inc = cuda_include(buf, sizeof(buf));
	if (inc) {
		if ((rc = opt_add(o, "-I%s", inc)) < 0)
			return rc;
		char cccl[1100];
		snprintf(cccl, sizeof(cccl), "%s/cccl", inc);
		if (is_dir(cccl) && (rc = opt_add(o, "-I%s", cccl)) < 0)
			return rc;
	}
	for (const char *const *d = req->include_dirs; d && *d; d++)
		if ((rc = opt_add(o, "-I%s", *d)) < 0)
			return rc;
	/* Extra options, split on whitespace. */
	const char *p = req->options;
	while (p && *p) {
		while (*p && isspace((unsigned char)*p))
			p++;
		const char *s = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (p > s && (rc = opt_add(o, "%.*s", (int)(p - s), s)) < 0)
			return rc;
	}
	return 0;
}

/* Finds the first "NAME(LINE): error: MSG" (or "catastrophic error") in the log, among
 * the diagnostics of the entry's name expression (NAME "__nv_name_map", which NVRTC may
 * print before the source's own) when name_map is set, else among the others.
 * Returns 1 and fills the parts, 0 if none. */
static int nth_diag(const char *log, bool name_map, int nth, char *name, size_t name_len, int *line, char *msg,
		    size_t msg_len);
static int first_diag(const char *log, bool name_map, char *name, size_t name_len, int *line, char *msg, size_t msg_len)
{
	return nth_diag(log, name_map, 0, name, name_len, line, msg, msg_len);
}

int rung_compile_log_error(const char *log, int i, char *buf, size_t len)
{
	char name[256], msg[400];
	int line = 0;
	if (!log || i < 0 || !nth_diag(log, false, i, name, sizeof(name), &line, msg, sizeof(msg)))
		return 0;
	snprintf(buf, len, "%s:%d: %s", name, line, msg);
	return 1;
}

int rung_compile_log_nerrors(const char *log)
{
	char name[8], msg[8];
	int line, n = 0;
	while (log && nth_diag(log, false, n, name, sizeof(name), &line, msg, sizeof(msg)))
		n++;
	return n;
}

/* The nth (from 0) such diagnostic. */
static int nth_diag(const char *log, bool name_map, int nth, char *name, size_t name_len, int *line, char *msg,
		    size_t msg_len)
{
	static const char nm[] = "__nv_name_map";
	for (const char *l = log; l && *l;) {
		const char *end = strchr(l, '\n');
		if (!end)
			end = l + strlen(l);
		const char *paren = memchr(l, '(', (size_t)(end - l));
		if (paren && paren > l && isdigit((unsigned char)paren[1])) {
			char *q;
			long ln = strtol(paren + 1, &q, 10);
			/* "): error: msg", "): catastrophic error: msg", "): error #20-D: msg" */
			if ((size_t)(end - q) > 3 && q[0] == ')' && q[1] == ':' && q[2] == ' ') {
				const char *k = q + 3;
				const char *colon = memchr(k, ':', (size_t)(end - k));
				const char *err = strstr(k, "error");
				bool is_nm =
				    (size_t)(paren - l) == sizeof(nm) - 1 && strncmp(l, nm, sizeof(nm) - 1) == 0;
				if (colon && err && err < colon && colon - k < 40 && is_nm == name_map && nth-- == 0) {
					snprintf(name, name_len, "%.*s", (int)(paren - l), l);
					*line = (int)ln;
					const char *m = colon + 1;
					while (m < end && *m == ' ')
						m++;
					snprintf(msg, msg_len, "%.*s", (int)(end - m), m);
					return 1;
				}
			}
		}
		l = *end ? end + 1 : end;
	}
	return 0;
}

/* "At end of source: error: expected a \";\"" */
static int at_end_diag(const char *log, char *msg, size_t msg_len)
{
	const char *p = strstr(log, "At end of source: error: ");
	if (!p)
		return 0;
	p += strlen("At end of source: error: ");
	snprintf(msg, msg_len, "%.*s", (int)strcspn(p, "\n"), p);
	return 1;
}

/* "ptxas application ptx input, line 29; error   : Unknown modifier '.instr'" or "ptxas fatal : ...". */
static int ptxas_diag(const char *log, char *msg, size_t msg_len)
{
	const char *fatal = NULL;
	for (const char *l = log; l && *l;) {
		const char *end = strchr(l, '\n');
		if (!end)
			end = l + strlen(l);
		if (strncmp(l, "ptxas", 5) == 0) {
			const char *e = strstr(l, "error");
			if (e && e < end) {
				const char *colon = memchr(e, ':', (size_t)(end - e));
				const char *ln = strstr(l, ", line ");
				int pl = 0;
				if (ln && ln < e)
					pl = atoi(ln + 7);
				const char *m = colon ? colon + 1 : e;
				while (*m == ' ')
					m++;
				if (pl > 0)
					snprintf(msg, msg_len, "ptxas: %.*s (PTX line %d)", (int)(end - m), m, pl);
				else
					snprintf(msg, msg_len, "ptxas: %.*s", (int)(end - m), m);
				return 1;
			}
			if (!fatal && strstr(l, "fatal") && strstr(l, "fatal") < end)
				fatal = l;
		}
		l = *end ? end + 1 : end;
	}
	if (fatal) {
		const char *end = strchr(fatal, '\n');
		const char *colon = strchr(fatal, ':');
		const char *m = colon && (!end || colon < end) ? colon + 1 : fatal;
		while (*m == ' ')
			m++;
		snprintf(msg, msg_len, "ptxas: %.*s", (int)(end ? end - m : (long)strlen(m)), m);
		return 1;
	}
	return 0;
}

/* Largest "N bytes smem" in the log (ptxas reports, then fails without a message). */
static long long max_static_smem(const char *log)
{
	long long best = 0;
	for (const char *p = log; p && (p = strstr(p, " bytes smem")) != NULL; p++) {
		const char *s = p;
		while (s > log && isdigit((unsigned char)s[-1]))
			s--;
		long long v = atoll(s);
		if (v > best)
			best = v;
	}
	return best;
}

/* Sets out->error (truncated to fit). */
static void errorf(rung_compiled *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void errorf(rung_compiled *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out->error, sizeof(out->error), fmt, ap);
	va_end(ap);
}

/* "entry 'rowsum' not found in rowsum.cu (its kernels: rowsum_warp, rowsum_block)" (#28 D-20) */
static void entry_not_found(rung_compiled *out, const rung_compile_req *req)
{
	char names[300];
	int n = rung_cuda_kernel_names(names, sizeof(names), req->src);
	if (n > 0)
		errorf(out, "entry '%s' not found in %s (its __global__ kernel%s: %s)", req->entry, req->file,
		       n == 1 ? "" : "s", names);
	else
		errorf(out, "entry '%s' not found in %s (it has no __global__ kernel)", req->entry, req->file);
}

static void fill_failure(rung_compiled *out, const rung_compile_req *req, nvrtcResult res)
{
	char name[256], msg[400];
	int line = 0;
	const char *log = out->log ? out->log : "";
	if (first_diag(log, false, name, sizeof(name), &line, msg, sizeof(msg))) {
		/* the first, and a word of the others (the compile log has them all; #28 D-20) */
		int more = rung_compile_log_nerrors(log) - 1;
		if (more > 0)
			errorf(out, "%s:%d: %s (and %d more error%s)", name, line, msg, more, more == 1 ? "" : "s");
		else
			errorf(out, "%s:%d: %s", name, line, msg);
	} else if (at_end_diag(log, msg, sizeof(msg))) {
		errorf(out, "%s: at end of source: %s", req->file, msg);
	} else if (first_diag(log, true, name, sizeof(name), &line, msg, sizeof(msg))) {
		if (strstr(msg, "non-__global__"))
			errorf(out, "%s: '%s' is not a __global__ kernel", req->file, req->entry);
		else
			entry_not_found(out, req);
	} else if (ptxas_diag(log, msg, sizeof(msg))) {
		errorf(out, "%s: %s", req->file, msg);
	} else if (max_static_smem(log) > STATIC_SMEM_LIMIT) {
		errorf(out, "%s: %lld bytes of static shared memory (limit %d; use dynamic shared memory)", req->file,
		       max_static_smem(log), STATIC_SMEM_LIMIT);
	} else {
		errorf(out, "%s: compilation failed (%s)", req->file, rung_nvrtc.nvrtcGetErrorString(res));
	}
}

/* ---- architectures -------------------------------------------------------- */

#define MAX_ARCHS 64

/* NVRTC's architectures and version, read once (nvrtcGetSupportedArchs). */
static pthread_once_t archs_once = PTHREAD_ONCE_INIT;
static int narchs; /* 0: unknown, nothing is refused before NVRTC */
static int archs[MAX_ARCHS];
static char nvrtc_ver[16] = "?";

static void load_archs(void)
{
	int n = 0, ma = 0, mi = 0;
	if (rung_nvrtc_load() < 0) {
		rung_error_clear();
		return;
	}
	if (rung_nvrtc.nvrtcGetNumSupportedArchs(&n) == NVRTC_SUCCESS && n > 0 && n <= MAX_ARCHS &&
	    rung_nvrtc.nvrtcGetSupportedArchs(archs) == NVRTC_SUCCESS)
		narchs = n;
	if (rung_nvrtc.nvrtcVersion(&ma, &mi) == NVRTC_SUCCESS)
		snprintf(nvrtc_ver, sizeof(nvrtc_ver), "%d.%d", ma, mi);
}

/* 90 for "sm_90", "sm_90a", "compute_90"; -1 for anything else. */
static int arch_number(const char *a)
{
	const char *p = !strncmp(a, "sm_", 3) ? a + 3 : !strncmp(a, "compute_", 8) ? a + 8 : NULL;
	if (!p || !isdigit((unsigned char)*p))
		return -1;
	return atoi(p);
}

/* False when NVRTC lists its architectures and arch's number is not among them. */
static bool arch_listed(const char *arch)
{
	int v = arch_number(arch);
	if (v < 0 || !narchs)
		return true; /* not of a form rung knows: NVRTC judges it */
	for (int i = 0; i < narchs; i++)
		if (archs[i] == v)
			return true;
	return false;
}

/* "sm_75, sm_80, ..., sm_121" */
static void archs_text(char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = 0;
	for (int i = 0; i < narchs && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%ssm_%d", i ? ", " : "", archs[i]);
}

static bool options_set_arch(const char *o)
{
	return o && (strstr(o, "-arch") || strstr(o, "--gpu-architecture"));
}

/* NVRTC does not compile for arch: said at the spec's arch line when arch is the
 * spec's (not a device's nor one the options set). */
static void arch_error(rung_compiled *out, const rung_compile_req *req, const char *arch)
{
	char list[400], what[600];
	archs_text(list, sizeof(list));
	bool suffix = arch_listed(arch) && arch[strlen(arch) - 1] >= 'a';
	if (narchs)
		snprintf(what, sizeof(what), "NVRTC %s does not compile for '%s' (it takes %s%s)", nvrtc_ver, arch, list,
		         suffix ? "; the a and f suffixes only for some" : "");
	else
		snprintf(what, sizeof(what), "NVRTC %s does not compile for '%s'", nvrtc_ver, arch);
	const rung_spec *sp = req->spec;
	if (sp && sp->arch && sp->arch_line > 0 && !strcmp(sp->arch, arch)) {
		errorf(out, "%s:%d: [task] arch: %s", sp->path, sp->arch_line, what);
		out->spec_error = true;
	} else {
		errorf(out, "%s: %s", req->file, what);
	}
}

/* NVRTC refused an option (NVRTC_ERROR_INVALID_OPTION, or the front end's
 * "Command-line error"): said at the spec's options line when the spec gave them. */
static void option_error(rung_compiled *out, const rung_compile_req *req, const char *arch)
{
	const char *log = out->log ? out->log : "";
	bool is_arch = strstr(log, "--gpu-architecture") || strstr(log, "--nv_arch");
	if (is_arch && !options_set_arch(req->options)) {
		arch_error(out, req, arch);
		return;
	}
	/* "nvrtc: error: unrecognized option --bogus found" -> "unrecognized option --bogus found" */
	const char *m = strstr(log, "error: ");
	m = m ? m + strlen("error: ") : log;
	int ml = (int)strcspn(m, "\n");
	const rung_spec *sp = req->spec;
	if (sp && sp->options && sp->options_line > 0) {
		errorf(out, "%s:%d: [task] options: %.*s", sp->path, sp->options_line, ml, ml ? m : "NVRTC refused them");
		out->spec_error = true;
	} else {
		errorf(out, "%s: invalid NVRTC option: %.*s (options: %s)", req->file, ml, ml ? m : "?",
		       req->options ? req->options : "");
	}
}

/* ---- the sources' bytes ----------------------------------------------------- */

#define MAX_INCLUDE_DEPTH 16

/* What NVRTC gets besides the source: in-memory headers by name, and what was read here. */
typedef struct {
	const rung_compile_req *req;
	rung_compiled *out;
	const char **names, **texts; /* the in-memory headers */
	int n, cap;
	char **owned; /* texts and names read here, and the disk paths already checked */
	int nowned, capowned;
	int *seen;    /* indices in owned of the disk paths checked */
	int nseen, capseen;
	rung_sha256_ctx *key; /* the CUBIN cache's key, when one is kept: every file NVRTC opens is added */
} src_set;

static int own(src_set *x, char *p)
{
	if (p && x->nowned == x->capowned) {
		int nc = x->capowned ? x->capowned * 2 : 16;
		char **nv = realloc(x->owned, (size_t)nc * sizeof(*nv));
		if (nv)
			x->owned = nv, x->capowned = nc;
	}
	if (!p || x->nowned == x->capowned) {
		free(p);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	x->owned[x->nowned++] = p;
	return 0;
}

static int add_header(src_set *x, const char *name, const char *text)
{
	if (x->n == x->cap) {
		int nc = x->cap ? x->cap * 2 : 16;
		const char **nn = realloc(x->names, (size_t)nc * sizeof(*nn));
		if (nn)
			x->names = nn;
		const char **nt = nn ? realloc(x->texts, (size_t)nc * sizeof(*nt)) : NULL;
		if (!nt)
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		x->texts = nt;
		x->cap = nc;
	}
	x->names[x->n] = name;
	x->texts[x->n] = text;
	x->n++;
	return 0;
}

/* Records owned[k] (a path) as checked. */
static int add_seen(src_set *x, int k)
{
	if (x->nseen == x->capseen) {
		int nc = x->capseen ? x->capseen * 2 : 16;
		int *nv = realloc(x->seen, (size_t)nc * sizeof(*nv));
		if (!nv)
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		x->seen = nv;
		x->capseen = nc;
	}
	x->seen[x->nseen++] = k;
	return 0;
}

static void src_set_free(src_set *x)
{
	for (int i = 0; i < x->nowned; i++)
		free(x->owned[i]);
	free(x->owned);
	free(x->names);
	free(x->texts);
	free(x->seen);
}

static bool in_memory(const src_set *x, const char *name)
{
	for (int i = 0; i < x->n; i++)
		if (!strcmp(x->names[i], name))
			return true;
	return false;
}

/* Checks one file's bytes; on failure the message becomes the compile error. */
static int check_bytes(src_set *x, size_t *skip, const char *text, size_t len, const char *file)
{
	if (rung_source_check(skip, text, len ? len : strlen(text), file) == 0)
		return 0;
	errorf(x->out, "%s", rung_error_last());
	return RUNG_ECOMPILE;
}

/* True when NVRTC's lookup stops at p: anything there but a directory. A FIFO
 * or a device counts, so that rung finds it first and refuses it (reading it
 * would block NVRTC, or never end) instead of passing over it. */
static bool is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && !S_ISDIR(st.st_mode);
}

/* Reads a header found on disk; a file that does not read (not a regular
 * file, too large, no permission) is the compile error "FILE:LINE: #include
 * "NAME": why" (file NULL: no place), since NVRTC would open it next. */
static int read_header(src_set *x, char **t, size_t *tl, const char *path, const char *file, int line, const char *name)
{
	if (rung_fs_read_file(t, tl, path, RUNG_FS_MAX_TEXT) == 0)
		return 0;
	if (file)
		errorf(x->out, "%s:%d: #include \"%s\": %s", file, line, name, rung_error_last());
	else
		errorf(x->out, "#include \"%s\": %s", name, rung_error_last());
	rung_error_clear();
	return RUNG_ECOMPILE;
}

static char *join(const char *dir, const char *name)
{
	if (name[0] == '/' || !dir || !*dir)
		return strdup(name);
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* Where NVRTC finds `#include "name"` on disk: beside the including file (a
 * header read from disk), then in each -I directory. NULL when nowhere (a
 * toolkit header, or missing: NVRTC says so). */
static char *find_header(const rung_compile_req *req, const char *name, const char *dir)
{
	if (name[0] == '/')
		return is_file(name) ? strdup(name) : NULL;
	if (dir) {
		char *p = join(dir, name);
		if (!p || is_file(p))
			return p;
		free(p);
	}
	for (const char *const *d = req->include_dirs; d && *d; d++) {
		char *p = join(*d, name);
		if (!p || is_file(p))
			return p;
		free(p);
	}
	return NULL;
}

/* Checks the headers that text #includes "..." from disk, and theirs in turn. A
 * header with a UTF-8 byte-order mark is handed to NVRTC in memory without it
 * (NVRTC reads a file's mark as a token). */
static int check_includes(src_set *x, const char *text, const char *dir, int depth)
{
	if (depth > MAX_INCLUDE_DEPTH)
		return 0;
	char **names;
	int n;
	int e = rung_scan_includes(&names, &n, text);
	if (e < 0)
		return e;
	for (int i = 0; i < n && e == 0; i++) {
		if (in_memory(x, names[i]))
			continue; /* NVRTC takes the in-memory one, checked already */
		char *path = find_header(x->req, names[i], dir);
		if (!path)
			continue;
		bool seen = false;
		for (int k = 0; k < x->nseen && !seen; k++)
			seen = !strcmp(x->owned[x->seen[k]], path);
		if (seen) {
			free(path);
			continue;
		}
		if ((e = own(x, path)) < 0 || (e = add_seen(x, x->nowned - 1)) < 0)
			break;
		char *t = NULL;
		size_t tl = 0, skip = 0;
		if ((e = read_header(x, &t, &tl, path, NULL, 0, names[i])) < 0)
			break;
		if ((e = own(x, t)) < 0 || (e = check_bytes(x, &skip, t, tl, path)) < 0)
			break;
		if (skip) {
			char *name = strdup(names[i]);
			if ((e = own(x, name)) < 0 || (e = add_header(x, name, t + skip)) < 0)
				break;
		}
		char *hdir = rung_fs_dir_of(path);
		e = hdir ? check_includes(x, t + skip, hdir, depth + 1) : rung_error_set(RUNG_ENOMEM, "out of memory");
		free(hdir);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return e;
}

/* ---- the CUBIN cache's key --------------------------------------------------- */

/* Adds a length-prefixed field (the length as 8 bytes, little-endian), so that
 * no two different field lists hash alike. */
static void key_field(rung_sha256_ctx *k, const void *data, size_t len)
{
	unsigned char n[8];
	for (int i = 0; i < 8; i++)
		n[i] = (unsigned char)((uint64_t)len >> (8 * i));
	rung_sha256_update(k, n, sizeof(n));
	rung_sha256_update(k, data, len);
}

static void key_str(rung_sha256_ctx *k, const char *s)
{
	key_field(k, s ? s : "", s ? strlen(s) : 0);
}

/* A file by name and bytes (NULL: it could not be read). */
static void key_text(rung_sha256_ctx *k, const char *name, const char *text, size_t len)
{
	if (!k)
		return;
	key_str(k, name);
	if (text)
		key_field(k, text, len);
	else
		key_str(k, "(unreadable)");
}

/* ---- where the #includes lead ---------------------------------------------- */

typedef struct {
	src_set *x;
	char root[PATH_MAX], toolkit[PATH_MAX]; /* resolved; toolkit "" when none */
	char **seen; /* disk headers walked (resolved) */
	int nseen, cap;
} confine_walk;

static bool under(const char *path, const char *dir)
{
	size_t l = strlen(dir);
	return l && (!strcmp(dir, "/") || (!strncmp(path, dir, l) && (path[l] == 0 || path[l] == '/')));
}

/* The file NVRTC opens for `inc` in a file whose directory is dir (NULL: an
 * in-memory text, whose includes NVRTC looks up from the current directory):
 * the first that exists of dir/NAME (quoted only), then each -I directory in
 * NVRTC's order (the toolkit's, then the request's). Resolved; NULL if none. */
static char *nvrtc_finds(const confine_walk *w, const rung_include *inc, const char *dir)
{
	const rung_compile_req *req = w->x->req;
	char buf[1024];
	const char *tk = cuda_include(buf, sizeof(buf));
	char cccl[1100] = "";
	if (tk)
		snprintf(cccl, sizeof(cccl), "%s/cccl", tk);
	const char *cand[3] = { inc->angle ? NULL : dir ? dir : ".", tk, tk && is_dir(cccl) ? cccl : NULL };
	char real[PATH_MAX];
	if (inc->name[0] == '/')
		return realpath(inc->name, real) ? strdup(real) : NULL;
	for (int k = 0; k < 3; k++) {
		if (!cand[k])
			continue;
		char *p = join(cand[k], inc->name);
		bool ok = p && is_file(p) && realpath(p, real);
		free(p);
		if (ok)
			return strdup(real);
	}
	for (const char *const *d = req->include_dirs; d && *d; d++) {
		char *p = join(*d, inc->name);
		bool ok = p && is_file(p) && realpath(p, real);
		free(p);
		if (ok)
			return strdup(real);
	}
	return NULL;
}

static int confine_text(confine_walk *w, const char *text, size_t len, const char *file, const char *dir, int depth)
{
	if (depth > MAX_INCLUDE_DEPTH)
		return 0;
	rung_include *incs;
	int n;
	int e = rung_include_scan(&incs, &n, text, len);
	if (e < 0)
		return e;
	for (int i = 0; i < n && e == 0; i++) {
		const rung_include *inc = &incs[i];
		if (!inc->name) {
			errorf(w->x->out, "%s:%d: #include with a macro: rung cannot tell which file it reads; name the file", file,
			       inc->line);
			e = RUNG_ECOMPILE;
			break;
		}
		if (in_memory(w->x, inc->name))
			continue; /* NVRTC takes the in-memory header (read from git, inside the repository) */
		char *found = nvrtc_finds(w, inc, dir);
		if (!found) {
			if (inc->name[0] == '/' && !under(inc->name, w->root)) {
				errorf(w->x->out, "%s:%d: #include %c%s%c is outside %s (%s)", file, inc->line, inc->angle ? '<' : '"',
				       inc->name, inc->angle ? '>' : '"', w->x->req->root_what ? w->x->req->root_what : "the repository",
				       w->root);
				e = RUNG_ECOMPILE;
			}
			continue; /* not found: NVRTC says so */
		}
		if (!under(found, w->root)) {
			if (!(w->toolkit[0] && under(found, w->toolkit))) {
				errorf(w->x->out, "%s:%d: #include %c%s%c reads %s, outside %s (%s)", file, inc->line,
				       inc->angle ? '<' : '"', inc->name, inc->angle ? '>' : '"', found,
				       w->x->req->root_what ? w->x->req->root_what : "the repository", w->root);
				e = RUNG_ECOMPILE;
			}
			free(found); /* the toolkit's own headers are not walked */
			continue;
		}
		bool seen = false;
		for (int k = 0; k < w->nseen && !seen; k++)
			seen = !strcmp(w->seen[k], found);
		if (seen) {
			free(found);
			continue;
		}
		if (w->nseen == w->cap) {
			int nc = w->cap ? w->cap * 2 : 16;
			char **nv = realloc(w->seen, (size_t)nc * sizeof(*nv));
			if (!nv) {
				free(found);
				e = rung_error_set(RUNG_ENOMEM, "out of memory");
				break;
			}
			w->seen = nv;
			w->cap = nc;
		}
		w->seen[w->nseen++] = found;
		char *t = NULL;
		size_t tl = 0;
		if ((e = read_header(w->x, &t, &tl, found, file, inc->line, inc->name)) < 0)
			break;
		key_text(w->x->key, found, t, tl);
		char *hdir = rung_fs_dir_of(found);
		e = hdir ? confine_text(w, t, tl, found, hdir, depth + 1) : rung_error_set(RUNG_ENOMEM, "out of memory");
		free(hdir);
		free(t);
	}
	rung_includes_free(incs, n);
	return e;
}

/* Every file the source and its headers #include lies in req->root (or is the
 * toolkit's). 0, RUNG_ECOMPILE with x->out->error, or negative. */
static int confine_includes(src_set *x, const char *src, size_t len)
{
	const rung_compile_req *req = x->req;
	if (!req->root || !req->root[0])
		return 0;
	confine_walk w = { .x = x };
	if (!realpath(req->root, w.root))
		return rung_error_set(RUNG_EIO, "%s: %s", req->root, strerror(errno));
	char buf[1024];
	const char *tk = cuda_include(buf, sizeof(buf));
	if (!tk || !realpath(tk, w.toolkit))
		w.toolkit[0] = 0;
	char *dir = rung_fs_dir_of(req->file);
	int e = dir ? confine_text(&w, src, len, req->file, dir, 0) : rung_error_set(RUNG_ENOMEM, "out of memory");
	free(dir);
	for (int i = 0; i < x->n && e == 0; i++) { /* in-memory headers: looked up from the current directory */
		if (!strcmp(x->names[i], RUNG_H_NAME) && x->texts[i] == rung_h_text)
			continue;
		char *hd = rung_fs_dir_of(x->names[i]);
		e = hd ? confine_text(&w, x->texts[i], strlen(x->texts[i]), x->names[i], hd, 1)
		       : rung_error_set(RUNG_ENOMEM, "out of memory");
		free(hd);
	}
	for (int i = 0; i < w.nseen; i++)
		free(w.seen[i]);
	free(w.seen);
	return e;
}

/* Checks the source and every header it reaches; fills x with the headers for
 * NVRTC (a byte-order mark dropped) and *src with the text to compile. */
static int check_sources(src_set *x, const char **src)
{
	const rung_compile_req *req = x->req;
	size_t skip = 0;
	int e = check_bytes(x, &skip, req->src, req->src_len, req->file);
	if (e < 0)
		return e;
	*src = req->src + skip;
	/* + the built-in rung.h (gpu/rung_h.h) unless the version has its own */
	bool own_rung_h = false;
	int nh = req->headers ? req->nheaders : 0;
	for (int i = 0; i < nh; i++) {
		const rung_header *h = &req->headers[i];
		if (!h->name || !h->text)
			continue;
		own_rung_h |= !strcmp(h->name, RUNG_H_NAME);
		if ((e = check_bytes(x, &skip, h->text, h->len, h->name)) < 0 || (e = add_header(x, h->name, h->text + skip)) < 0)
			return e;
	}
	if (!own_rung_h && (e = add_header(x, RUNG_H_NAME, rung_h_text)) < 0)
		return e;
	int nmem = x->n;
	size_t len = req->src_len ? req->src_len - skip : strlen(*src);
	if ((e = confine_includes(x, *src, len)) < 0)
		return e;
	if ((e = check_includes(x, *src, NULL, 0)) < 0)
		return e;
	for (int i = 0; i < nmem && e == 0; i++) /* git headers may #include -I ones */
		e = check_includes(x, x->texts[i], NULL, 1);
	return e;
}

/* ---- the entry's parameters ---------------------------------------------------- */

/* Scratch arguments the kernel's sidecar adds after the [arg] sections. */
static int added_scratch(const rung_compile_req *req)
{
	return req->spec && !req->spec->nscratch && req->launch ? req->launch->nscratch : 0;
}

/* The kernel takes as many parameters as the spec has [arg] sections (the worker
 * passes one per [arg], in order), or those and the scratch arguments its
 * sidecar adds. Fails with out->error set. */
static int check_params(rung_compiled *out, const rung_compile_req *req, int nparams)
{
	const rung_spec *sp = req->spec;
	int add = added_scratch(req);
	if (!sp || nparams == sp->nargs || sp->nargs <= 0 || (sp->nscratch && nparams == sp->nargs - sp->nscratch) ||
	    (add && nparams == sp->nargs + add))
		return 0;
	if (add) {
		const rung_launch *l = req->launch;
		const rung_arg *last = &sp->args[sp->nargs - 1];
		errorf(out, "%s: kernel '%s' takes %d parameter%s, but %s declares %d [arg] section%s (the last is [arg %s] "
		       "at %s:%d) and %s:%d adds %d scratch argument%s (%s%s%s): it should take %d",
		       req->file, req->entry, nparams, nparams == 1 ? "" : "s", sp->path, sp->nargs, sp->nargs == 1 ? "" : "s",
		       last->name, sp->path, last->line, l->sidecar, l->scratch[0].line, add, add == 1 ? "" : "s",
		       l->scratch[0].key, add > 1 ? ", " : "", add > 1 ? l->scratch[1].key : "", sp->nargs + add);
		return rung_error_set(RUNG_ECOMPILE, "%s", out->error);
	}
	const rung_arg *at = nparams < sp->nargs ? &sp->args[nparams] : &sp->args[sp->nargs - 1];
	errorf(out, "%s: kernel '%s' takes %d parameter%s but %s declares %d [arg] section%s (%s is [arg %s] at %s:%d)",
	       req->file, req->entry, nparams, nparams == 1 ? "" : "s", sp->path, sp->nargs, sp->nargs == 1 ? "" : "s",
	       nparams < sp->nargs ? "the first without a parameter" : "the last", at->name, sp->path, at->line);
	return rung_error_set(RUNG_ECOMPILE, "%s", out->error);
}

/* NVRTC shares the driver's compute cache (~/.nv/ComputeCache) where a driver is
 * installed: on a cache hit ptxas does not run and prints no -v resource lines, so
 * the registers and spills of a kernel compiled before would be missing. rung wants
 * them every time (a compile costs 15-100 ms), so the cache is turned off for this
 * process before the first compile. */
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;
static void disable_compute_cache(void)
{
	setenv("CUDA_CACHE_DISABLE", "1", 1);
}

/* ---- kernels committed as PTX or CUBIN (a DSL's output) --------------------- */

/* The bytes the worker passes for argument a: a pointer for a tensor (and a
 * scratch), the dtype's size for a scalar. */
static int64_t arg_bytes(const rung_arg *a)
{
	return a->kind == RUNG_ARG_SCALAR ? (int64_t)rung_dtype_size(a->dtype) : 8;
}

/* The entry's parameter list against the [arg] sections: the count (all of
 * them, or all but the scratch ones) and each size rung can tell. */
static int check_param_sizes(rung_compiled *out, const rung_compile_req *req, int nparams, const int64_t *size,
			     int nsize)
{
	int rc = check_params(out, req, nparams);
	const rung_spec *sp = req->spec;
	if (rc < 0 || !sp)
		return rc;
	for (int i = sp->nargs; i < nparams && i < nsize && i < sp->nargs + added_scratch(req); i++) {
		const rung_launch_scratch *x = &req->launch->scratch[i - sp->nargs];
		if (size[i] > 0 && size[i] != 8) {
			errorf(out, "%s: parameter %d of '%s' is %lld byte%s, but scratch argument %s (added by %s:%d, %s) "
			       "passes 8 (a scratch pointer)", req->file, i + 1, req->entry, (long long)size[i],
			       size[i] == 1 ? "" : "s", x->name, req->launch->sidecar, x->line, x->key);
			return rung_error_set(RUNG_ECOMPILE, "%s", out->error);
		}
	}
	for (int i = 0; i < nparams && i < nsize && i < sp->nargs; i++) {
		const rung_arg *a = &sp->args[i];
		int64_t want = arg_bytes(a);
		if (size[i] > 0 && size[i] != want) {
			errorf(out, "%s: parameter %d of '%s' is %lld byte%s, but [arg %s] (%s:%d) passes %lld (%s)", req->file,
			       i + 1, req->entry, (long long)size[i], size[i] == 1 ? "" : "s", a->name, sp->path, a->line,
			       (long long)want,
			       a->scratch ? "a scratch pointer"
			       : a->kind == RUNG_ARG_SCALAR ? rung_dtype_name(a->dtype)
			                                    : "a pointer");
			return rung_error_set(RUNG_ECOMPILE, "%s", out->error);
		}
	}
	return 0;
}

static int fail_with(rung_compiled *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail_with(rung_compiled *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out->error, sizeof(out->error), fmt, ap);
	va_end(ap);
	if (!out->log && (out->log = malloc(strlen(out->error) + 2)))
		sprintf(out->log, "%s\n", out->error);
	return rung_error_set(RUNG_ECOMPILE, "%s", out->error);
}

static char *dup_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *dup_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (s) {
		va_start(ap, fmt);
		vsnprintf(s, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	return s;
}

/* The architecture named by the PTX's ".target sm_90a[, debug]" line (the
 * first one, before any .entry), when it is a plain sm_NN[a|f] name. */
static bool ptx_target(char *out, size_t outlen, const char *ptx, size_t len)
{
	const char *end = ptx + len;
	for (const char *p = ptx; p < end;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *q = p;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if ((size_t)(eol - q) > 7 && !memcmp(q, ".entry", 6))
			return false;
		if ((size_t)(eol - q) > 8 && !memcmp(q, ".target", 7) && (q[7] == ' ' || q[7] == '\t')) {
			q += 8;
			while (q < eol && (*q == ' ' || *q == '\t'))
				q++;
			size_t n = 0;
			while (q + n < eol && (isalnum((unsigned char)q[n]) || q[n] == '_'))
				n++;
			if (n < 5 || n >= outlen || memcmp(q, "sm_", 3) || !isdigit((unsigned char)q[3]))
				return false;
			memcpy(out, q, n);
			out[n] = 0;
			return true;
		}
		p = eol + 1;
	}
	return false;
}

/* A .ptx kernel: the entry and its parameters checked in the text, then
 * assembled by ptxas (registers and spills from its -v log) or, without
 * ptxas, handed to the worker as PTX for the driver to JIT-compile. */
static int compile_ptx(rung_compiled *out, const rung_compile_req *req, const char *arch)
{
	size_t len = req->src_len ? req->src_len : strlen(req->src), skip = 0;
	if (rung_source_check(&skip, req->src, len, req->file) < 0)
		return fail_with(out, "%s", rung_error_last());
	const char *ptx = req->src + skip;
	len -= skip;
	if (memchr(ptx, 0, len))
		return fail_with(out, "%s: a NUL byte in PTX text", req->file);
	rung_ptx_entry e;
	int rc = rung_ptx_entry_info(&e, ptx, len, req->entry);
	if (rc == RUNG_ENOTFOUND) {
		char names[400];
		int n = 0;
		rung_ptx_entry_names(names, sizeof(names), &n, ptx, len);
		rung_error_clear();
		if (!n)
			return fail_with(out, "%s: no kernel '%s': the PTX has no .entry", req->file, req->entry);
		return fail_with(out, "%s: no kernel '%s' (its .entry list: %s)", req->file, req->entry, names);
	}
	if (rc < 0)
		return fail_with(out, "%s: %s", req->file, rung_error_last());
	snprintf(out->lowered, sizeof(out->lowered), "%s", req->entry);
	if ((rc = check_param_sizes(out, req, e.nparams, e.size, RUNG_PTX_MAX_PARAMS)) < 0)
		return rc;
	if (!(out->ptx = malloc(len + 1)))
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	memcpy(out->ptx, ptx, len);
	out->ptx[len] = 0;
	out->ptx_len = len;
	void *cubin = NULL;
	size_t cl = 0;
	char *log = NULL;
	/* the PTX's own .target wins over the spec's arch: Triton writes
	 * ".target sm_90a" (wgmma and setmaxnreg need the a-variant), which ptxas
	 * refuses to assemble for plain sm_90 (seen on the H200) */
	char target[32];
	if (ptx_target(target, sizeof(target), ptx, len))
		arch = target;
	rc = rung_ptxas_run(&cubin, &cl, &log, ptx, len, arch);
	if (rc == RUNG_ENOTFOUND) {
		/* the driver JIT-compiles PTX: cuModuleLoadData takes the text (NUL-terminated) */
		rung_error_clear();
		free(log);
		if (!(out->cubin = malloc(len + 1)))
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		memcpy(out->cubin, ptx, len);
		((char *)out->cubin)[len] = 0;
		out->cubin_len = len + 1;
		out->log = dup_log("%s: ptxas not found: the driver JIT-compiles the PTX in the worker (registers, spills "
		                   "and SASS are not known before it runs)\n",
		                   req->file);
		return 0;
	}
	out->log = log ? log : strdup("");
	if (rc == RUNG_ECOMPILE) {
		char msg[400];
		if (ptxas_diag(out->log, msg, sizeof(msg)))
			errorf(out, "%s: %s", req->file, msg);
		else
			errorf(out, "%s: %s", req->file, rung_error_last());
		return rung_error_set(RUNG_ECOMPILE, "%s", out->error);
	}
	if (rc < 0)
		return fail_with(out, "%s: %s", req->file, rung_error_last());
	out->cubin = cubin;
	out->cubin_len = cl;
	if (rung_ptxas_parse(&out->kinfo, out->log, out->lowered) < 0) {
		rung_error_clear();
		memset(&out->kinfo, 0, sizeof(out->kinfo));
	}
	return 0;
}

/* A .cubin kernel: loaded as it is; the entry, its parameters and its
 * register count read from the ELF image. */
static int compile_cubin(rung_compiled *out, const rung_compile_req *req)
{
	size_t len = req->src_len ? req->src_len : strlen(req->src);
	char names[400];
	int n = 0;
	if (rung_cubin_entry_names(names, sizeof(names), &n, req->src, len) < 0) {
		rung_error_clear();
		return fail_with(out, "%s: not a CUBIN (an ELF64 image from ptxas or nvcc -cubin)", req->file);
	}
	rung_cubin_entry e;
	int rc = rung_cubin_entry_info(&e, req->src, len, req->entry);
	if (rc == RUNG_ENOTFOUND) {
		rung_error_clear();
		if (!n)
			return fail_with(out, "%s: no kernel '%s': the CUBIN has no kernel", req->file, req->entry);
		return fail_with(out, "%s: no kernel '%s' (its kernels: %s)", req->file, req->entry, names);
	}
	if (rc < 0)
		return fail_with(out, "%s: %s", req->file, rung_error_last());
	snprintf(out->lowered, sizeof(out->lowered), "%s", req->entry);
	if ((rc = check_param_sizes(out, req, e.nparams, e.size, RUNG_CUBIN_MAX_PARAMS)) < 0)
		return rc;
	if (!(out->cubin = malloc(len ? len : 1)))
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	memcpy(out->cubin, req->src, len);
	out->cubin_len = len;
	if (e.has_regs) {
		out->kinfo.valid = true;
		snprintf(out->kinfo.name, sizeof(out->kinfo.name), "%s", req->entry);
		out->kinfo.regs = e.regs;
	}
	out->log = e.has_regs ? dup_log("%s: CUBIN loaded as it is: %s uses %d registers\n", req->file, req->entry, e.regs)
	                      : dup_log("%s: CUBIN loaded as it is\n", req->file);
	return 0;
}

/* The CUBIN cache's key: the disk headers (added by confine_text as it walks
 * them), then NVRTC's version and library file, every option (the arch, -I directories, the
 * spec's options), the file name (in the line info), the entry, the source and
 * the in-memory headers by name and text. The toolkit's own headers are
 * covered by its include directory and NVRTC's version. */
static void cache_key(char out[65], rung_sha256_ctx *k, const opt_list *o, const src_set *x,
		      const rung_compile_req *req, const char *src)
{
	key_str(k, "rung-cubin-key 1");
	key_str(k, rung_nvrtc_version());
	/* the NVRTC library itself (its version says major.minor only): path, size, time */
	Dl_info dl;
	struct stat st;
	if (dladdr(*(void **)&rung_nvrtc.nvrtcCompileProgram, &dl) && dl.dli_fname && stat(dl.dli_fname, &st) == 0) {
		char id[64];
		snprintf(id, sizeof(id), "%lld %lld.%09ld", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
		         (long)st.st_mtim.tv_nsec);
		key_str(k, dl.dli_fname);
		key_str(k, id);
	}
	for (int i = 0; i < o->n; i++)
		key_str(k, o->v[i]);
	key_str(k, req->file);
	key_str(k, req->entry);
	key_field(k, src, req->src_len ? req->src_len - (size_t)(src - req->src) : strlen(src));
	for (int i = 0; i < x->n; i++) {
		key_str(k, x->names[i]);
		key_str(k, x->texts[i]);
	}
	rung_sha256_final_hex(k, out);
}

int rung_compile(rung_compiled *out, const rung_compile_req *req)
{
	pthread_once(&cache_once, disable_compute_cache);
	memset(out, 0, sizeof(*out));
	if (!req || !req->src || !req->file || !req->entry || !*req->entry)
		return rung_error_set(RUNG_EINVAL, "compile: source, file name and entry are required");
	double t0 = rung_now_s();
	const char *arch = req->arch && *req->arch ? req->arch : "sm_90";
	rung_kernel_lang lang = rung_kernel_lang_of(req->file);
	if (lang != RUNG_LANG_CUDA) {
		int lr = lang == RUNG_LANG_PTX ? compile_ptx(out, req, arch) : compile_cubin(out, req);
		if (!out->log)
			out->log = strdup(out->error);
		out->ms = (rung_now_s() - t0) * 1e3;
		if (lr < 0 && !out->error[0])
			errorf(out, "%s", rung_error_last());
		return lr;
	}

	/* CUDA C: NVRTC, loaded now (the first compile of the process) */
	if (rung_nvrtc_load() < 0) {
		errorf(out, "%s: %s", req->file, rung_error_last());
		out->log = strdup(out->error);
		out->ms = (rung_now_s() - t0) * 1e3;
		return rung_error_set(RUNG_EUNSUPPORTED, "%s", out->error);
	}
	pthread_once(&archs_once, load_archs);
	opt_list opts = {0};
	src_set x = {.req = req, .out = out};
	const char *src = NULL;
	nvrtcProgram prog = NULL;
	rung_sha256_ctx key;
	char key_hex[65] = "";
	if (req->cache_dir && *req->cache_dir && req->root && *req->root) {
		rung_sha256_init(&key);
		x.key = &key;
	}
	int rc = build_options(&opts, req);
	if (rc < 0)
		goto done;
	if (!arch_listed(arch) && !options_set_arch(req->options)) {
		arch_error(out, req, arch);
		rc = rung_error_set(RUNG_ECOMPILE, "%s", out->error);
		goto done;
	}
	if ((rc = check_sources(&x, &src)) < 0) {
		if (rc == RUNG_ECOMPILE) {
			rc = rung_error_set(RUNG_ECOMPILE, "%s", out->error);
			free(out->log);
			if ((out->log = malloc(strlen(out->error) + 2)))
				sprintf(out->log, "%s\n", out->error);
		}
		goto done;
	}

	if (x.key) {
		cache_key(key_hex, &key, &opts, &x, req, src);
		if (rung_compile_cache_get(out, req->cache_dir, key_hex) == 1) {
			out->cached = true;
			goto compiled;
		}
	}

	nvrtcResult r = rung_nvrtc.nvrtcCreateProgram(&prog, src, req->file, x.n, x.texts, x.names);
	if (r != NVRTC_SUCCESS) {
		prog = NULL;
		rc = rung_error_set(RUNG_ECOMPILE, "%s: nvrtcCreateProgram: %s", req->file, rung_nvrtc.nvrtcGetErrorString(r));
		goto done;
	}
	r = rung_nvrtc.nvrtcAddNameExpression(prog, req->entry);
	if (r != NVRTC_SUCCESS) {
		rc = rung_error_set(RUNG_ECOMPILE, "%s: bad entry '%s': %s", req->file, req->entry,
		                    rung_nvrtc.nvrtcGetErrorString(r));
		goto done;
	}

	nvrtcResult cr = rung_nvrtc.nvrtcCompileProgram(prog, opts.n, (const char *const *)opts.v);
	size_t log_size = 0;
	if (rung_nvrtc.nvrtcGetProgramLogSize(prog, &log_size) == NVRTC_SUCCESS && log_size > 0) {
		out->log = malloc(log_size + 1);
		if (out->log && rung_nvrtc.nvrtcGetProgramLog(prog, out->log) != NVRTC_SUCCESS)
			out->log[0] = 0;
		if (out->log)
			out->log[log_size] = 0;
	}
	if (!out->log)
		out->log = strdup("");

	if (cr != NVRTC_SUCCESS) {
		if (cr == NVRTC_ERROR_INVALID_OPTION || strstr(out->log, "Command-line error"))
			option_error(out, req, arch);
		else
			fill_failure(out, req, cr);
		rc = rung_error_set(RUNG_ECOMPILE, "%s", out->error);
		goto done;
	}

	const char *lowered = NULL;
	if (rung_nvrtc.nvrtcGetLoweredName(prog, req->entry, &lowered) != NVRTC_SUCCESS || !lowered) {
		entry_not_found(out, req);
		rc = rung_error_set(RUNG_ECOMPILE, "%s", out->error);
		goto done;
	}
	snprintf(out->lowered, sizeof(out->lowered), "%s", lowered);

	size_t n = 0;
	if (rung_nvrtc.nvrtcGetPTXSize(prog, &n) != NVRTC_SUCCESS || !(out->ptx = malloc(n + 1)) ||
	    rung_nvrtc.nvrtcGetPTX(prog, out->ptx) != NVRTC_SUCCESS) {
		rc = rung_error_set(RUNG_ECOMPILE, "%s: could not get PTX", req->file);
		goto done;
	}
	out->ptx[n] = 0;
	out->ptx_len = strlen(out->ptx);

	n = 0;
	if (rung_nvrtc.nvrtcGetCUBINSize(prog, &n) != NVRTC_SUCCESS || n == 0) {
		errorf(out, "%s: no CUBIN (arch '%s' must be a real sm_XX)", req->file,
		       req->arch ? req->arch : "sm_90");
		rc = rung_error_set(RUNG_ECOMPILE, "%s", out->error);
		goto done;
	}
	if (!(out->cubin = malloc(n)) || rung_nvrtc.nvrtcGetCUBIN(prog, out->cubin) != NVRTC_SUCCESS) {
		rc = rung_error_set(RUNG_ECOMPILE, "%s: could not get CUBIN", req->file);
		goto done;
	}
	out->cubin_len = n;
	if (key_hex[0] && rung_compile_cache_put(req->cache_dir, key_hex, out) < 0)
		rung_error_clear(); /* not kept: the next compile runs NVRTC again */

compiled:;
	int nparams = 0;
	if (rung_ptx_entry_params(&nparams, out->ptx, out->ptx_len, out->lowered) < 0) {
		errorf(out, "%s: '%s' is not a __global__ kernel", req->file, req->entry);
		rc = rung_error_set(RUNG_ECOMPILE, "%s", out->error);
		goto done;
	}
	if ((rc = check_params(out, req, nparams)) < 0)
		goto done;
	/* Resources are absent (kinfo.valid false, shown as n/a) only if ptxas printed none. */
	if (rung_ptxas_parse(&out->kinfo, out->log, out->lowered) < 0)
		memset(&out->kinfo, 0, sizeof(out->kinfo));
	rc = 0;
done:
	if (prog)
		rung_nvrtc.nvrtcDestroyProgram(&prog);
	src_set_free(&x);
	opt_free(&opts);
	out->ms = (rung_now_s() - t0) * 1e3;
	if (rc < 0 && !out->error[0])
		errorf(out, "%s", rung_error_last());
	return rc;
}

void rung_compiled_clear(rung_compiled *c)
{
	if (!c)
		return;
	free(c->ptx);
	free(c->cubin);
	free(c->log);
	c->ptx = NULL;
	c->cubin = NULL;
	c->log = NULL;
	c->ptx_len = c->cubin_len = 0;
}

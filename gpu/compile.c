/* The compile rung: NVRTC (linked) to PTX + CUBIN, ptxas -v log parsed for the
 * entry kernel. NVRTC diagnostics ("sgemm.cu(12): error: identifier \"x\" is
 * undefined") become "sgemm.cu:12: identifier \"x\" is undefined". */
#include "gpu/compile.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <nvrtc.h>

#include "core/err.h"
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
static int first_diag(const char *log, bool name_map, char *name, size_t name_len, int *line, char *msg, size_t msg_len)
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
				if (colon && err && err < colon && colon - k < 40 && is_nm == name_map) {
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

static void fill_failure(rung_compiled *out, const rung_compile_req *req, nvrtcResult res)
{
	char name[256], msg[400];
	int line = 0;
	const char *log = out->log ? out->log : "";
	if (first_diag(log, false, name, sizeof(name), &line, msg, sizeof(msg))) {
		errorf(out, "%s:%d: %s", name, line, msg);
	} else if (at_end_diag(log, msg, sizeof(msg))) {
		errorf(out, "%s: at end of source: %s", req->file, msg);
	} else if (first_diag(log, true, name, sizeof(name), &line, msg, sizeof(msg))) {
		if (strstr(msg, "non-__global__"))
			errorf(out, "%s: '%s' is not a __global__ kernel", req->file, req->entry);
		else
			errorf(out, "entry '%s' not found in %s", req->entry, req->file);
	} else if (ptxas_diag(log, msg, sizeof(msg))) {
		errorf(out, "%s: %s", req->file, msg);
	} else if (max_static_smem(log) > STATIC_SMEM_LIMIT) {
		errorf(out, "%s: %lld bytes of static shared memory (limit %d; use dynamic shared memory)", req->file,
		       max_static_smem(log), STATIC_SMEM_LIMIT);
	} else {
		errorf(out, "%s: compilation failed (%s)", req->file, nvrtcGetErrorString(res));
	}
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

/* True when the PTX declares `name` as a kernel (.entry), not a device function (.func). */
static bool ptx_has_entry(const char *ptx, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = strstr(ptx, ".entry "); p; p = strstr(p + 1, ".entry ")) {
		const char *q = p + strlen(".entry ");
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, name, n) == 0 && (q[n] == '(' || q[n] == ' ' || q[n] == '\n' || q[n] == '\r'))
			return true;
	}
	return false;
}

int rung_compile(rung_compiled *out, const rung_compile_req *req)
{
	pthread_once(&cache_once, disable_compute_cache);
	memset(out, 0, sizeof(*out));
	if (!req || !req->src || !req->file || !req->entry || !*req->entry)
		return rung_error_set(RUNG_EINVAL, "compile: source, file name and entry are required");
	double t0 = rung_now_s();

	opt_list opts = {0};
	int rc = build_options(&opts, req);
	if (rc < 0) {
		opt_free(&opts);
		return rc;
	}

	int nh = req->headers ? req->nheaders : 0;
	const char **hnames = NULL, **htexts = NULL;
	/* + the built-in rung.h (gpu/rung_h.h) unless the version has its own */
	bool own_rung_h = false;
	for (int i = 0; i < nh; i++)
		if (req->headers[i].name && !strcmp(req->headers[i].name, RUNG_H_NAME))
			own_rung_h = true;
	hnames = calloc((size_t)nh + 1, sizeof(*hnames));
	htexts = calloc((size_t)nh + 1, sizeof(*htexts));
	if (!hnames || !htexts) {
		free(hnames);
		free(htexts);
		opt_free(&opts);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	for (int i = 0; i < nh; i++) {
		hnames[i] = req->headers[i].name;
		htexts[i] = req->headers[i].text;
	}
	if (!own_rung_h) {
		hnames[nh] = RUNG_H_NAME;
		htexts[nh] = rung_h_text;
		nh++;
	}

	nvrtcProgram prog;
	nvrtcResult r = nvrtcCreateProgram(&prog, req->src, req->file, nh, htexts, hnames);
	free(hnames);
	free(htexts);
	if (r != NVRTC_SUCCESS) {
		opt_free(&opts);
		return rung_error_set(RUNG_ECOMPILE, "%s: nvrtcCreateProgram: %s", req->file, nvrtcGetErrorString(r));
	}
	r = nvrtcAddNameExpression(prog, req->entry);
	if (r != NVRTC_SUCCESS) {
		rc = rung_error_set(RUNG_ECOMPILE, "%s: bad entry '%s': %s", req->file, req->entry,
		                    nvrtcGetErrorString(r));
		goto done;
	}

	nvrtcResult cr = nvrtcCompileProgram(prog, opts.n, (const char *const *)opts.v);
	size_t log_size = 0;
	if (nvrtcGetProgramLogSize(prog, &log_size) == NVRTC_SUCCESS && log_size > 0) {
		out->log = malloc(log_size + 1);
		if (out->log && nvrtcGetProgramLog(prog, out->log) != NVRTC_SUCCESS)
			out->log[0] = 0;
		if (out->log)
			out->log[log_size] = 0;
	}
	if (!out->log)
		out->log = strdup("");

	if (cr != NVRTC_SUCCESS) {
		if (cr == NVRTC_ERROR_INVALID_OPTION)
			errorf(out, "%s: invalid NVRTC option (options: %s)", req->file,
			       req->options ? req->options : "");
		else
			fill_failure(out, req, cr);
		rc = rung_error_set(RUNG_ECOMPILE, "%s", out->error);
		goto done;
	}

	const char *lowered = NULL;
	if (nvrtcGetLoweredName(prog, req->entry, &lowered) != NVRTC_SUCCESS || !lowered) {
		errorf(out, "entry '%s' not found in %s", req->entry, req->file);
		rc = rung_error_set(RUNG_ECOMPILE, "%s", out->error);
		goto done;
	}
	snprintf(out->lowered, sizeof(out->lowered), "%s", lowered);

	size_t n = 0;
	if (nvrtcGetPTXSize(prog, &n) != NVRTC_SUCCESS || !(out->ptx = malloc(n + 1)) ||
	    nvrtcGetPTX(prog, out->ptx) != NVRTC_SUCCESS) {
		rc = rung_error_set(RUNG_ECOMPILE, "%s: could not get PTX", req->file);
		goto done;
	}
	out->ptx[n] = 0;
	out->ptx_len = strlen(out->ptx);

	n = 0;
	if (nvrtcGetCUBINSize(prog, &n) != NVRTC_SUCCESS || n == 0) {
		errorf(out, "%s: no CUBIN (arch '%s' must be a real sm_XX)", req->file,
		       req->arch ? req->arch : "sm_90");
		rc = rung_error_set(RUNG_ECOMPILE, "%s", out->error);
		goto done;
	}
	if (!(out->cubin = malloc(n)) || nvrtcGetCUBIN(prog, out->cubin) != NVRTC_SUCCESS) {
		rc = rung_error_set(RUNG_ECOMPILE, "%s: could not get CUBIN", req->file);
		goto done;
	}
	out->cubin_len = n;

	if (!ptx_has_entry(out->ptx, out->lowered)) {
		errorf(out, "%s: '%s' is not a __global__ kernel", req->file, req->entry);
		rc = rung_error_set(RUNG_ECOMPILE, "%s", out->error);
		goto done;
	}
	/* Resources are absent (kinfo.valid false, shown as n/a) only if ptxas printed none. */
	if (rung_ptxas_parse(&out->kinfo, out->log, out->lowered) < 0)
		memset(&out->kinfo, 0, sizeof(out->kinfo));
	rc = 0;
done:
	nvrtcDestroyProgram(&prog);
	opt_free(&opts);
	out->ms = (rung_now_s() - t0) * 1e3;
	if (rc < 0 && !out->error[0])
		errorf(out, "%s", rung_error_last());
	return rc;
}

void rung_compiled_free(rung_compiled *c)
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

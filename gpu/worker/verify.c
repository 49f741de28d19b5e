/* rung's own verification kernels inside the worker (gpu/worker/verify.h):
 * the module is loaded once per process, from the sm_90 CUBIN built with rung
 * where the device takes it, else from the compute_75 PTX (the driver JITs it
 * and keeps it in its compute cache). Launches are grid-stride loops of 256
 * threads over at most 8 blocks per SM: memory-bound, a few microseconds per
 * hundred megabytes on an H200. */
#include "gpu/worker/verify.h"

#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/guard.h"
#include "gpu/worker/report.h"

extern const char rung_verify_ptx[];
extern const unsigned char rung_verify_ptx_cubin_sm_90[];
extern const size_t rung_verify_ptx_cubin_sm_90_len;

enum { K_VERIFY, K_PEAK, K_PERTURB, K_BANDS, K_FILL64, K_SMEM, NK };
static const char *const knames[NK] = { "rung_verify", "rung_peak", "rung_perturb",
					"rung_bands", "rung_fill64", "rung_smem_fill" };
static CUmodule mod;
static CUfunction fn[NK];
static bool tried, ok;
static char why[256];
static int sms = 132, smem_max;

bool rung__verify_ready(rung_wctx *c, char *reason, size_t rlen)
{
	if (!tried) {
		tried = true;
		CUresult r = CUDA_ERROR_NO_BINARY_FOR_GPU;
		if (!strcmp(c->env.arch, "sm_90"))
			r = rung_cu.cuModuleLoadData(&mod, rung_verify_ptx_cubin_sm_90);
		if (r != CUDA_SUCCESS)
			r = rung_cu.cuModuleLoadData(&mod, rung_verify_ptx);
		for (int k = 0; k < NK && r == CUDA_SUCCESS; k++)
			r = rung_cu.cuModuleGetFunction(&fn[k], mod, knames[k]);
		if (r != CUDA_SUCCESS) {
			char d[160];
			rung_cu_describe(d, sizeof(d), r);
			rung__sfmt(why, sizeof(why), "cannot load rung's verification kernels: %s", d);
		} else {
			ok = true;
			if (c->env.sms > 0)
				sms = c->env.sms;
			smem_max = c->smem_optin;
			if (smem_max > 0 &&
			    rung_cu.cuFuncSetAttribute(fn[K_SMEM], CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
						       smem_max) != CUDA_SUCCESS)
				smem_max = 48 * 1024;
		}
	}
	if (!ok && reason)
		rung__sfmt(reason, rlen, "%s", why);
	return ok;
}

static CUresult launch(int k, CUstream st, int64_t work, void **params)
{
	int64_t blocks = (work + 255) / 256;
	if (blocks > (int64_t)sms * 8)
		blocks = (int64_t)sms * 8;
	if (blocks < 1)
		blocks = 1;
	return rung_cu.cuLaunchKernel(fn[k], (unsigned)blocks, 1, 1, 256, 1, 1, 0, st, params, NULL);
}

static uint64_t poison_u64(rung_dtype dt, int variant)
{
	unsigned char pat[8] = { 0 };
	uint64_t v = 0;
	rung_poison_bits(pat, dt, variant);
	memcpy(&v, pat, rung_dtype_size(dt));
	return v;
}

CUresult rung__verify(rung_wctx *c, CUstream st, CUdeviceptr got, CUdeviceptr ref, int64_t n, rung_dtype dt,
		      double atol, double rtol, bool check_poison, int poison_variant, bool exact, CUdeviceptr stat)
{
	(void)c;
	long long nn = n;
	int idt = (int)dt, cp = check_poison, ex = exact;
	unsigned long long pz = poison_u64(dt, poison_variant);
	void *params[] = { &got, &ref, &nn, &idt, &atol, &rtol, &pz, &cp, &ex, &stat };
	return launch(K_VERIFY, st, n, params);
}

CUresult rung__peak(rung_wctx *c, CUstream st, CUdeviceptr ref, int64_t n, rung_dtype dt, CUdeviceptr out)
{
	(void)c;
	long long nn = n;
	int idt = (int)dt;
	void *params[] = { &ref, &nn, &idt, &out };
	return launch(K_PEAK, st, n, params);
}

CUresult rung__perturb(rung_wctx *c, CUstream st, CUdeviceptr dst, CUdeviceptr src, int64_t n, size_t es,
		       uint64_t nonce)
{
	(void)c;
	long long nn = n;
	int ies = (int)es;
	unsigned long long nz = nonce;
	void *params[] = { &dst, &src, &nn, &ies, &nz };
	return launch(K_PERTURB, st, n, params);
}

CUresult rung__bands(rung_wctx *c, CUstream st, const rung_dbuf *b, CUdeviceptr bad)
{
	(void)c;
	if (b->bare)
		return CUDA_SUCCESS; /* no bands (a sanitize run) */
	CUdeviceptr b0 = b->base, b1 = b->ptr + b->bytes;
	long long g = (long long)rung_guard_size();
	unsigned long long key = b->band;
	void *params[] = { &b0, &b1, &g, &key, &bad };
	return launch(K_BANDS, st, 2 * g, params);
}

int rung__write_bands(rung_wjob *j, rung_dbuf *b, uint64_t key, const char *name, char *reason, size_t rlen)
{
	size_t g = rung_guard_size();
	unsigned char band[2 * 4096];
	if (b->bare)
		return 0;
	rung_guard_fill_band_key(band, 2 * g, 0, key);
	CUresult r;
	b->band = key;
	if ((r = rung_cu.cuMemcpyHtoD(b->base, band, g)) != CUDA_SUCCESS ||
	    (r = rung_cu.cuMemcpyHtoD(b->ptr + b->bytes, band + g, g)) != CUDA_SUCCESS)
		return rung__cu_fail(j, r, reason, rlen, "upload of", name);
	return 0;
}

CUresult rung__smem_fill(rung_wctx *c, CUstream st, uint32_t pattern)
{
	(void)c;
	unsigned words = (unsigned)(smem_max / 4);
	void *params[] = { &pattern, &words };
	/* enough blocks for every SM to run one (one fills a whole SM's opt-in smem) */
	return rung_cu.cuLaunchKernel(fn[K_SMEM], (unsigned)sms * 2, 1, 1, 1024, 1, 1, (unsigned)smem_max, st, params,
				      NULL);
}

CUresult rung__poison_async(CUstream st, CUdeviceptr ptr, rung_dtype dt, int64_t n, int variant)
{
	if (n <= 0)
		return CUDA_SUCCESS;
	uint64_t v = poison_u64(dt, variant);
	switch (rung_dtype_size(dt)) {
	case 4: return rung_cu.cuMemsetD32Async(ptr, (unsigned)v, (size_t)n, st);
	case 2: return rung_cu.cuMemsetD16Async(ptr, (unsigned short)v, (size_t)n, st);
	case 1: return rung_cu.cuMemsetD8Async(ptr, (unsigned char)v, (size_t)n, st);
	default: {
		long long nn = n;
		unsigned long long vv = v;
		void *params[] = { &ptr, &nn, &vv };
		return launch(K_FILL64, st, n, params);
	}
	}
}

int64_t rung__vstat_first(const rung_vstat *s)
{
	return s->first_inv ? (int64_t)~s->first_inv : -1;
}

void rung__plan_check_opts(rung_check_opts *o, const rung_plan *p, rung_dtype dt)
{
	rung_check_opts_default(o, dt);
	if (p->has_atol) {
		o->atol = p->atol;
		o->atol_scaled = false;
	}
	if (p->has_rtol)
		o->rtol = p->rtol;
	o->has_min_psnr = p->has_min_psnr;
	o->min_psnr = p->min_psnr;
	o->has_min_cossim = p->has_min_cossim;
	o->min_cossim = p->min_cossim;
}

uint64_t rung__nonce(void)
{
	uint64_t v = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (read(fd, &v, sizeof v) != (ssize_t)sizeof v)
			v = 0;
		close(fd);
	}
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return v ^ ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40);
}

int rung__pick_set(int nsets)
{
	static uint64_t st;
	if (nsets < 2)
		return 0;
	if (!st)
		st = rung__nonce() | 1;
	st ^= st << 13;
	st ^= st >> 7;
	st ^= st << 17;
	return (int)((st >> 32) & 1);
}

CUresult rung__dalloc(CUdeviceptr *p, size_t bytes)
{
	CUresult r = rung_cu.cuMemAlloc(p, bytes ? bytes : 1);
	if (r != CUDA_SUCCESS)
		*p = 0;
	return r;
}

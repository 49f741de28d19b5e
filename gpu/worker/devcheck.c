/* The device-side check (gpu/worker/devcheck.h). The module is rung's own,
 * built from gpu/kernels/check.cu at build time; scratch device memory for the
 * per-chunk accumulators and hashes is kept for the process's life and grows on
 * demand. */
#include "gpu/worker/devcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/guard.h"
#include "core/timing.h"
#include "gpu/worker/report.h"

extern const char rung_check_ptx[];
extern const unsigned char rung_check_ptx_cubin_sm_90[];
extern const size_t rung_check_ptx_cubin_sm_90_len;

#define CH RUNG_METRICS_CHUNK

enum { K_GEN, K_HASH, K_SCAN, K_FEED, K_GROUP, K_FOLD, K_ABI, NK };
static const char *const knames[NK] = { "rung_dc_gen", "rung_dc_hash", "rung_dc_scan",
					"rung_dc_feed", "rung_dc_group", "rung_dc_fold", "rung_dc_abi" };
static CUmodule mod;
static CUfunction fn[NK];
static bool tried, ok;
static char why[256];
static int nsm = 132;
static CUdeviceptr scratch;
static size_t scratch_bytes;

/* RUNG_TIMING=1: the device time of the check's kernels, from events on their
 * stream (what each waited for SMs held by other streams included), added to
 * the worker's laps as "... (gpu)". Nothing is recorded otherwise. */
static CUevent tev[2];
static bool tev_on(void)
{
	static int state = -1;
	if (state < 0) {
		state = rung_timing_enabled() && rung_cu.cuEventCreate(&tev[0], 0) == CUDA_SUCCESS &&
			rung_cu.cuEventCreate(&tev[1], 0) == CUDA_SUCCESS;
	}
	return state == 1;
}
static void tev_mark(CUstream st, int i)
{
	if (tev_on())
		rung_cu.cuEventRecord(tev[i], st);
}
/* after tev_mark(st, 0), the launch, tev_mark(st, 1): waits, adds the span */
static void tev_add(const char *phase)
{
	float ms = 0;
	if (tev_on() && rung_cu.cuEventSynchronize(tev[1]) == CUDA_SUCCESS &&
	    rung_cu.cuEventElapsedTime(&ms, tev[0], tev[1]) == CUDA_SUCCESS)
		rung_timing_add(phase, ms * 1e-3);
}

static int64_t nchunks(int64_t n)
{
	return (n + CH - 1) / CH;
}

/* Scratch of at least bytes (contents undefined). */
/* The metrics kernels' window of chunk accumulators (a multiple of
 * RUNG_METRICS_GROUP), see rung__dev_metrics. */
enum { WINDOW = 8192 };

/* One scratch buffer, sized at the first use for a whole metrics window so it
 * never grows during a job: growing frees the old one, and cuMemFree waits for
 * the whole device, the second input set's reference run included (57 ms of
 * the H200's SGEMM check went there). */
static CUresult scratch_get(size_t bytes, CUdeviceptr *out)
{
	if (bytes > scratch_bytes) {
		if (scratch)
			rung_cu.cuMemFree(scratch);
		scratch = 0;
		scratch_bytes = 0;
		size_t least = (size_t)(WINDOW + 1) * sizeof(rung_metrics_acc);
		size_t want = bytes < least ? least : bytes;
		CUresult r = rung_cu.cuMemAlloc(&scratch, want);
		if (r != CUDA_SUCCESS) {
			scratch = 0;
			return r;
		}
		scratch_bytes = want;
	}
	*out = scratch;
	return CUDA_SUCCESS;
}

static CUresult launch(int k, CUstream st, unsigned blocks, unsigned threads, void **params)
{
	return rung_cu.cuLaunchKernel(fn[k], blocks ? blocks : 1, 1, 1, threads, 1, 1, 0, st, params, NULL);
}

/* Grid-stride launches: at most 8 blocks of 256 per SM. */
static unsigned blocks_for(int64_t work)
{
	int64_t b = (work + 255) / 256;
	if (b > (int64_t)nsm * 8)
		b = (int64_t)nsm * 8;
	return b < 1 ? 1 : (unsigned)b;
}

bool rung__devcheck_load(const char *arch, int sms, char *reason, size_t rlen)
{
	if (!tried) {
		tried = true;
		CUresult r = CUDA_ERROR_NO_BINARY_FOR_GPU;
		if (arch && !strcmp(arch, "sm_90"))
			r = rung_cu.cuModuleLoadData(&mod, rung_check_ptx_cubin_sm_90);
		if (r != CUDA_SUCCESS)
			r = rung_cu.cuModuleLoadData(&mod, rung_check_ptx);
		for (int k = 0; k < NK && r == CUDA_SUCCESS; k++)
			r = rung_cu.cuModuleGetFunction(&fn[k], mod, knames[k]);
		uint64_t abi[8] = { 0 };
		CUdeviceptr d = 0;
		if (r == CUDA_SUCCESS && (r = scratch_get(sizeof abi, &d)) == CUDA_SUCCESS) {
			void *params[] = { &d };
			if ((r = launch(K_ABI, NULL, 1, 1, params)) == CUDA_SUCCESS)
				r = rung_cu.cuMemcpyDtoH(abi, d, sizeof abi);
		}
		if (r != CUDA_SUCCESS) {
			char dsc[160];
			rung_cu_describe(dsc, sizeof(dsc), r);
			rung__sfmt(why, sizeof(why), "cannot load rung's device check kernels: %s", dsc);
		} else if (abi[0] != sizeof(rung_metrics_acc) || abi[1] != sizeof(rung_hd_gen) ||
			   abi[2] != sizeof(rung_hd_feed) || abi[3] != offsetof(rung_metrics_acc, bad_expected) ||
			   abi[4] != offsetof(rung_metrics_acc, ulp_hist) || abi[5] != (uint64_t)CH ||
			   abi[6] != RUNG_METRICS_GROUP || abi[7] != offsetof(rung_metrics_acc, map)) {
			rung__sfmt(why, sizeof(why), "rung's device check kernels were built with another layout (accumulator %llu bytes, host %zu)",
				 (unsigned long long)abi[0], sizeof(rung_metrics_acc));
		} else {
			ok = true;
			if (sms > 0)
				nsm = sms;
		}
	}
	if (!ok && reason)
		rung__sfmt(reason, rlen, "%s", why);
	return ok;
}

bool rung__devcheck_on(rung_wctx *c)
{
	static int state = -1; /* -1 undecided, 0 host, 1 device */
	if (state < 0) {
		const char *e = getenv("RUNG_HOST_CHECK");
		if (e && *e && strcmp(e, "0") != 0) {
			state = 0;
		} else {
			char reason[256];
			state = rung__devcheck_load(c->env.arch, c->env.sms, reason, sizeof(reason)) ? 1 : 0;
			if (!state)
				fprintf(stderr, "rung worker: %s; checking on the host\n", reason);
		}
	}
	return state == 1;
}

CUresult rung__dev_gen(CUstream st, CUdeviceptr dst, int64_t n, const rung_hd_gen *g)
{
	if (n <= 0)
		return CUDA_SUCCESS;
	long long nn = n;
	rung_hd_gen gv = *g;
	void *params[] = { &dst, &nn, &gv };
	return launch(K_GEN, st, blocks_for((n + 1) / 2), 256, params);
}

CUresult rung__dev_hash(CUstream st, CUdeviceptr buf, int64_t n, size_t es, uint64_t *hash)
{
	int64_t nc = nchunks(n);
	if (nc <= 0)
		return CUDA_SUCCESS;
	CUdeviceptr d;
	CUresult r = scratch_get((size_t)nc * 8, &d);
	if (r != CUDA_SUCCESS)
		return r;
	long long nn = n;
	int ies = (int)es;
	void *params[] = { &buf, &nn, &ies, &d };
	unsigned blocks = nc > (int64_t)nsm * 16 ? (unsigned)nsm * 16 : (unsigned)nc;
	tev_mark(st, 0);
	if ((r = launch(K_HASH, st, blocks, 256, params)) != CUDA_SUCCESS)
		return r;
	tev_mark(st, 1);
	tev_add("device check: hash kernel (gpu)");
	if ((r = rung_cu.cuMemcpyDtoHAsync(hash, d, (size_t)nc * 8, st)) != CUDA_SUCCESS)
		return r;
	return rung_cu.cuStreamSynchronize(st);
}

CUresult rung__dev_scan(CUstream st, CUdeviceptr ref, int64_t n, rung_dtype dt, bool count_poison, double *peak,
			int64_t *pcount, int64_t *pfirst)
{
	uint64_t out[3] = { 0, 0, 0 };
	CUdeviceptr d;
	CUresult r = scratch_get(sizeof out, &d);
	if (r != CUDA_SUCCESS)
		return r;
	if ((r = rung_cu.cuMemsetD8Async(d, 0, sizeof out, st)) != CUDA_SUCCESS)
		return r;
	if (n > 0) {
		long long nn = n;
		int idt = (int)dt, cp = count_poison;
		unsigned char pat[8] = { 0 };
		unsigned long long pz = 0;
		rung_poison_bits(pat, dt, 0);
		memcpy(&pz, pat, rung_dt_size(dt));
		void *params[] = { &ref, &nn, &idt, &cp, &pz, &d };
		if ((r = launch(K_SCAN, st, blocks_for(n), 256, params)) != CUDA_SUCCESS)
			return r;
	}
	if ((r = rung_cu.cuMemcpyDtoHAsync(out, d, sizeof out, st)) != CUDA_SUCCESS ||
	    (r = rung_cu.cuStreamSynchronize(st)) != CUDA_SUCCESS)
		return r;
	double pk;
	memcpy(&pk, &out[0], 8);
	*peak = pk;
	if (pcount)
		*pcount = (int64_t)out[1];
	if (pfirst)
		*pfirst = out[2] ? (int64_t)~out[2] : -1;
	return CUDA_SUCCESS;
}

CUresult rung__dev_metrics(CUstream st, CUdeviceptr got, CUdeviceptr ref, int64_t n, const rung_hd_feed *f,
			   rung_metrics_acc *total)
{
	int64_t nc = nchunks(n);
	if (nc <= 0) {
		rung_hd_acc_init(total, 0);
		return CUDA_SUCCESS;
	}
	/* windows of at most WINDOW chunks (a multiple of RUNG_METRICS_GROUP) in
	 * acc[0 ..], fed, merged by groups, then folded into the total kept in
	 * acc[win]: core/metrics.h's merge order */
	_Static_assert(WINDOW % RUNG_METRICS_GROUP == 0, "windows hold whole groups");
	int64_t win = nc < WINDOW ? nc : WINDOW;
	CUdeviceptr d;
	double ts = rung_now_s();
	CUresult r = scratch_get((size_t)(win + 1) * sizeof(rung_metrics_acc), &d);
	if (r != CUDA_SUCCESS)
		return r;
	rung_timing_lap("device check: scratch", ts);
	CUdeviceptr dt = d + (size_t)win * sizeof(rung_metrics_acc);
	long long nn = n;
	rung_hd_feed fv = *f;
	for (int64_t c0 = 0; c0 < nc; c0 += win) {
		long long lc0 = c0, cw = nc - c0 < win ? nc - c0 : win, slot0 = 0;
		int first = c0 == 0;
		void *params[] = { &got, &ref, &nn, &fv, &d, &lc0, &cw, &slot0 };
		/* one thread per chunk, 32 to a block: a chunk is a sequential walk,
		 * so the chunks are spread over as many SMs as there are */
		tev_mark(st, 0);
		if ((r = launch(K_FEED, st, (unsigned)((cw + 31) / 32), 32, params)) != CUDA_SUCCESS)
			return r;
		tev_mark(st, 1);
		tev_add("device check: feed kernel (gpu)");
		long long ng = (cw + RUNG_METRICS_GROUP - 1) / RUNG_METRICS_GROUP;
		void *gparams[] = { &d, &cw };
		tev_mark(st, 0);
		if ((r = launch(K_GROUP, st, (unsigned)((ng + 31) / 32), 32, gparams)) != CUDA_SUCCESS)
			return r;
		tev_mark(st, 1);
		tev_add("device check: group kernel (gpu)");
		void *fparams[] = { &d, &cw, &dt, &first };
		tev_mark(st, 0);
		if ((r = launch(K_FOLD, st, 1, 1, fparams)) != CUDA_SUCCESS)
			return r;
		tev_mark(st, 1);
		tev_add("device check: fold kernel (gpu)");
	}
	/* read back through pinned memory, once allocated: a copy to pageable
	 * memory is staged by the driver */
	static rung_metrics_acc *pinned;
	static bool pinned_tried;
	if (!pinned_tried) {
		pinned_tried = true;
		void *h = NULL;
		if (rung_cu.cuMemHostAlloc && rung_cu.cuMemHostAlloc(&h, sizeof *pinned, 0) == CUDA_SUCCESS)
			pinned = h;
	}
	double t0 = rung_now_s();
	if ((r = rung_cu.cuMemcpyDtoHAsync(pinned ? pinned : total, dt, sizeof *total, st)) != CUDA_SUCCESS ||
	    (r = rung_cu.cuStreamSynchronize(st)) != CUDA_SUCCESS)
		return r;
	if (pinned)
		memcpy(total, pinned, sizeof *total);
	rung_timing_lap("device check: total readback (wait)", t0);
	return CUDA_SUCCESS;
}

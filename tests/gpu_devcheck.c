/* The device-side check (gpu/worker/devcheck.c, gpu/kernels/check.cu) against
 * the host path, its oracle, in this process on device 0:
 *  - generation: for every dtype x init kind (randn, uniform, ones, zeros,
 *    arange, wide, constant, ints) and the sizes 1, 4097, 65537, 2^20 + 3, the
 *    device's bytes equal rung_fill's (memcmp), and the device's chunk hashes
 *    equal rung__hash_bytes over the same chunks;
 *  - the reference scan: peak and poison count/first equal rung_metrics_peak
 *    and rung_poison_count;
 *  - metrics: on pairs with planted errors (NaN, inf, unwritten poison, a few
 *    big errors, tiny errors everywhere; clean pairs; exact integer compares)
 *    the device's merged accumulator equals the host's bit for bit, and the
 *    rung_check_metric from it equals rung_metrics_compute's (memcmp: every
 *    number, the first bad elements, the ULP histogram, the verdict and reason).
 * Prints one line per group with the count compared. Exit 77 without a CUDA
 * driver or device. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/guard.h"
#include "core/metrics.h"
#include "core/rng.h"
#include "gpu/driver.h"
#include "gpu/worker/devcheck.h"
#include "gpu/worker/stage.h"
#include "harness.h"

static CUstream ST;
static const int64_t SIZES[] = { 1, 4097, 65537, (INT64_C(1) << 20) + 3 };
#define NSIZES 4
static const rung_dtype DTS[] = { RUNG_DT_F64, RUNG_DT_F32, RUNG_DT_F16, RUNG_DT_BF16, RUNG_DT_I64, RUNG_DT_I32, RUNG_DT_U8 };
#define NDTS 7

static bool is_float(rung_dtype dt)
{
	return dt <= RUNG_DT_BF16;
}

static CUdeviceptr dev_alloc(size_t bytes)
{
	CUdeviceptr p = 0;
	if (rung_cu.cuMemAlloc(&p, bytes ? bytes : 1) != CUDA_SUCCESS)
		return 0;
	return p;
}

/* device hashes of buf (n elements) == host hashes of host (the same bytes) */
static int hashes_match(CUdeviceptr d, const void *host, int64_t n, size_t es)
{
	int64_t nc = rung__nchunks(n);
	uint64_t *h = calloc((size_t)nc + 1, 8);
	if (rung__dev_hash(ST, d, n, es, h) != CUDA_SUCCESS) {
		free(h);
		return 0;
	}
	int okk = 1;
	for (int64_t c = 0; c < nc; c++) {
		int64_t c0 = c * RUNG_METRICS_CHUNK, cnt = n - c0 < RUNG_METRICS_CHUNK ? n - c0 : RUNG_METRICS_CHUNK;
		if (rung__hash_bytes((const char *)host + (size_t)c0 * es, (size_t)cnt * es) != h[c]) {
			fprintf(stderr, "  hash of chunk %" PRId64 " differs\n", c);
			okk = 0;
			break;
		}
	}
	free(h);
	return okk;
}

typedef struct {
	rung_init_kind init;
	double a, b;
	const char *name;
	bool float_only;
} gen_case;

static void test_generation(void)
{
	const gen_case cases[] = {
		{ RUNG_INIT_RANDN, 0, 0, "randn", false },       { RUNG_INIT_UNIFORM, -2, 3, "uniform(-2,3)", false },
		{ RUNG_INIT_UNIFORM, -5, 300.5, "uniform(-5,300.5)", false }, { RUNG_INIT_ONES, 0, 0, "ones", false },
		{ RUNG_INIT_ZEROS, 0, 0, "zeros", false },       { RUNG_INIT_ARANGE, 0, 0, "arange", false },
		{ RUNG_INIT_WIDE, 0, 0, "wide", true },          { RUNG_INIT_CONSTANT, 0, 0, "constant(randn)", true },
		{ RUNG_INIT_CONSTANT, 1, 2, "constant(1,2)", true }, { RUNG_INIT_INTS, 0, 0, "ints", true },
		{ RUNG_INIT_SPECIAL, 0, 0, "special", true }, /* every special value (RUNG_SPECIAL_ALL) */
	};
	int compared = 0, hashed = 0;
	int64_t nmax = SIZES[NSIZES - 1];
	void *host = malloc((size_t)nmax * 8), *back = malloc((size_t)nmax * 8);
	CUdeviceptr d = dev_alloc((size_t)nmax * 8);
	CHECK(host && back && d);
	for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
		const gen_case *gc = &cases[ci];
		for (int di = 0; di < NDTS; di++) {
			rung_dtype dt = DTS[di];
			if (gc->float_only && !is_float(dt))
				continue;
			size_t es = rung_dt_size(dt);
			for (int si = 0; si < NSIZES; si++) {
				int64_t n = SIZES[si];
				uint64_t seed = 20261203u + (uint64_t)si;
				const char *arg = si & 1 ? "A" : "weight_B";
				CHECK_INT(rung_fill_par(host, dt, 0, n, gc->init, gc->a, gc->b, seed, arg), 0);
				rung_hd_gen g;
				rung_gen_params(&g, dt, gc->init, gc->a, gc->b, seed, arg);
				rung_cu.cuMemsetD8(d, 0xa5, (size_t)n * es);
				CHECK_INT(rung__dev_gen(ST, d, n, &g), CUDA_SUCCESS);
				CHECK_INT(rung_cu.cuStreamSynchronize(ST), CUDA_SUCCESS);
				CHECK_INT(rung_cu.cuMemcpyDtoH(back, d, (size_t)n * es), CUDA_SUCCESS);
				if (memcmp(host, back, (size_t)n * es) != 0) {
					int64_t at = 0;
					while (memcmp((char *)host + at * es, (char *)back + at * es, es) == 0)
						at++;
					fprintf(stderr, "  %s %s n=%" PRId64 ": element %" PRId64 " host %.17g device %.17g\n", gc->name,
						rung_dtype_name(dt), n, at, rung_load_double(host, dt, at), rung_load_double(back, dt, at));
					CHECK(!"device generation == host fill");
				} else {
					compared++;
				}
				if (hashes_match(d, host, n, es))
					hashed++;
				else
					CHECK(!"device chunk hashes == host hashes");
			}
		}
	}
	printf("     generation: %d of %d dtype x init x size cases bit-identical, %d hash sets equal\n", compared,
	       compared, hashed);
	rung_cu.cuMemFree(d);
	free(host);
	free(back);
}

/* got from ref: kind 0 equal; 1 tiny errors everywhere; 2 tiny + planted NaN,
 * inf, poison and a few big errors; 3 planted only (and a NaN in ref too). */
static void plant(void *got, const void *ref, rung_dtype dt, int64_t n, int kind)
{
	size_t es = rung_dt_size(dt);
	memcpy(got, ref, (size_t)n * es);
	uint64_t key = rung_rng_key(77, "noise");
	if (kind == 1 || kind == 2) {
		double rel = dt == RUNG_DT_F64 ? 1e-12 : dt == RUNG_DT_F32 ? 3e-7 : dt == RUNG_DT_F16 ? 1e-3 : 1e-2;
		for (int64_t i = 0; i < n; i++) {
			double r = rung_load_double(ref, dt, i);
			double v = is_float(dt) ? r * (1 + rel * rung_rng_normal(key, (uint64_t)i)) : r + (i % 97 == 0);
			rung_store_double(got, dt, i, v);
		}
	}
	if (kind >= 2) {
		int64_t at[] = { n / 3, n / 2, n - 1, n / 5, n / 7, 7 * n / 8 };
		for (int k = 0; k < 6; k++) {
			int64_t i = at[k];
			if (i < 0 || i >= n)
				continue;
			double r = rung_load_double(ref, dt, i);
			if (k == 0 && is_float(dt))
				rung_store_double(got, dt, i, NAN);
			else if (k == 1 && is_float(dt))
				rung_store_double(got, dt, i, INFINITY);
			else if (k == 2) {
				unsigned char pat[8];
				rung_poison_bits(pat, dt, 0);
				memcpy((char *)got + (size_t)i * es, pat, es);
			} else
				rung_store_double(got, dt, i, r + 10 + k);
		}
		if (kind == 3 && is_float(dt) && n > 10) {
			rung_store_double((void *)ref, dt, 10, NAN);
			rung_store_double(got, dt, 10, NAN);
		}
	}
}

static void test_metrics(void)
{
	int64_t nmax = SIZES[NSIZES - 1];
	void *ref = malloc((size_t)nmax * 8), *got = malloc((size_t)nmax * 8);
	CUdeviceptr dr = dev_alloc((size_t)nmax * 8), dg = dev_alloc((size_t)nmax * 8);
	CHECK(ref && got && dr && dg);
	int same = 0, total_cases = 0, failing = 0;
	for (int di = 0; di < NDTS; di++) {
		rung_dtype dt = DTS[di];
		size_t es = rung_dt_size(dt);
		for (int si = 0; si < NSIZES; si++) {
			int64_t n = SIZES[si];
			for (int kind = 0; kind < 4; kind++) {
				for (int exact = 0; exact < (is_float(dt) ? 2 : 1); exact++) {
					if (is_float(dt))
						rung_fill_par(ref, dt, 0, n, exact ? RUNG_INIT_INTS : RUNG_INIT_RANDN, 0, 0, 5, "R");
					else
						rung_fill_par(ref, dt, 0, n, RUNG_INIT_UNIFORM, 0, 200, 5, "R");
					plant(got, ref, dt, n, kind);
					rung_check_opts o;
					rung_check_opts_default(&o, dt);
					if (exact)
						rung_check_opts_inputs(&o, RUNG_DIST_INTS);
					int64_t shape[1] = { n };
					rung_check_metric mh, md;
					memset(&mh, 0, sizeof mh);
					memset(&md, 0, sizeof md);
					CHECK_INT(rung_metrics_compute(&mh, "C", got, ref, dt, n, 1, shape, &o), 0);
					/* the host's merged accumulator, as rung_metrics_compute builds it */
					rung_metrics_ctx c;
					double hpeak = rung_metrics_peak(ref, dt, n);
					CHECK_INT(rung_metrics_begin(&c, "C", dt, n, 1, shape, &o, hpeak), 0);
					int64_t nc = rung__nchunks(n);
					static rung_metrics_acc th, tdv, part; /* big (error maps) */
					static rung_metrics_fold fold;
					rung_metrics_fold_init(&fold); /* core/metrics.h's merge order */
					for (int64_t k = 0; k < nc; k++) {
						int64_t s = k * RUNG_METRICS_CHUNK, cnt = n - s < RUNG_METRICS_CHUNK ? n - s : RUNG_METRICS_CHUNK;
						rung_metrics_acc_init(&part, s);
						rung_metrics_feed(&c, &part, (char *)got + (size_t)s * es, (char *)ref + (size_t)s * es, cnt);
						rung_metrics_fold_add(&fold, &part);
					}
					rung_metrics_fold_end(&fold, &th);
					CHECK_INT(rung_cu.cuMemcpyHtoD(dr, ref, (size_t)n * es), CUDA_SUCCESS);
					CHECK_INT(rung_cu.cuMemcpyHtoD(dg, got, (size_t)n * es), CUDA_SUCCESS);
					/* the scan: peak and the poison left in got */
					double dpeak = -1;
					int64_t pc = -2, pf = -2, hf = -1;
					CHECK_INT(rung__dev_scan(ST, dg, n, dt, true, &dpeak, &pc, &pf), CUDA_SUCCESS);
					int64_t hc = rung_poison_count(&hf, got, dt, n, 0);
					CHECK_INT(pc, hc);
					CHECK_INT(pf, hf);
					CHECK_INT(rung__dev_scan(ST, dr, n, dt, false, &dpeak, NULL, NULL), CUDA_SUCCESS);
					CHECK(memcmp(&dpeak, &hpeak, 8) == 0);
					rung_metrics_ctx cd;
					CHECK_INT(rung_metrics_begin(&cd, "C", dt, n, 1, shape, &o, dpeak), 0);
					CHECK_INT(rung__dev_metrics(ST, dg, dr, n, &cd.f, &tdv), CUDA_SUCCESS);
					rung_metrics_end(&cd, &tdv, &md);
					total_cases++;
					failing += !mh.pass;
					bool acc_same = memcmp(&th, &tdv, sizeof th) == 0;
					bool m_same = memcmp(&mh, &md, sizeof mh) == 0;
					if (acc_same && m_same) {
						same++;
					} else {
						fprintf(stderr, "  %s n=%" PRId64 " kind %d exact %d: accumulator %s, metric %s\n",
							rung_dtype_name(dt), n, kind, exact, acc_same ? "same" : "DIFFERS",
							m_same ? "same" : "DIFFERS");
						fprintf(stderr, "    host   mae %a mse %a cos %a mism %" PRId64 " %s\n", mh.mae, mh.mse,
							mh.cossim, mh.mismatches, mh.reason);
						fprintf(stderr, "    device mae %a mse %a cos %a mism %" PRId64 " %s\n", md.mae, md.mse,
							md.cossim, md.mismatches, md.reason);
						CHECK(!"device metrics == host metrics");
					}
				}
			}
		}
	}
	printf("     metrics: %d of %d (dtype x size x planted errors) cases bit-identical (%d of them failing verdicts)\n",
	       same, total_cases, failing);
	CHECK(failing > 0 && failing < total_cases);
	rung_cu.cuMemFree(dr);
	rung_cu.cuMemFree(dg);
	free(ref);
	free(got);
}

int main(void)
{
	if (rung_driver_load()) {
		printf("skipped: %s\n", rung_error_last());
		return 77;
	}
	CUdevice dev;
	CUcontext ctx;
	int count = 0;
	if (rung_cu.cuDeviceGetCount(&count) != CUDA_SUCCESS || count < 1 || rung_cu.cuDeviceGet(&dev, 0) != CUDA_SUCCESS) {
		printf("skipped: no CUDA device\n");
		return 77;
	}
	if (rung_cu.cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS || rung_cu.cuCtxSetCurrent(ctx) != CUDA_SUCCESS ||
	    rung_cu.cuStreamCreate(&ST, 0) != CUDA_SUCCESS) {
		fprintf(stderr, "cannot set up a context on device 0\n");
		return 1;
	}
	int major = 0, minor = 0, sms = 0;
	rung_cu.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
	rung_cu.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
	rung_cu.cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
	char arch[16], why[256];
	snprintf(arch, sizeof arch, "sm_%d%d", major, minor);
	printf("     device %s, %d SMs\n", arch, sms);
	if (!rung__devcheck_load(arch, sms, why, sizeof why)) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	T_RUN(test_generation);
	T_RUN(test_metrics);
	return t_done();
}

/* rung's own device-side check (gpu/worker/devcheck.c): input generation, chunk
 * hashes, the reference's peak and poison count, and the streaming metrics, on
 * the device buffers themselves, with only summaries read back. The element
 * function, the hash and the metrics feed are core/rng_hd.h and
 * core/metrics_hd.h, the very source the host path runs (core/rng.c,
 * core/metrics.c, gpu/worker/stage.c), compiled here by NVRTC at build time
 * with --fmad=false (cmake/ptxgen.c), so every byte and every accumulator bit
 * equals the host's (tests/gpu_devcheck.c). Plain C types only: no CUDA
 * headers. */
#include "core/metrics_hd.h"
#include "core/rng_hd.h"

#define CHUNK 1024 /* RUNG_METRICS_CHUNK (core/metrics.h): devcheck.c checks it */

/* Elements [0, n) of the stream g: one thread per pair (2p, 2p + 1), so randn
 * costs one Box-Muller per pair, as on the host. */
extern "C" __global__ void rung_dc_gen(void *dst, int64_t n, rung_hd_gen g)
{
	int es = rung_hd_dt_size(g.dt);
	int64_t np = (n + 1) / 2, stride = (int64_t)gridDim.x * blockDim.x;
	for (int64_t p = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; p < np; p += stride) {
		uint64_t b0, b1;
		rung_hd_gen_pair(&g, (uint64_t)p, &b0, &b1);
		rung_hd_store_bits(dst, es, 2 * p, b0);
		if (2 * p + 1 < n)
			rung_hd_store_bits(dst, es, 2 * p + 1, b1);
	}
}

/* The hash of every chunk of CHUNK elements of es bytes (n elements in all):
 * one block per chunk, its threads summing word terms (the sum's order does not
 * matter: core/metrics_hd.h). Launched with 256 threads. */
extern "C" __global__ void rung_dc_hash(const uint8_t *buf, int64_t n, int es, uint64_t *out)
{
	__shared__ uint64_t part[256];
	int64_t nchunks = (n + CHUNK - 1) / CHUNK;
	for (int64_t c = blockIdx.x; c < nchunks; c += gridDim.x) {
		int64_t cnt = n - c * CHUNK < CHUNK ? n - c * CHUNK : CHUNK;
		uint64_t len = (uint64_t)cnt * (uint64_t)es;
		const uint8_t *p = buf + (uint64_t)c * CHUNK * (uint64_t)es; /* 8-aligned */
		uint64_t full = len / 8, sum = 0;
		for (uint64_t k = threadIdx.x; k < full; k += blockDim.x)
			sum += rung_hd_hash_term(k, ((const uint64_t *)p)[k]);
		if (threadIdx.x == 0 && len % 8) {
			uint64_t w = 0;
			for (uint64_t b = 0; b < len % 8; b++)
				w |= (uint64_t)p[8 * full + b] << (8 * b);
			sum += rung_hd_hash_term(full, w);
		}
		part[threadIdx.x] = sum;
		__syncthreads();
		for (int s = blockDim.x / 2; s > 0; s >>= 1) {
			if ((int)threadIdx.x < s)
				part[threadIdx.x] += part[threadIdx.x + s];
			__syncthreads();
		}
		if (threadIdx.x == 0)
			out[c] = rung_hd_hash_final(part[0], len);
		__syncthreads();
	}
}

__device__ __forceinline__ uint64_t warp_max(uint64_t v)
{
	for (int o = 16; o > 0; o >>= 1) {
		uint64_t w = __shfl_down_sync(0xffffffffu, v, o);
		v = w > v ? w : v;
	}
	return v;
}

__device__ __forceinline__ uint64_t warp_sum(uint64_t v)
{
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, o);
	return v;
}

/* out[0]: max |finite ref| as the bits of a non-negative double (their order is
 * the values'), out[1]: elements holding the poison, out[2]: the first of them
 * as its bitwise complement (0: none). out zeroed first. */
extern "C" __global__ void rung_dc_scan(const void *ref, int64_t n, int dt, int count_poison, uint64_t poison,
					uint64_t *out)
{
	int es = rung_hd_dt_size(dt);
	uint64_t best = 0, cnt = 0, first_inv = 0;
	int64_t stride = (int64_t)gridDim.x * blockDim.x;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
		uint64_t b = rung_hd_load_bits(ref, es, i);
		double r = fabs(rung_hd_bits_to_double(dt, b));
		if (r == r && !rung_hd_isinf(r)) {
			uint64_t rb = rung_hd_dbits(r);
			best = rb > best ? rb : best;
		}
		if (count_poison && b == poison) {
			cnt++;
			uint64_t inv = ~(uint64_t)i;
			first_inv = inv > first_inv ? inv : first_inv;
		}
	}
	best = warp_max(best);
	cnt = warp_sum(cnt);
	first_inv = warp_max(first_inv);
	if ((threadIdx.x & 31) == 0) {
		if (best)
			atomicMax((unsigned long long *)&out[0], (unsigned long long)best);
		if (cnt) {
			atomicAdd((unsigned long long *)&out[1], (unsigned long long)cnt);
			atomicMax((unsigned long long *)&out[2], (unsigned long long)first_inv);
		}
	}
}

/* Room for the accumulator's fields before its map (rung_hd_acc_head; 468 bytes
 * on LP64; rung_dc_abi reports it and devcheck.c refuses a module where it is
 * larger) */
#define HEAD_MAX 512

/* The accumulator of every chunk: one thread per chunk, fed element by element
 * in order (rung_hd_feed_span), exactly as the host's rung_metrics_feed. */
/* Chunks c0 .. c0+cw-1 into acc[slot0 ..]: a window of the output's chunks
 * (devcheck.c feeds an output window by window, merging each into acc[0]). */
extern "C" __global__ void rung_dc_feed(const void *got, const void *ref, int64_t n, rung_hd_feed f,
					rung_metrics_acc *acc, int64_t c0, int64_t cw, int64_t slot0)
{
	int64_t stride = (int64_t)gridDim.x * blockDim.x;
	for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < cw; t += stride) {
		int64_t c = c0 + t, s = c * CHUNK, cnt = n - s < CHUNK ? n - s : CHUNK;
		/* the fields fed in local memory (cached in L1), then stored once
		 * (fed in place in global memory, every field update went out to L2);
		 * the 4 KiB map written in place, where an element out of tolerance
		 * marks it: with it, a thread's local accumulator was 4.5 KiB, more
		 * than L1 holds for the SM's threads */
		rung_metrics_acc *out = &acc[slot0 + t];
		/* the map and the slot's padding after it cleared (the accumulator's
		 * bytes are compared whole: tests/gpu_devcheck.c); 4-byte aligned */
		for (unsigned k = 0, nw = (unsigned)(sizeof(*out) - rung_hd_acc_head(out)) / 4; k < nw; k++)
			((uint32_t *)out->map)[k] = 0;
		__align__(8) unsigned char local[HEAD_MAX]; /* the accumulator's fields only, its map never touched */
		rung_metrics_acc *a = (rung_metrics_acc *)local;
		rung_hd_acc_init_head(a, s);
		rung_hd_feed_span_map(&f, a, out->map, (const char *)got + s * f.es, (const char *)ref + s * f.es, cnt);
		memcpy(out, local, rung_hd_acc_head(a));
	}
}

/* The merge order of core/metrics.h (rung_metrics_fold): first every group of
 * GROUP consecutive accumulators acc[g*GROUP ..] merged, in order, into its
 * first, one thread per group; then rung_dc_fold. acc[0 .. cw) is one window,
 * starting at a multiple of GROUP. */
#define GROUP 64 /* RUNG_METRICS_GROUP */
extern "C" __global__ void rung_dc_group(rung_metrics_acc *acc, int64_t cw)
{
	int64_t ng = (cw + GROUP - 1) / GROUP, stride = (int64_t)gridDim.x * blockDim.x;
	for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < ng; g += stride)
		for (int64_t c = g * GROUP + 1; c < (g + 1) * GROUP && c < cw; c++)
			rung_hd_merge(&acc[g * GROUP], &acc[c]);
}

/* The window's groups, in order, into *total (which becomes the first group
 * when first is set). One thread. */
extern "C" __global__ void rung_dc_fold(rung_metrics_acc *acc, int64_t cw, rung_metrics_acc *total, int first)
{
	if (blockIdx.x != 0 || threadIdx.x != 0)
		return;
	for (int64_t c = 0; c < cw; c += GROUP) {
		if (first && c == 0) /* bytes, padding included, as the host's struct copy */
			memcpy(total, &acc[0], sizeof(*total));
		else
			rung_hd_merge(total, &acc[c]);
	}
}

/* The layout this module was compiled with, for devcheck.c to compare with the host's. */
extern "C" __global__ void rung_dc_abi(uint64_t *out)
{
	out[0] = sizeof(rung_metrics_acc);
	out[1] = sizeof(rung_hd_gen);
	out[2] = sizeof(rung_hd_feed);
	rung_metrics_acc a;
	out[3] = (uint64_t)((const char *)&a.bad_expected[0] - (const char *)&a);
	out[4] = (uint64_t)((const char *)&a.ulp_hist[0] - (const char *)&a);
	out[5] = CHUNK;
	out[6] = GROUP;
	out[7] = rung_hd_acc_head(&a) <= HEAD_MAX ? rung_hd_acc_head(&a) : 0;
}

/* rung's own kernels for the bench rung's per-launch verification
 * (gpu/worker/verify.c). Compiled at build time by NVRTC to PTX for compute_75
 * (cmake/ptxgen.c) with --fmad=false, so the tolerance test rounds exactly as
 * core/metrics.c does on the host; the driver JIT-compiles the PTX once per
 * process. Plain C types only: NVRTC here has no CUDA headers. The dtype codes
 * are rung_dtype's (core/spec.h): F64 F32 F16 BF16 I64 I32 U8. */

#include "core/guard_hd.h"

typedef unsigned long long u64;
typedef long long i64;
typedef unsigned int u32;
typedef unsigned short u16;
typedef unsigned char u8;

enum { DT_F64, DT_F32, DT_F16, DT_BF16, DT_I64, DT_I32, DT_U8 };

/* One output (or input) of one timed launch; zeroed before it. The first bad
 * element is kept as its bitwise complement under atomicMax, so that zero means
 * none (element indexes are below 2^63). */
struct rung_vstat {
	u64 mismatches, unwritten, first_inv, nfinite;
	double sq, dot, gg, rr;
	u64 maxabs; /* max |got - ref| over finite pairs, as the bits of a double */
};

__device__ __forceinline__ float f16_to_f32(u16 h)
{
	u32 s = (u32)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff;
	if (e == 0) {
		float v = (float)m * 5.9604644775390625e-08f; /* m * 2^-24, exact */
		return s ? -v : v;
	}
	if (e == 31)
		return __int_as_float((int)(s | 0x7f800000u | (m << 13)));
	return __int_as_float((int)(s | ((e - 15 + 127) << 23) | (m << 13)));
}

__device__ __forceinline__ u64 load_bits(const void *p, int es, i64 i)
{
	switch (es) {
	case 8: return ((const u64 *)p)[i];
	case 4: return ((const u32 *)p)[i];
	case 2: return ((const u16 *)p)[i];
	default: return ((const u8 *)p)[i];
	}
}

__device__ __forceinline__ double to_double(u64 b, int dt)
{
	switch (dt) {
	case DT_F64: return __longlong_as_double((long long)b);
	case DT_F32: return (double)__int_as_float((int)(u32)b);
	case DT_F16: return (double)f16_to_f32((u16)b);
	case DT_BF16: return (double)__int_as_float((int)((u32)b << 16));
	case DT_I64: return (double)(i64)b;
	case DT_I32: return (double)(int)(u32)b;
	default: return (double)(u8)b;
	}
}

__device__ __forceinline__ int dt_size(int dt)
{
	return dt == DT_F64 || dt == DT_I64 ? 8 : dt == DT_F32 || dt == DT_I32 ? 4 : dt == DT_U8 ? 1 : 2;
}

__device__ __forceinline__ u64 warp_sum_u64(u64 v)
{
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, o);
	return v;
}

__device__ __forceinline__ double warp_sum_f64(double v)
{
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, o);
	return v;
}

__device__ __forceinline__ u64 warp_max_u64(u64 v)
{
	for (int o = 16; o > 0; o >>= 1) {
		u64 w = __shfl_down_sync(0xffffffffu, v, o);
		v = w > v ? w : v;
	}
	return v;
}

/* got against ref over n elements, element by element as core/metrics.c
 * rung_metrics_feed decides a mismatch:
 *  - got still holding the poison (and ref not) is unwritten (check_poison);
 *  - a NaN or Inf on either side must be matched exactly (NaN with NaN);
 *  - exact (bitwise) when atol = rtol = 0 on integers, or when exact != 0
 *    (inputs unchanged; the same bits as the checked output);
 *  - else |got - ref| > atol + rtol * |ref|, in double.
 * The sums feed the PSNR and cosine gates on the host. */
extern "C" __global__ void rung_verify(const void *got, const void *ref, i64 n, int dt, double atol, double rtol,
				       u64 poison, int check_poison, int exact, rung_vstat *st)
{
	int es = dt_size(dt);
	bool is_float = dt <= DT_BF16;
	u64 mism = 0, unwr = 0, first_inv = 0, nfin = 0, maxd = 0;
	double sq = 0, dot = 0, gg = 0, rr = 0;
	i64 stride = (i64)gridDim.x * blockDim.x;
	for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
		u64 gb = load_bits(got, es, i), rb = load_bits(ref, es, i);
		bool bad;
		if (exact) {
			bad = gb != rb;
		} else if (check_poison && gb == poison && rb != poison) {
			unwr++;
			bad = true;
		} else {
			double g = to_double(gb, dt), r = to_double(rb, dt);
			bool gn = g != g, rn = r != r;
			bool gi = !gn && (g - g != 0), ri = !rn && (r - r != 0);
			if (gn || rn || gi || ri) {
				bool equal = (gn && rn) || (!gn && g == r);
				bad = !equal;
			} else {
				double d = fabs(g - r), ar = fabs(r);
				nfin++;
				u64 db = (u64)__double_as_longlong(d);
				maxd = db > maxd ? db : maxd;
				sq = __dadd_rn(sq, __dmul_rn(d, d));
				dot = __dadd_rn(dot, __dmul_rn(g, r));
				gg = __dadd_rn(gg, __dmul_rn(g, g));
				rr = __dadd_rn(rr, __dmul_rn(r, r));
				if (!is_float && atol == 0 && rtol == 0)
					bad = gb != rb;
				else
					bad = d > __dadd_rn(atol, __dmul_rn(rtol, ar));
			}
		}
		if (bad) {
			mism++;
			u64 inv = ~(u64)i;
			first_inv = inv > first_inv ? inv : first_inv;
		}
	}
	mism = warp_sum_u64(mism);
	unwr = warp_sum_u64(unwr);
	nfin = warp_sum_u64(nfin);
	first_inv = warp_max_u64(first_inv);
	maxd = warp_max_u64(maxd);
	sq = warp_sum_f64(sq);
	dot = warp_sum_f64(dot);
	gg = warp_sum_f64(gg);
	rr = warp_sum_f64(rr);
	if ((threadIdx.x & 31) == 0) {
		if (mism)
			atomicAdd(&st->mismatches, mism);
		if (unwr)
			atomicAdd(&st->unwritten, unwr);
		if (first_inv)
			atomicMax(&st->first_inv, first_inv);
		if (maxd)
			atomicMax(&st->maxabs, maxd);
		if (nfin) {
			atomicAdd(&st->nfinite, nfin);
			atomicAdd(&st->sq, sq);
			atomicAdd(&st->dot, dot);
			atomicAdd(&st->gg, gg);
			atomicAdd(&st->rr, rr);
		}
	}
}

/* The largest finite |ref| (the peak that scales the default atol), as the bits
 * of a non-negative double under atomicMax (their order is the values' order).
 * *out must be zeroed first. */
extern "C" __global__ void rung_peak(const void *ref, i64 n, int dt, u64 *out)
{
	int es = dt_size(dt);
	u64 best = 0;
	i64 stride = (i64)gridDim.x * blockDim.x;
	for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
		double r = fabs(to_double(load_bits(ref, es, i), dt));
		if (r == r && r - r == 0) {
			u64 b = (u64)__double_as_longlong(r);
			best = b > best ? b : best;
		}
	}
	best = warp_max_u64(best);
	if ((threadIdx.x & 31) == 0 && best)
		atomicMax(out, best);
}

__device__ __forceinline__ u64 mix64(u64 x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

/* A second input set that differs from the first in about one element of 64,
 * at positions drawn from a nonce the kernel cannot know: dst[i] = src[j], with
 * j drawn from the whole array where the mix selects i, else j = i; and in two
 * whole blocks of PERTURB_BLOCK elements (aligned: whole rows of a row length
 * that divides it), each a copy of another block. Values stay in the argument's
 * own distribution (they are its own values, moved). */
#define PERTURB_BLOCK 1024
extern "C" __global__ void rung_perturb(void *dst, const void *src, i64 n, int es, u64 nonce)
{
	i64 stride = (i64)gridDim.x * blockDim.x;
	/* the two redrawn blocks (the same one twice, by chance) and their sources:
	 * a kernel that caches a per-row or per-tile quantity is wrong on them */
	i64 nb = n / PERTURB_BLOCK; /* whole blocks only */
	i64 rb[2] = { -1, -1 }, sb[2] = { -1, -1 };
	for (int k = 0; k < 2 && nb >= 2; k++) {
		rb[k] = (i64)(mix64(nonce ^ (0x626c6f636bull + (u64)k)) % (u64)nb);
		sb[k] = (i64)(mix64(nonce ^ (0x736f75726365ull + (u64)k)) % (u64)(nb - 1));
		if (sb[k] >= rb[k])
			sb[k]++; /* another block */
	}
	/* about 16 elements moved (1 in 64 of a small buffer): few enough that a
	 * kernel keying a cache on sampled inputs almost never sees its samples
	 * moved (a key of k samples escapes with probability ~16k/n, not k/64),
	 * and enough that every cached tile or row keyed inside itself is stale */
	u64 thresh = n <= 1024 ? (1ull << 26) : (16ull << 32) / (u64)n;
	for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
		u64 h = mix64(nonce ^ ((u64)i * 0x9e3779b97f4a7c15ull));
		i64 j = (h & 0xffffffffull) < thresh ? (i64)(mix64(h) % (u64)n) : i;
		i64 b = i / PERTURB_BLOCK;
		for (int k = 0; k < 2; k++)
			if (b == rb[k])
				j = sb[k] * PERTURB_BLOCK + i % PERTURB_BLOCK;
		switch (es) {
		case 8: ((u64 *)dst)[i] = ((const u64 *)src)[j]; break;
		case 4: ((u32 *)dst)[i] = ((const u32 *)src)[j]; break;
		case 2: ((u16 *)dst)[i] = ((const u16 *)src)[j]; break;
		default: ((u8 *)dst)[i] = ((const u8 *)src)[j]; break;
		}
	}
}

/* Guard bands of one buffer after a timed launch: bytes of [band0, band0 + g)
 * and [band1, band1 + g) that no longer hold the bytes of band key `key`
 * (stream offsets 0 .. 2g - 1, core/guard_hd.h). Adds the count to *bad. */
extern "C" __global__ void rung_bands(const u8 *band0, const u8 *band1, i64 g, u64 key, u64 *bad)
{
	u64 cnt = 0;
	i64 stride = (i64)gridDim.x * blockDim.x;
	for (i64 k = (i64)blockIdx.x * blockDim.x + threadIdx.x; k < 2 * g; k += stride) {
		const u8 *b = k < g ? band0 + k : band1 + (k - g);
		cnt += *b != rung_hd_band_byte(key, (u64)k); /* the band stream: core/guard_hd.h */
	}
	cnt = warp_sum_u64(cnt);
	if ((threadIdx.x & 31) == 0 && cnt)
		atomicAdd(bad, cnt);
}

/* Poison for 8-byte dtypes (the driver's memsets stop at 32 bits). */
extern "C" __global__ void rung_fill64(u64 *p, i64 n, u64 v)
{
	i64 stride = (i64)gridDim.x * blockDim.x;
	for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		p[i] = v;
}

/* Fills the shared memory of every SM with a pattern (launched with the
 * device's opt-in maximum of dynamic shared memory and enough blocks to cover
 * every SM), so a kernel that reads shared memory it never wrote sees another
 * value than in the run before. */
extern "C" __global__ void rung_smem_fill(u32 pattern, u32 words)
{
	extern __shared__ u32 smem[];
	volatile u32 *s = smem; /* stores the compiler must keep */
	for (u32 k = threadIdx.x; k < words; k += blockDim.x)
		s[k] = pattern;
	__syncthreads();
}

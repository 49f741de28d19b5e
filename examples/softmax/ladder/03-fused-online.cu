// softmax v3: v2 with the max and the sum in one pass (the "online softmax"
// normaliser). Each lane keeps a running (max m, sum d) and rescales d by
// exp(m_old - m_new) when its max grows; the 32 partial (m, d) pairs are
// merged the same way with shuffles. Two reads of x and one write of y
// instead of three reads and a write: 3/4 of v2's DRAM traffic.
// rung: grid = cdiv(R,4); block = 128; smem = 0

#define NEG_INF __int_as_float(0xff800000) /* -inf; NVRTC has no <math.h> INFINITY */
#define WPB 4 /* warps (rows) per block */

/* Merges (m2, d2) into (m, d); an empty partial has m = -inf and d = 0. */
__device__ __forceinline__ void md_merge(float &m, float &d, float m2, float d2)
{
	const float mm = fmaxf(m, m2);
	if (mm == NEG_INF)
		return;
	d = d * __expf(m - mm) + d2 * __expf(m2 - mm);
	m = mm;
}

extern "C" __global__ void __launch_bounds__(WPB * 32) softmax(const float *x, float *y, int R, int C)
{
	const int lane = threadIdx.x % 32;
	const int row = blockIdx.x * WPB + threadIdx.x / 32;
	if (row >= R)
		return; /* the whole warp: a row belongs to one warp */
	const float *xr = x + (long long)row * C;
	float *yr = y + (long long)row * C;

	float m = NEG_INF, d = 0.0f;
	for (int c = lane; c < C; c += 32) {
		const float v = xr[c];
		if (v > m) {
			d = d * __expf(m - v) + 1.0f;
			m = v;
		} else {
			d += __expf(v - m);
		}
	}
#pragma unroll
	for (int o = 16; o > 0; o >>= 1) {
		const float m2 = __shfl_xor_sync(0xffffffffu, m, o);
		const float d2 = __shfl_xor_sync(0xffffffffu, d, o);
		md_merge(m, d, m2, d2);
	}

	const float inv = 1.0f / d;
	for (int c = lane; c < C; c += 32)
		yr[c] = __expf(xr[c] - m) * inv;
}

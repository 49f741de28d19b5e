// softmax v4: one warp per row, four rows per block. Reductions are warp
// shuffles: no shared memory and no __syncthreads. When the row is 16-byte
// aligned and C <= 4096, the whole row is held in registers (32 float4 per
// lane), so x is read from global memory once instead of twice and each exp
// is computed once. Other rows take a two-pass online path.
// rung: grid = cdiv(R,4); block = 128; smem = 0

#define NEG_INF __int_as_float(0xff800000) /* -inf; NVRTC has no <math.h> INFINITY */
#define WPB 4   /* warps (rows) per block */
#define VPL 32  /* float4 per lane held in registers: rows up to 32*32*4 = 4096 floats */

__device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
	for (int o = 16; o > 0; o >>= 1)
		v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
	return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_xor_sync(0xffffffffu, v, o);
	return v;
}

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
		return; /* whole warp: the row is per warp */
	const float *xr = x + (long long)row * C;
	float *yr = y + (long long)row * C;
	const bool aligned = (((unsigned long long)xr | (unsigned long long)yr) & 15) == 0;

	if (aligned && (C & 3) == 0 && C <= VPL * 32 * 4) {
		const int nv = C / 4;
		const float4 *xv = reinterpret_cast<const float4 *>(xr);
		float4 *yv = reinterpret_cast<float4 *>(yr);
		float4 v[VPL];
		float m = NEG_INF;
#pragma unroll
		for (int i = 0; i < VPL; ++i) {
			const int idx = i * 32 + lane;
			if (idx < nv) {
				v[i] = xv[idx];
				m = fmaxf(m, fmaxf(fmaxf(v[i].x, v[i].y), fmaxf(v[i].z, v[i].w)));
			}
		}
		m = warp_max(m);
		float s = 0.0f;
#pragma unroll
		for (int i = 0; i < VPL; ++i) {
			if (i * 32 + lane < nv) {
				v[i].x = __expf(v[i].x - m);
				v[i].y = __expf(v[i].y - m);
				v[i].z = __expf(v[i].z - m);
				v[i].w = __expf(v[i].w - m);
				s += (v[i].x + v[i].y) + (v[i].z + v[i].w);
			}
		}
		const float inv = 1.0f / warp_sum(s);
#pragma unroll
		for (int i = 0; i < VPL; ++i) {
			const int idx = i * 32 + lane;
			if (idx < nv)
				yv[idx] = make_float4(v[i].x * inv, v[i].y * inv, v[i].z * inv, v[i].w * inv);
		}
		return;
	}

	/* any C, any alignment: online (max, sum) pass, then the output pass */
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

// softmax v4: v3's online algorithm with 128-bit accesses and a block of 256
// threads per row. Each row is split into a scalar head (up to the first
// 16-byte boundary), a float4 body and a scalar tail, so any C works (odd C
// makes rows start at any 4-byte offset) while the body moves 16 bytes per
// load/store instruction. A block per row keeps 8 rows (128 KB at C = 4096)
// resident per SM instead of 64, so the write pass re-reads x from L1
// instead of DRAM: x is read from DRAM once and y written once, the
// roofline's 2*4*R*C bytes. Partial (max, sum) pairs are merged with
// shuffles inside each warp, then across the 8 warps through shared memory.
// rung: grid = R; block = 256; smem = 0

#define NEG_INF __int_as_float(0xff800000) /* -inf; NVRTC has no <math.h> INFINITY */
#define NT 256      /* threads per block (one row) */
#define NW (NT / 32) /* warps per block */

/* Merges (m2, d2) into (m, d); an empty partial has m = -inf and d = 0. */
__device__ __forceinline__ void md_merge(float &m, float &d, float m2, float d2)
{
	const float mm = fmaxf(m, m2);
	if (mm == NEG_INF)
		return;
	d = d * __expf(m - mm) + d2 * __expf(m2 - mm);
	m = mm;
}

__device__ __forceinline__ void md_add1(float &m, float &d, float v)
{
	if (v > m) {
		d = d * __expf(m - v) + 1.0f;
		m = v;
	} else {
		d += __expf(v - m);
	}
}

/* one rescale per float4: with the max of its four values */
__device__ __forceinline__ void md_add4(float &m, float &d, float4 v)
{
	const float mv = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
	if (mv > m) {
		d *= __expf(m - mv);
		m = mv;
	}
	d += (__expf(v.x - m) + __expf(v.y - m)) + (__expf(v.z - m) + __expf(v.w - m));
}

extern "C" __global__ void __launch_bounds__(NT) softmax(const float *x, float *y, int R, int C)
{
	__shared__ float part_m[NW], part_d[NW];
	const int tid = threadIdx.x;
	const int row = blockIdx.x;
	if (row >= R)
		return; /* the whole block */
	const float *xr = x + (long long)row * C;
	float *yr = y + (long long)row * C;

	/* head: scalars up to xr's first 16-byte boundary; all scalar if y is aligned differently */
	const unsigned long long ax = (unsigned long long)xr, ay = (unsigned long long)yr;
	int head = ((ax ^ ay) & 15) ? C : (int)(((16 - (ax & 15)) & 15) / 4);
	head = min(head, C);
	const int nvec = (C - head) / 4;
	const int tail = head + nvec * 4;
	const float4 *xv = reinterpret_cast<const float4 *>(xr + head);
	float4 *yv = reinterpret_cast<float4 *>(yr + head);

	float m = NEG_INF, d = 0.0f;
	for (int c = tid; c < head; c += NT)
		md_add1(m, d, xr[c]);
	for (int i = tid; i < nvec; i += NT)
		md_add4(m, d, xv[i]);
	for (int c = tail + tid; c < C; c += NT)
		md_add1(m, d, xr[c]);

#pragma unroll
	for (int o = 16; o > 0; o >>= 1) {
		const float m2 = __shfl_xor_sync(0xffffffffu, m, o);
		const float d2 = __shfl_xor_sync(0xffffffffu, d, o);
		md_merge(m, d, m2, d2);
	}
	if (tid % 32 == 0) {
		part_m[tid / 32] = m;
		part_d[tid / 32] = d;
	}
	__syncthreads();
	m = part_m[0];
	d = part_d[0];
#pragma unroll
	for (int w = 1; w < NW; ++w)
		md_merge(m, d, part_m[w], part_d[w]);

	const float inv = 1.0f / d;
	for (int c = tid; c < head; c += NT)
		yr[c] = __expf(xr[c] - m) * inv;
	for (int i = tid; i < nvec; i += NT) {
		const float4 v = xv[i];
		yv[i] = make_float4(__expf(v.x - m) * inv, __expf(v.y - m) * inv, __expf(v.z - m) * inv,
				    __expf(v.w - m) * inv);
	}
	for (int c = tail + tid; c < C; c += NT)
		yr[c] = __expf(xr[c] - m) * inv;
}

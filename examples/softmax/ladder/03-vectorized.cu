// softmax v3: v2 with 128-bit accesses. Each row is split into a scalar head
// (up to the first 16-byte boundary), a float4 body and a scalar tail, so any
// C works (odd C makes rows start at any 4-byte offset) while the body moves
// 16 bytes per load/store instruction. Each float4 updates the running
// (max, sum) once with the max of its four values.
// rung: grid = R; block = 256; smem = 0

#define NEG_INF __int_as_float(0xff800000) /* -inf; NVRTC has no <math.h> INFINITY */
#define NT 256

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

__device__ __forceinline__ void md_add4(float &m, float &d, float4 v)
{
	const float mv = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
	if (mv > m) {
		d *= __expf(m - mv);
		m = mv;
	}
	d += __expf(v.x - m) + __expf(v.y - m) + __expf(v.z - m) + __expf(v.w - m);
}

extern "C" __global__ void softmax(const float *x, float *y, int R, int C)
{
	__shared__ float red_m[NT], red_d[NT];
	const int tid = threadIdx.x;
	const int row = blockIdx.x;
	if (row >= R)
		return;
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

	red_m[tid] = m;
	red_d[tid] = d;
	__syncthreads();
	for (int s = NT / 2; s > 0; s >>= 1) {
		if (tid < s) {
			float mm = red_m[tid], dd = red_d[tid];
			md_merge(mm, dd, red_m[tid + s], red_d[tid + s]);
			red_m[tid] = mm;
			red_d[tid] = dd;
		}
		__syncthreads();
	}
	m = red_m[0];
	const float inv = 1.0f / red_d[0];

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

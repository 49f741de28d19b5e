// softmax v2: the max and the sum in one pass (the "online softmax"
// normaliser): each thread keeps a running (max m, sum d) and rescales d by
// exp(m_old - m_new) when the max grows; partial (m, d) pairs are merged the
// same way across the block. Two passes over x instead of three, and one
// block reduction instead of two.
// rung: grid = R; block = 256; smem = 0

#define NEG_INF __int_as_float(0xff800000) /* -inf; NVRTC has no <math.h> INFINITY */
#define NT 256

/* Merges (m2, d2) into (m, d); an empty partial has m = -inf and d = 0. */
__device__ __forceinline__ void md_merge(float &m, float &d, float m2, float d2)
{
	const float mm = fmaxf(m, m2);
	if (mm == NEG_INF)
		return;
	d = d * __expf(m - mm) + d2 * __expf(m2 - mm);
	m = mm;
}

extern "C" __global__ void __launch_bounds__(NT) softmax(const float *x, float *y, int R, int C)
{
	__shared__ float red_m[NT], red_d[NT];
	const int tid = threadIdx.x;
	const int row = blockIdx.x;
	if (row >= R)
		return;
	const float *xr = x + (long long)row * C;
	float *yr = y + (long long)row * C;

	float m = NEG_INF, d = 0.0f;
	for (int c = tid; c < C; c += NT) {
		const float v = xr[c];
		if (v > m) {
			d = d * __expf(m - v) + 1.0f;
			m = v;
		} else {
			d += __expf(v - m);
		}
	}

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

	for (int c = tid; c < C; c += NT)
		yr[c] = __expf(xr[c] - m) * inv;
}

// softmax v1: one block of 256 threads per row, three passes over the row in
// global memory: the row maximum, the sum of exp(x - max), then the output.
// Each reduction is a shared-memory tree with a __syncthreads per level.
// Reads x three times (the second and third reads mostly hit L2).
// rung: grid = R; block = 256; smem = 0

#define NEG_INF __int_as_float(0xff800000) /* -inf; NVRTC has no <math.h> INFINITY */
#define NT 256

__device__ float block_max(float v, float *red)
{
	const int tid = threadIdx.x;
	red[tid] = v;
	__syncthreads();
	for (int s = NT / 2; s > 0; s >>= 1) {
		if (tid < s)
			red[tid] = fmaxf(red[tid], red[tid + s]);
		__syncthreads();
	}
	const float r = red[0];
	__syncthreads(); /* red is reused by the next reduction */
	return r;
}

__device__ float block_sum(float v, float *red)
{
	const int tid = threadIdx.x;
	red[tid] = v;
	__syncthreads();
	for (int s = NT / 2; s > 0; s >>= 1) {
		if (tid < s)
			red[tid] += red[tid + s];
		__syncthreads();
	}
	const float r = red[0];
	__syncthreads();
	return r;
}

extern "C" __global__ void __launch_bounds__(NT) softmax(const float *x, float *y, int R, int C)
{
	__shared__ float red[NT];
	const int row = blockIdx.x;
	if (row >= R)
		return;
	const float *xr = x + (long long)row * C;
	float *yr = y + (long long)row * C;

	float m = NEG_INF;
	for (int c = threadIdx.x; c < C; c += NT)
		m = fmaxf(m, xr[c]);
	m = block_max(m, red);

	float s = 0.0f;
	for (int c = threadIdx.x; c < C; c += NT)
		s += __expf(xr[c] - m);
	s = block_sum(s, red);

	const float inv = 1.0f / s;
	for (int c = threadIdx.x; c < C; c += NT)
		yr[c] = __expf(xr[c] - m) * inv;
}

// softmax v1: one thread per row, three serial passes over its row: the row
// maximum, the sum of exp(x - max), then the output. The simplest correct
// kernel, and slow: a warp's 32 threads walk 32 different rows C floats apart,
// so no load or store coalesces (32 sectors per instruction), each thread
// waits on its own chain of loads, and at R = 16384 the grid is only 128
// blocks of 4 warps, about one per SM, far too few to hide memory latency.
// rung: grid = cdiv(R,128); block = 128; smem = 0

#define NEG_INF __int_as_float(0xff800000) /* -inf; NVRTC has no <math.h> INFINITY */

extern "C" __global__ void softmax(const float *x, float *y, int R, int C)
{
	const int row = blockIdx.x * blockDim.x + threadIdx.x;
	if (row >= R)
		return;
	const float *xr = x + (long long)row * C;
	float *yr = y + (long long)row * C;

	float m = NEG_INF;
	for (int c = 0; c < C; ++c)
		m = fmaxf(m, xr[c]);

	float s = 0.0f;
	for (int c = 0; c < C; ++c)
		s += __expf(xr[c] - m);

	const float inv = 1.0f / s;
	for (int c = 0; c < C; ++c)
		yr[c] = __expf(xr[c] - m) * inv;
}

// Right answer, racy code: each thread reads its left neighbour's shared slot
// with no __syncthreads() between the write and the read. Thread 0 of every
// warp reads a slot written by another warp: a race racecheck reports
// (rung check --sanitize=racecheck), while the output is c = a + b unless the
// stale value read happens to be a NaN.
extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n)
{
	__shared__ float s[256];
	int t = threadIdx.x;
	int i = blockIdx.x * blockDim.x + t;
	s[t] = i < n ? a[i] : 0.0f;
	float left = s[(t + 255) & 255]; // needs __syncthreads() before it
	if (i < n)
		c[i] = left != left ? 0.0f : s[t] + b[i];
}

// c = a + b, but the columns past the last multiple of 32 get a + b + 1 (a tail bug).
extern "C" __global__ void madd(const float *a, const float *b, float *c, int m, int n)
{
	int col = (int)blockIdx.x * blockDim.x + threadIdx.x, row = (int)blockIdx.y * blockDim.y + threadIdx.y;
	if (row < m && col < n)
		c[row * n + col] = a[row * n + col] + b[row * n + col] + (col >= (n & ~31) ? 1.0f : 0.0f);
}

// Reference: c = a + b over an m x n matrix.
extern "C" __global__ void madd_ref(const float *a, const float *b, float *c, int m, int n)
{
	int col = (int)blockIdx.x * blockDim.x + threadIdx.x, row = (int)blockIdx.y * blockDim.y + threadIdx.y;
	if (row < m && col < n)
		c[row * n + col] = a[row * n + col] + b[row * n + col];
}

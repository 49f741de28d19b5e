// rung: smem = 300000
extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	extern __shared__ float s[];
	if (i < n) {
		s[threadIdx.x] = a[i];
		c[i] = s[threadIdx.x] + b[i];
	}
}

// rung: block = 1024; grid = cdiv(N,1024)
// The kernel promises at most 128 threads per block, the launch asks for 1024.
extern "C" __global__ void __launch_bounds__(128) vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

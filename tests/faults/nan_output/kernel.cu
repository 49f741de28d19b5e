extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = (i == 7) ? __int_as_float(0x7fffffff) : a[i] + b[i];
}

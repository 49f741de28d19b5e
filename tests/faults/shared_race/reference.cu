// Reference: c = a + b.
extern "C" __global__ void vadd_ref(const float *a, const float *b, float *c, int n)
{
	int i = (int)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

// Writes through a null pointer: an illegal address, a sticky error that kills the context.
extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		((volatile float *)0)[i] = a[i] + b[i];
}

// A reference that faults itself: writes through a null pointer.
extern "C" __global__ void vadd_ref(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		((volatile float *)0)[i] = a[i] + b[i];
}

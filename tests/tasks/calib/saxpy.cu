// One element per thread: y = a*x + y.
extern "C" __global__ void saxpy(const float *x, float *y, float a, int n)
{
	long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

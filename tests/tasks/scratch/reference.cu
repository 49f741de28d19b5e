// y = x: what scratch.ptx computes when its scratch is zero before the launch.
extern "C" __global__ void copy_ref(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i];
}

// Plain loads: the baseline (tests/tasks/l2hints/rung.ini).
extern "C" __global__ void l2sum(const float *__restrict__ x, float *__restrict__ y, int n)
{
	__shared__ float s[256];

	float acc = 0.f;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
		float v;
		v = x[i];
		acc += v;
	}
	s[threadIdx.x] = acc;
	__syncthreads();
	for (int k = 128; k > 0; k >>= 1) {
		if (threadIdx.x < k)
			s[threadIdx.x] += s[threadIdx.x + k];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		y[blockIdx.x] = s[0];
}

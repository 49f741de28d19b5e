// Loads with a cache policy from createpolicy.fractional.L2::evict_last (fraction 1.0) and .L2::cache_hint.
extern "C" __global__ void l2sum(const float *__restrict__ x, float *__restrict__ y, int n)
{
	__shared__ float s[256];
	unsigned long long pol;
	asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
	float acc = 0.f;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
		float v;
		asm volatile("ld.global.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(v) : "l"(x + i), "l"(pol));
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

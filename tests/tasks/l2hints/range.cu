// Loads with a cache policy from createpolicy.range.global.L2::evict_last over
// the whole input (16 MiB) and .L2::cache_hint. (The direct form,
// ld.global.L2::evict_last, needs a 256-bit load: ptxas refuses it on sm_90.)
extern "C" __global__ void l2sum(const float *__restrict__ x, float *__restrict__ y, int n)
{
	__shared__ float s[256];
	unsigned long long pol;
	unsigned bytes = (unsigned)n * 4u;
	asm volatile("createpolicy.range.global.L2::evict_last.L2::evict_unchanged.b64 %0, [%1], %2, %3;"
		     : "=l"(pol)
		     : "l"(x), "r"(bytes), "r"(bytes));
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

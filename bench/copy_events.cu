// Plain CUDA timing of rung's bench copy kernel (bench/tasks/copy/copy.cu), with
// no rung, no CUPTI and no NVML in the process: CUDA events around each launch,
// median of 30, for N floats. Variants: back to back; after a memset of twice
// the L2 (dirty L2); after a read sweep of twice the L2 (clean L2, rung's flush);
// the sweep with both pointers 4 KiB past the allocation (rung's guard band).
// Separates "the kernel is that slow in any process" from "rung's process makes
// it slow" when rung's median differs from ncu's. Build and run on the GPU box:
//   nvcc -O3 -arch=sm_90 -o /tmp/copy_events bench/copy_events.cu && /tmp/copy_events 268435456 [random]
// With "random" the source holds hashed values instead of zeros (rung's inputs
// are random normals).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" __global__ void copy(const float *a, const float *b, float *c, int n)
{
	long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i];
}

__global__ void hash_fill(float *p, long long n)
{
	long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		unsigned long long z = (unsigned long long)i * 0x9e3779b97f4a7c15ull;
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		p[i] = (float)((double)(z >> 11) * (1.0 / 9007199254740992.0)) * 2.f - 1.f;
	}
}

__global__ void sweep(const float4 *__restrict__ p, unsigned long long n4, float *sink)
{
	float acc = 0.f;
	unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
	for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
		float4 v = __ldcg(p + i);
		acc += v.x + v.y + v.z + v.w;
	}
	if (acc != 0.f)
		*sink = acc;
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main(int argc, char **argv)
{
	long long n = argc > 1 ? atoll(argv[1]) : 16777216;
	int l2 = 0, sms = 0;
	cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
	size_t fb = (size_t)l2 * 2;
	char *a, *c, *f;
	CK(cudaMalloc(&a, n * 4 + 8192));
	CK(cudaMalloc(&c, n * 4 + 8192));
	CK(cudaMalloc(&f, fb));
	CK(cudaMemset(a, 0, n * 4 + 8192));
	CK(cudaMemset(f, 0, fb));
	bool random = argc > 2 && !strcmp(argv[2], "random");
	if (random) {
		hash_fill<<<(unsigned)((n + 2048 + 255) / 256), 256>>>((float *)a, n + 2048);
		CK(cudaDeviceSynchronize());
	}
	cudaEvent_t e0, e1;
	cudaEventCreate(&e0);
	cudaEventCreate(&e1);
	const char *names[4] = {"back to back", "memset flush", "read-sweep flush", "read sweep, +4 KiB pointers"};
	for (int v = 0; v < 4; v++) {
		const float *pa = (const float *)(a + (v == 3 ? 4096 : 0));
		float *pc = (float *)(c + (v == 3 ? 4096 : 0));
		std::vector<float> t;
		for (int i = 0; i < 35; i++) {
			if (v == 1)
				cudaMemsetAsync(f, 0, fb);
			else if (v >= 2)
				sweep<<<sms * 4, 512>>>((const float4 *)f, fb / 16, (float *)f);
			cudaEventRecord(e0);
			copy<<<(unsigned)((n + 255) / 256), 256>>>(pa, pa, pc, (int)n);
			cudaEventRecord(e1);
			CK(cudaEventSynchronize(e1));
			float ms = 0;
			cudaEventElapsedTime(&ms, e0, e1);
			if (i >= 5)
				t.push_back(ms);
		}
		std::sort(t.begin(), t.end());
		printf("copy N=%lld %s %-28s median %.2f us (min %.2f, max %.2f, n=%zu)\n", n, random ? "random" : "zeros ", names[v], t[t.size() / 2] * 1e3,
		       t.front() * 1e3, t.back() * 1e3, t.size());
	}
	return 0;
}

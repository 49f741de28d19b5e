// A plain CUDA program for the short-kernel fidelity table (bench/h200_short.sh):
// the same saxpy as bench/tasks/saxpy, launched 30 times on N floats with an L2
// flush before each, timed by nothing but ncu (gpu__time_duration.sum) from
// outside. No rung, CUPTI or NVML inside. The flush is a write of twice the L2
// size (memset), or with "sweep" a read of it, as rung's worker flushes
// (gpu/worker/flush.c: L2 left clean), for ncu --cache-control none.
//   nvcc -O3 -arch=sm_90 -o saxpy_plain bench/saxpy_plain.cu && saxpy_plain N [sweep]
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

extern "C" __global__ void saxpy(const float *x, float *y, float a, int n)
{
	long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

extern "C" __global__ void sweep(const float4 *p, size_t n, float4 *sink)
{
	float4 acc = make_float4(0, 0, 0, 0);
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
		float4 v = __ldcg(p + i);
		acc.x += v.x, acc.y += v.y, acc.z += v.z, acc.w += v.w;
	}
	if (acc.x == 12345.0f) /* never: the buffer is zero */
		*sink = acc;
}

int main(int argc, char **argv)
{
	int read_sweep = argc > 2 && argv[2][0] == 's';
	int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
	float *x, *y;
	char *flush;
	int l2 = 0;
	cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
	size_t fb = 2 * (size_t)l2;
	if (cudaMalloc(&x, n * sizeof(float)) || cudaMalloc(&y, n * sizeof(float)) || cudaMalloc(&flush, fb)) {
		fprintf(stderr, "cudaMalloc failed\n");
		return 1;
	}
	cudaMemset(x, 0, n * sizeof(float));
	cudaMemset(y, 0, n * sizeof(float));
	cudaMemset(flush, 0, fb);
	for (int i = 0; i < 30; i++) {
		if (read_sweep)
			sweep<<<132 * 8, 256>>>((const float4 *)flush, fb / 16, (float4 *)flush);
		else
			cudaMemsetAsync(flush, i, fb);
		saxpy<<<(n + 255) / 256, 256>>>(x, y, 2.0f, n);
	}
	cudaError_t e = cudaDeviceSynchronize();
	printf("saxpy_plain n=%d: %s\n", n, cudaGetErrorString(e));
	return e != cudaSuccess;
}

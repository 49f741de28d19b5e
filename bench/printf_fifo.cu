// How long a kernel whose every thread printf's a line takes, by the size of
// the device printf FIFO (cudaLimitPrintfFifoSize), in a plain CUDA program:
//   printf_fifo FIFO_BYTES [LAUNCHES]
// prints "fifo=... launch k: X ms" to stderr; the kernel's lines go to stdout.
// The same kernel as tests/exploits/prints (4096 x 256 threads). Used by
// bench/h200_checks.sh to find what holds up a printing kernel in rung.
#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		printf("thread %d \033[2J\033]0;pwned\007 c = a + b\n", i);
		c[i] = a[i] + b[i];
	}
}

int main(int argc, char **argv)
{
	size_t fifo = argc > 1 ? strtoull(argv[1], 0, 10) : 1 << 20;
	int launches = argc > 2 ? atoi(argv[2]) : 2;
	int n = 1 << 20;
	cudaError_t e = cudaDeviceSetLimit(cudaLimitPrintfFifoSize, fifo);
	size_t got = 0;
	cudaDeviceGetLimit(&got, cudaLimitPrintfFifoSize);
	float *a, *b, *c;
	cudaMalloc(&a, n * 4);
	cudaMalloc(&b, n * 4);
	cudaMalloc(&c, n * 4);
	for (int k = 0; k < launches; k++) {
		auto t0 = std::chrono::steady_clock::now();
		vadd<<<n / 256, 256>>>(a, b, c, n);
		cudaError_t le = cudaDeviceSynchronize();
		double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
		fprintf(stderr, "fifo=%zu (asked %zu, %s) launch %d: %.1f ms (%s)\n", got, fifo, cudaGetErrorString(e), k, ms,
			cudaGetErrorString(le));
	}
	return 0;
}

// sgemm v3: 32x32 output tile per block, staged through shared memory in
// 32-wide K slices. Each element of A and B is read from global memory once
// per block instead of once per thread (32x less global traffic).
// Out-of-range elements are loaded as zero, so odd M, N, K need no special case.
// rung: grid = cdiv(N,32), cdiv(M,32); block = 32, 32; smem = 0

#define TILE 32

extern "C" __global__ void sgemm(const float *__restrict__ A, const float *__restrict__ B,
				 float *__restrict__ C, int M, int N, int K)
{
	__shared__ float As[TILE][TILE];
	__shared__ float Bs[TILE][TILE + 1];

	const int tx = threadIdx.x, ty = threadIdx.y;
	const int row = blockIdx.y * TILE + ty;
	const int col = blockIdx.x * TILE + tx;

	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += TILE) {
		As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
		Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
		__syncthreads();
#pragma unroll
		for (int k = 0; k < TILE; ++k)
			acc += As[ty][k] * Bs[k][tx];
		__syncthreads();
	}
	if (row < M && col < N)
		C[row * N + col] = acc;
}

// Shared-memory tiled sgemm: one thread per element of C, T x T tiles.
// rung: grid = cdiv(N,32), cdiv(M,32); block = 32, 32
template <int T>
__global__ void sgemm(int M, int N, int K, const float *__restrict__ A, const float *__restrict__ B,
		      float *__restrict__ C)
{
	__shared__ float As[T][T];
	__shared__ float Bs[T][T];
	int row = blockIdx.y * T + threadIdx.y;
	int col = blockIdx.x * T + threadIdx.x;
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += T) {
		int ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;
		As[threadIdx.y][threadIdx.x] = (row < M && ka < K) ? A[(size_t)row * K + ka] : 0.0f;
		Bs[threadIdx.y][threadIdx.x] = (col < N && kb < K) ? B[(size_t)kb * N + col] : 0.0f;
		__syncthreads();
#pragma unroll
		for (int k = 0; k < T; k++)
			acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
		__syncthreads();
	}
	if (row < M && col < N)
		C[(size_t)row * N + col] = acc;
}

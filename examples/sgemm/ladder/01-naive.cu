// sgemm v1: one thread per output element, straight from global memory.
// threadIdx.x walks rows, so the 32 lanes of a warp read 32 different rows of A
// (stride K) and write 32 different rows of C: nothing is coalesced.
// rung: grid = cdiv(M,32), cdiv(N,32); block = 32, 32; smem = 0

extern "C" __global__ void sgemm(const float *A, const float *B, float *C, int M, int N, int K)
{
	const int row = blockIdx.x * blockDim.x + threadIdx.x;
	const int col = blockIdx.y * blockDim.y + threadIdx.y;
	if (row < M && col < N) {
		float acc = 0.0f;
		for (int k = 0; k < K; ++k)
			acc += A[row * K + k] * B[k * N + col];
		C[row * N + col] = acc;
	}
}

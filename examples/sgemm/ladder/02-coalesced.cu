// sgemm v2: same work per thread, but threadIdx.x now walks columns.
// A warp reads one row of A (a broadcast) and 32 consecutive floats of B,
// and writes 32 consecutive floats of C: every access is coalesced.
// rung: grid = cdiv(N,32), cdiv(M,32); block = 32, 32; smem = 0

extern "C" __global__ void sgemm(const float *A, const float *B, float *C, int M, int N, int K)
{
	const int col = blockIdx.x * blockDim.x + threadIdx.x;
	const int row = blockIdx.y * blockDim.y + threadIdx.y;
	if (row < M && col < N) {
		float acc = 0.0f;
		for (int k = 0; k < K; ++k)
			acc += A[row * K + k] * B[k * N + col];
		C[row * N + col] = acc;
	}
}

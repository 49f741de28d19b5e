// sgemm v5: 2-D register blocking. A 128x128 block tile, 8-wide K slices, and
// each of the 256 threads owns an 8x8 sub-tile of C: per K step it loads 8
// values of A and 8 of B from shared memory and does 64 FMAs (4x fewer
// shared-memory loads per FMA than v4), and the 8x bigger block tile halves
// global traffic again.
// rung: grid = cdiv(N,128), cdiv(M,128); block = 256; smem = 0

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define NT 256

extern "C" __global__ void __launch_bounds__(NT)
sgemm(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
	__shared__ float As[BM][BK];
	__shared__ float Bs[BK][BN];

	const int tid = threadIdx.x;
	const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
	const int tr = tid / (BN / TN), tc = tid % (BN / TN); /* 16 x 16 threads */

	float acc[TM][TN];
#pragma unroll
	for (int i = 0; i < TM; ++i)
#pragma unroll
		for (int j = 0; j < TN; ++j)
			acc[i][j] = 0.0f;
	float ra[TM], rb[TN];

	for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
		for (int l = 0; l < BM * BK / NT; ++l) {
			const int idx = tid + l * NT;
			const int r = idx / BK, c = idx % BK;
			As[r][c] = (m0 + r < M && k0 + c < K) ? A[(m0 + r) * K + k0 + c] : 0.0f;
		}
#pragma unroll
		for (int l = 0; l < BK * BN / NT; ++l) {
			const int idx = tid + l * NT;
			const int r = idx / BN, c = idx % BN;
			Bs[r][c] = (k0 + r < K && n0 + c < N) ? B[(k0 + r) * N + n0 + c] : 0.0f;
		}
		__syncthreads();
#pragma unroll
		for (int k = 0; k < BK; ++k) {
#pragma unroll
			for (int i = 0; i < TM; ++i)
				ra[i] = As[tr * TM + i][k];
#pragma unroll
			for (int j = 0; j < TN; ++j)
				rb[j] = Bs[k][tc * TN + j];
#pragma unroll
			for (int i = 0; i < TM; ++i)
#pragma unroll
				for (int j = 0; j < TN; ++j)
					acc[i][j] += ra[i] * rb[j];
		}
		__syncthreads();
	}

#pragma unroll
	for (int i = 0; i < TM; ++i) {
		const int row = m0 + tr * TM + i;
		if (row >= M)
			continue;
#pragma unroll
		for (int j = 0; j < TN; ++j) {
			const int col = n0 + tc * TN + j;
			if (col < N)
				C[row * N + col] = acc[i][j];
		}
	}
}

// sgemm v4: 1-D register blocking. A 64x64 block tile with 8-wide K slices;
// each of the 512 threads computes 8 outputs down one column, so every value
// read from Bs is reused 8 times from a register (shared-memory loads per FMA
// drop from 2 to ~1.1).
// rung: grid = cdiv(N,64), cdiv(M,64); block = 512; smem = 0

#define BM 64
#define BN 64
#define BK 8
#define TM 8

extern "C" __global__ void __launch_bounds__(512)
sgemm(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
	__shared__ float As[BM][BK];
	__shared__ float Bs[BK][BN];

	const int tid = threadIdx.x;
	const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
	/* compute mapping: column tc, rows tr*TM .. tr*TM+TM-1 */
	const int tc = tid % BN, tr = tid / BN;
	/* load mapping: one element of each tile per thread */
	const int ar = tid / BK, ac = tid % BK; /* As: 64 rows x 8 */
	const int br = tid / BN, bc = tid % BN; /* Bs: 8 rows x 64 */

	float acc[TM];
#pragma unroll
	for (int i = 0; i < TM; ++i)
		acc[i] = 0.0f;

	for (int k0 = 0; k0 < K; k0 += BK) {
		As[ar][ac] = (m0 + ar < M && k0 + ac < K) ? A[(m0 + ar) * K + k0 + ac] : 0.0f;
		Bs[br][bc] = (k0 + br < K && n0 + bc < N) ? B[(k0 + br) * N + n0 + bc] : 0.0f;
		__syncthreads();
#pragma unroll
		for (int k = 0; k < BK; ++k) {
			const float b = Bs[k][tc];
#pragma unroll
			for (int i = 0; i < TM; ++i)
				acc[i] += As[tr * TM + i][k] * b;
		}
		__syncthreads();
	}

	const int col = n0 + tc;
	if (col < N) {
#pragma unroll
		for (int i = 0; i < TM; ++i) {
			const int row = m0 + tr * TM + i;
			if (row < M)
				C[row * N + col] = acc[i];
		}
	}
}

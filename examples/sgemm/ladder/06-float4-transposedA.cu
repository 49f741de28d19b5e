// sgemm v6: v5 with 128-bit memory operations. Global loads of A and B are
// float4 (one instruction per thread per tile instead of four), A is stored
// transposed in shared memory (As[k][m]) so the inner loop reads both operands
// as float4, and C is written as float4. When K or N is not a multiple of 4
// (rows not 16-byte aligned) or a tile hangs over the edge, the same thread
// falls back to bounds-checked scalar accesses.
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
	__shared__ __align__(16) float As[BK][BM]; /* transposed: As[k][m] */
	__shared__ __align__(16) float Bs[BK][BN];

	const int tid = threadIdx.x;
	const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
	const int tr = tid / (BN / TN), tc = tid % (BN / TN);
	const bool vecA = (K & 3) == 0, vecB = (N & 3) == 0;

	/* load mapping: one float4 of each tile per thread */
	const int ar = tid / (BK / 4), ac = (tid % (BK / 4)) * 4; /* 128 rows x 2 float4 */
	const int br = tid / (BN / 4), bc = (tid % (BN / 4)) * 4; /* 8 rows x 32 float4 */

	float acc[TM][TN];
#pragma unroll
	for (int i = 0; i < TM; ++i)
#pragma unroll
		for (int j = 0; j < TN; ++j)
			acc[i][j] = 0.0f;

	for (int k0 = 0; k0 < K; k0 += BK) {
		float4 a;
		const int arow = m0 + ar, acol = k0 + ac;
		if (vecA && arow < M && acol + 3 < K) {
			a = *reinterpret_cast<const float4 *>(&A[arow * K + acol]);
		} else {
			a.x = (arow < M && acol + 0 < K) ? A[arow * K + acol + 0] : 0.0f;
			a.y = (arow < M && acol + 1 < K) ? A[arow * K + acol + 1] : 0.0f;
			a.z = (arow < M && acol + 2 < K) ? A[arow * K + acol + 2] : 0.0f;
			a.w = (arow < M && acol + 3 < K) ? A[arow * K + acol + 3] : 0.0f;
		}
		As[ac + 0][ar] = a.x;
		As[ac + 1][ar] = a.y;
		As[ac + 2][ar] = a.z;
		As[ac + 3][ar] = a.w;

		float4 b;
		const int brow = k0 + br, bcol = n0 + bc;
		if (vecB && brow < K && bcol + 3 < N) {
			b = *reinterpret_cast<const float4 *>(&B[brow * N + bcol]);
		} else {
			b.x = (brow < K && bcol + 0 < N) ? B[brow * N + bcol + 0] : 0.0f;
			b.y = (brow < K && bcol + 1 < N) ? B[brow * N + bcol + 1] : 0.0f;
			b.z = (brow < K && bcol + 2 < N) ? B[brow * N + bcol + 2] : 0.0f;
			b.w = (brow < K && bcol + 3 < N) ? B[brow * N + bcol + 3] : 0.0f;
		}
		*reinterpret_cast<float4 *>(&Bs[br][bc]) = b;
		__syncthreads();

#pragma unroll
		for (int k = 0; k < BK; ++k) {
			const float4 a0 = *reinterpret_cast<const float4 *>(&As[k][tr * TM]);
			const float4 a1 = *reinterpret_cast<const float4 *>(&As[k][tr * TM + 4]);
			const float4 b0 = *reinterpret_cast<const float4 *>(&Bs[k][tc * TN]);
			const float4 b1 = *reinterpret_cast<const float4 *>(&Bs[k][tc * TN + 4]);
			const float ra[TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
			const float rb[TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
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
		for (int j = 0; j < TN; j += 4) {
			const int col = n0 + tc * TN + j;
			if (vecB && col + 3 < N) {
				*reinterpret_cast<float4 *>(&C[row * N + col]) =
					make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
			} else {
#pragma unroll
				for (int q = 0; q < 4; ++q)
					if (col + q < N)
						C[row * N + col + q] = acc[i][j + q];
			}
		}
	}
}

// sgemm v7: warp tiling + double buffering. The 128x128 block tile is split
// into eight 64x32 warp tiles, and within a warp each lane owns a 2x2 grid of
// 4x4 sub-tiles spread 32 rows / 16 columns apart. Every shared-memory read
// in the inner loop is then a conflict-free float4 (8 lanes broadcast-share
// each A vector, 4 share each B vector). The K slice is 16 wide and shared
// memory is double-buffered: the next slice's global loads are issued into
// registers before the current slice is multiplied and stored afterwards,
// so global latency hides behind 1024 FMAs per thread and there is one
// __syncthreads per slice instead of two. __launch_bounds__(256, 2) holds it
// to 128 registers (no spills) so two blocks fit on an SM.
// rung: grid = cdiv(N,128), cdiv(M,128); block = 256; smem = 0

#define BM 128
#define BN 128
#define BK 16
#define WM 64
#define WN 32
#define NT 256

extern "C" __global__ void __launch_bounds__(NT, 2)
sgemm(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
	__shared__ __align__(16) float As[2][BK][BM]; /* transposed: As[s][k][m] */
	__shared__ __align__(16) float Bs[2][BK][BN];

	const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
	const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
	const int wm = (warp / (BN / WN)) * WM, wn = (warp % (BN / WN)) * WN;
	const int lr = lane / 4, lc = lane % 4;
	const bool vecA = (K & 3) == 0, vecB = (N & 3) == 0;
	const int ktiles = (K + BK - 1) / BK;

	float4 pa[2], pb[2]; /* the slice in flight: two float4 of A and two of B per thread */

	/* Loads the slice at k0 into pa/pb; out-of-range elements become zero. */
	auto load = [&](int k0) {
#pragma unroll
		for (int l = 0; l < 2; ++l) {
			const int idx = tid + l * NT;
			const int ar = m0 + idx / (BK / 4), ac = k0 + (idx % (BK / 4)) * 4;
			if (vecA && ar < M && ac + 3 < K) {
				pa[l] = *reinterpret_cast<const float4 *>(&A[ar * K + ac]);
			} else {
				pa[l].x = (ar < M && ac + 0 < K) ? A[ar * K + ac + 0] : 0.0f;
				pa[l].y = (ar < M && ac + 1 < K) ? A[ar * K + ac + 1] : 0.0f;
				pa[l].z = (ar < M && ac + 2 < K) ? A[ar * K + ac + 2] : 0.0f;
				pa[l].w = (ar < M && ac + 3 < K) ? A[ar * K + ac + 3] : 0.0f;
			}
			const int br = k0 + idx / (BN / 4), bc = n0 + (idx % (BN / 4)) * 4;
			if (vecB && br < K && bc + 3 < N) {
				pb[l] = *reinterpret_cast<const float4 *>(&B[br * N + bc]);
			} else {
				pb[l].x = (br < K && bc + 0 < N) ? B[br * N + bc + 0] : 0.0f;
				pb[l].y = (br < K && bc + 1 < N) ? B[br * N + bc + 1] : 0.0f;
				pb[l].z = (br < K && bc + 2 < N) ? B[br * N + bc + 2] : 0.0f;
				pb[l].w = (br < K && bc + 3 < N) ? B[br * N + bc + 3] : 0.0f;
			}
		}
	};
	/* Stores pa/pb into buffer s, A transposed. */
	auto store = [&](int s) {
#pragma unroll
		for (int l = 0; l < 2; ++l) {
			const int idx = tid + l * NT;
			const int ar = idx / (BK / 4), ac = (idx % (BK / 4)) * 4;
			As[s][ac + 0][ar] = pa[l].x;
			As[s][ac + 1][ar] = pa[l].y;
			As[s][ac + 2][ar] = pa[l].z;
			As[s][ac + 3][ar] = pa[l].w;
			const int br = idx / (BN / 4), bc = (idx % (BN / 4)) * 4;
			*reinterpret_cast<float4 *>(&Bs[s][br][bc]) = pb[l];
		}
	};

	float acc[8][8];
#pragma unroll
	for (int i = 0; i < 8; ++i)
#pragma unroll
		for (int j = 0; j < 8; ++j)
			acc[i][j] = 0.0f;

	if (ktiles > 0) {
		load(0);
		store(0);
	}
	__syncthreads();

	for (int kt = 0; kt < ktiles; ++kt) {
		const int s = kt & 1;
		const bool more = kt + 1 < ktiles;
		if (more)
			load((kt + 1) * BK);

#pragma unroll
		for (int k = 0; k < BK; ++k) {
			float ra[8], rb[8];
#pragma unroll
			for (int i = 0; i < 2; ++i) {
				const float4 v = *reinterpret_cast<const float4 *>(&As[s][k][wm + i * 32 + lr * 4]);
				ra[i * 4 + 0] = v.x;
				ra[i * 4 + 1] = v.y;
				ra[i * 4 + 2] = v.z;
				ra[i * 4 + 3] = v.w;
			}
#pragma unroll
			for (int j = 0; j < 2; ++j) {
				const float4 v = *reinterpret_cast<const float4 *>(&Bs[s][k][wn + j * 16 + lc * 4]);
				rb[j * 4 + 0] = v.x;
				rb[j * 4 + 1] = v.y;
				rb[j * 4 + 2] = v.z;
				rb[j * 4 + 3] = v.w;
			}
#pragma unroll
			for (int i = 0; i < 8; ++i)
#pragma unroll
				for (int j = 0; j < 8; ++j)
					acc[i][j] += ra[i] * rb[j];
		}

		if (more)
			store(s ^ 1);
		__syncthreads();
	}

	/* acc[i*4+q][j*4+p] is C[m0 + wm + i*32 + lr*4 + q][n0 + wn + j*16 + lc*4 + p] */
#pragma unroll
	for (int i = 0; i < 2; ++i)
#pragma unroll
		for (int q = 0; q < 4; ++q) {
			const int row = m0 + wm + i * 32 + lr * 4 + q;
			if (row >= M)
				continue;
#pragma unroll
			for (int j = 0; j < 2; ++j) {
				const int col = n0 + wn + j * 16 + lc * 4;
				if (col + 3 >= N)
					continue; /* this group of four runs past the last column */
				const float *v = &acc[i * 4 + q][j * 4];
				if (vecB) {
					*reinterpret_cast<float4 *>(&C[row * N + col]) = make_float4(v[0], v[1], v[2], v[3]);
				} else { /* rows not 16-byte aligned: four scalar stores */
#pragma unroll
					for (int p = 0; p < 4; ++p)
						C[row * N + col + p] = v[p];
				}
			}
		}
}

// Reference for the sgemm task: C = A * B, row-major, fp32 in and out.
// One thread per output element, accumulated in double: slow, obviously correct.
// rung: grid = cdiv(N,16), cdiv(M,16); block = 16, 16; smem = 0

extern "C" __global__ void sgemm_ref(const float *A, const float *B, float *C, int M, int N, int K)
{
	const int col = blockIdx.x * blockDim.x + threadIdx.x;
	const int row = blockIdx.y * blockDim.y + threadIdx.y;
	if (row >= M || col >= N)
		return;
	double acc = 0.0;
	for (int k = 0; k < K; ++k)
		acc += (double)A[(long long)row * K + k] * (double)B[(long long)k * N + col];
	C[(long long)row * N + col] = (float)acc;
}

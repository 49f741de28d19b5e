// Naive reference: one thread per element of C, in double.
extern "C" __global__ void sgemm_ref(int M, int N, int K, const float *A, const float *B, float *C)
{
	int row = blockIdx.y * blockDim.y + threadIdx.y;
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	if (row >= M || col >= N)
		return;
	double acc = 0.0;
	for (int k = 0; k < K; k++)
		acc += (double)A[(size_t)row * K + k] * (double)B[(size_t)k * N + col];
	C[(size_t)row * N + col] = (float)acc;
}

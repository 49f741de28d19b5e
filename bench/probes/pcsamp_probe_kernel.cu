extern "C" __global__ void work(const float *a, float *b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	float x = a[i];
	for (int k = 0; k < 2000; k++) x = x * 1.0001f + 0.5f;
	b[i] = x + a[(i * 7919) % n];
}

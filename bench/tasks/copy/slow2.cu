// copy.cu made about 2% slower on purpose: the first 10 threads of each block of
// 256 also read one float of b (densely packed, coalesced), adding 40 bytes per
// 2048 bytes moved by the block: +2% traffic on a memory-bound kernel. The value
// is used only under a condition that never holds for finite inputs, so c stays exact.
extern "C" __global__ void copy(const float *a, const float *b, float *c, int n)
{
	long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = a[i];
		if (threadIdx.x < 10) {
			float x = b[(long long)blockIdx.x * 10 + threadIdx.x];
			if (x != x)
				v = x;
		}
		c[i] = v;
	}
}

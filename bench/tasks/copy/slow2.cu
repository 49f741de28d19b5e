// copy.cu made about 2% slower on purpose: every 25th thread also reads one
// float of b (densely packed), adding 4 bytes per 25 elements to the 8 bytes per
// element of the copy: +2% traffic on a memory-bound kernel. The value is used
// only under a condition that never holds for finite inputs, so c stays exact.
extern "C" __global__ void copy(const float *a, const float *b, float *c, int n)
{
	long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = a[i];
		if (i % 25 == 0) {
			float x = b[i / 25];
			if (x != x)
				v = x;
		}
		c[i] = v;
	}
}

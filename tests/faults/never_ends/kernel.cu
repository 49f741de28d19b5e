// Fault: a kernel that never finishes. The loop sleeps through inline asm
// (__nanosleep), which the compiler may not remove, so it spins until killed.
extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	for (;;)
		__nanosleep(1000);
	if (i < n)
		c[i] = a[i] + b[i];
}

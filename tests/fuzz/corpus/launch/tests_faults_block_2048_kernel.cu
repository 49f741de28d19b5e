// rung: block = 64, 32
extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n)

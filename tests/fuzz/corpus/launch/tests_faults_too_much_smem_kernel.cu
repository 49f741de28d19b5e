// rung: smem = 300000
extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n)

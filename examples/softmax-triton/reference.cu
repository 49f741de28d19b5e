// Reference for the softmax task: y[r][c] = exp(x[r][c] - max_r) / sum_c exp(x[r][c] - max_r),
// row-major [R, C], fp32 in and out. One thread per row, sums and exps in double.
// rung: grid = cdiv(R,128); block = 128; smem = 0

extern "C" __global__ void softmax_ref(const float *x, float *y, int R, int C)
{
	const int row = blockIdx.x * blockDim.x + threadIdx.x;
	if (row >= R)
		return;
	const float *xr = x + (long long)row * C;
	float *yr = y + (long long)row * C;
	double mx = xr[0];
	for (int c = 1; c < C; ++c)
		mx = fmax(mx, (double)xr[c]);
	double sum = 0.0;
	for (int c = 0; c < C; ++c)
		sum += exp((double)xr[c] - mx);
	for (int c = 0; c < C; ++c)
		yr[c] = (float)(exp((double)xr[c] - mx) / sum);
}

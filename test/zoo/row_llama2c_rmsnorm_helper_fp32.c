/* row_llama2c_rmsnorm_helper_fp32.c: llama2.c's `rmsnorm(o, x, weight, size)` helper (ss accumulated, then\n * ss /= size; ss += 1e-5f; ss = 1.0f / sqrtf(ss) updated in place), called once per row\n * of a batch with row pointers as arguments. parallel(t), no fusion clause. */
#include <math.h>
static void rmsnorm(float *o, const float *x, const float *weight, int size)
{
	float ss = 0.0f;
	for (int j = 0; j < size; j++)
		ss += x[j] * x[j];
	ss /= size;
	ss += 1e-5f;
	ss = 1.0f / sqrtf(ss);
	for (int j = 0; j < size; j++)
		o[j] = weight[j] * (ss * x[j]);
}

void rmsnorm_rows(int T, int C, const float *x, const float *w, float *out)
{
#pragma fuse kernel(rms) parallel(t)
	for (int t = 0; t < T; t++)
		rmsnorm(out + t * C, x + t * C, w, C);
}

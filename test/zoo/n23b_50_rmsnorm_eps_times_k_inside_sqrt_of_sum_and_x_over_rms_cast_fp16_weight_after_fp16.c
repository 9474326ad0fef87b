/* An RMSNorm written from the formula rms = sqrt((sum x^2 + K * eps) / K), x / rms cast
 * to fp16 before the weight multiply (HF Llama's `hidden.to(input_dtype) * weight`), by a
 * student transcribing the paper. */
#include <math.h>

void rmsnorm_formula(int T, int K, float eps, const _Float16 x[T][K], const _Float16 w[K], _Float16 y[T][K])
{
#pragma fuse kernel(rmsnorm_formula) parallel(t)
	for (int t = 0; t < T; t++) {
		float sum_sq = 0.0f;
		for (int k = 0; k < K; k++)
			sum_sq = sum_sq + (float)x[t][k] * (float)x[t][k];
		float rms = sqrtf((sum_sq + K * eps) / K);
		for (int k = 0; k < K; k++) {
			_Float16 xn = (_Float16)((float)x[t][k] / rms);
			y[t][k] = (_Float16)((float)xn * (float)w[k]);
		}
	}
}

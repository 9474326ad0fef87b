/* Gemma's RMSNorm: x * rsqrt(mean(x^2) + eps) * (1 + w), the mean of squares in double as a
 * careful reference does, fp16 in/out with float weight. */
#include <math.h>

void gemma_rmsnorm(int T, int Hd, float eps, const _Float16 x[T][Hd], const float w[Hd], _Float16 y[T][Hd])
{
#pragma fuse kernel(gemma_rmsnorm) parallel(t)
	for (int t = 0; t < T; t++) {
		double ss = 0.0;
		for (int k = 0; k < Hd; k++) {
			double v = (double)x[t][k];
			ss += v * v;
		}
		const float r = 1.0f / sqrtf((float)(ss / Hd) + eps);
		for (int k = 0; k < Hd; k++)
			y[t][k] = (_Float16)((float)x[t][k] * r * (1.0f + w[k]));
	}
}

/* Textbook (Knuth/Welford) one-pass mean and variance written inline, a float count, then
 * LayerNorm without affine (elementwise_affine=False). A student's numerically-careful version. */
#include <math.h>

void layernorm_welford(int N, int D, float eps, const float x[N][D], float y[N][D])
{
#pragma fuse kernel(layernorm_welford) parallel(n)
	for (int n = 0; n < N; n++) {
		float count = 0.0f, mean = 0.0f, m2 = 0.0f;
		for (int d = 0; d < D; d++) {
			count += 1.0f;
			float delta = x[n][d] - mean;
			mean += delta / count;
			float delta2 = x[n][d] - mean;
			m2 += delta * delta2;
		}
		float var = m2 / count;
		float inv_std = 1.0f / sqrtf(var + eps);
		for (int d = 0; d < D; d++)
			y[n][d] = (x[n][d] - mean) * inv_std;
	}
}

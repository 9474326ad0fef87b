/* GroupNorm written by a numpy user with helpers np_mean(x, n) and np_var(x, n, mean) over the
 * contiguous group x[n][g][K] (K = channels per group * HW), affine per group. */
#include <math.h>

static float np_mean(const float *x, int n)
{
	float s = 0.0f;
	for (int i = 0; i < n; i++)
		s += x[i];
	return s / n;
}
static float np_var(const float *x, int n, float mean)
{
	float s = 0.0f;
	for (int i = 0; i < n; i++)
		s += (x[i] - mean) * (x[i] - mean);
	return s / n;
}

void groupnorm_np(int N, int G, int K, float eps, const float x[N][G][K], const float gamma[G],
		  const float beta[G], float y[N][G][K])
{
#pragma fuse kernel(groupnorm_np) parallel(n, g)
	for (int n = 0; n < N; n++)
		for (int g = 0; g < G; g++) {
			const float mu = np_mean(x[n][g], K);
			const float var = np_var(x[n][g], K, mu);
			const float inv = 1.0f / sqrtf(var + eps);
			for (int i = 0; i < K; i++)
				y[n][g][i] = (x[n][g][i] - mu) * inv * gamma[g] + beta[g];
		}
}

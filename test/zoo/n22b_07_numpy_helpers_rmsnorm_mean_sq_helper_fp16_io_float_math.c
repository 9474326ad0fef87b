/* numpy-minded port of RMSNorm: small helpers mean_sq() and scale_row() like np.mean(x**2);
 * fp16 in and out, float math inside. */
#include <math.h>

static float mean_sq(const _Float16 *x, int n)
{
	float acc = 0.0f;
	for (int i = 0; i < n; i++)
		acc += (float)x[i] * (float)x[i];
	return acc / (float)n;
}

static void scale_row(_Float16 *y, const _Float16 *x, const float *w, float s, int n)
{
	for (int i = 0; i < n; i++)
		y[i] = (_Float16)((float)x[i] * s * w[i]);
}

void rmsnorm(int T, int C, float eps, const _Float16 x[T][C], const float weight[C], _Float16 y[T][C])
{
#pragma fuse kernel(rmsnorm) parallel(t)
	for (int t = 0; t < T; t++) {
		float ms = mean_sq(x[t], C);
		float rs = 1.0f / sqrtf(ms + eps);
		scale_row(y[t], x[t], weight, rs, C);
	}
}

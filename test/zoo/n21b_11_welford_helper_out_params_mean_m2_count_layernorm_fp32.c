/* Welford through a helper with out-parameters, as a C++ programmer moving to C writes
 * welford_update(&mean, &m2, &count, x); then LayerNorm without affine. */
#include <math.h>

static void welford_update(float *mean, float *m2, float *count, float x)
{
	*count = *count + 1.0f;
	float delta = x - *mean;
	*mean = *mean + delta / *count;
	*m2 = *m2 + delta * (x - *mean);
}

void ln_welford(int N, int C, float eps, const float x[N][C], float y[N][C])
{
#pragma fuse kernel(ln_welford) parallel(n)
	for (int n = 0; n < N; n++) {
		float mean = 0.0f, m2 = 0.0f, count = 0.0f;
		for (int c = 0; c < C; c++) welford_update(&mean, &m2, &count, x[n][c]);
		float rstd = 1.0f / sqrtf(m2 / count + eps);
		for (int c = 0; c < C; c++) y[n][c] = (x[n][c] - mean) * rstd;
	}
}

/* PROBE (rounding of a statistic): a naive half-precision port keeps the mean in a _Float16
 * local (as `mean = x.mean(-1)` on an fp16 tensor would), the variance then centred at that
 * rounded mean; sums in float. */
#include <math.h>

void ln_half_mean(int N, int D, float eps, const _Float16 x[N][D], _Float16 y[N][D])
{
#pragma fuse kernel(ln_half_mean) parallel(n)
	for (int n = 0; n < N; n++) {
		float s = 0.0f;
		for (int d = 0; d < D; d++)
			s += (float)x[n][d];
		const _Float16 mean = (_Float16)(s / D);
		float v = 0.0f;
		for (int d = 0; d < D; d++) {
			const float c = (float)x[n][d] - (float)mean;
			v += c * c;
		}
		const float rstd = 1.0f / sqrtf(v / D + eps);
		for (int d = 0; d < D; d++)
			y[n][d] = (_Float16)(((float)x[n][d] - (float)mean) * rstd);
	}
}

/* LayerNorm by a C programmer who reuses one accumulator: acc sums x for the mean, is reset, then
 * sums the squared deviations for the variance. fp16 in/out, gamma/beta float. */
#include <math.h>

void ln_reuse_acc(int N, int D, float eps, const _Float16 x[N][D], const float gamma[D], const float beta[D],
		  _Float16 y[N][D])
{
#pragma fuse kernel(ln_reuse_acc) parallel(n)
	for (int n = 0; n < N; n++) {
		float acc = 0.0f;
		for (int d = 0; d < D; d++)
			acc += (float)x[n][d];
		const float mean = acc / D;
		acc = 0.0f;
		for (int d = 0; d < D; d++)
			acc += ((float)x[n][d] - mean) * ((float)x[n][d] - mean);
		const float rstd = 1.0f / sqrtf(acc / D + eps);
		for (int d = 0; d < D; d++)
			y[n][d] = (_Float16)(((float)x[n][d] - mean) * rstd * gamma[d] + beta[d]);
	}
}

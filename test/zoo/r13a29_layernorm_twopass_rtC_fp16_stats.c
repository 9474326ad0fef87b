/* LayerNorm two-pass (mean, then sum of squared deviations) on fp16, gamma/beta fp16,
 * mean and rstd saved as float for the backward. */
#include <math.h>

void layernorm_fwd(int N, int C, float eps, const _Float16 x[N][C], const _Float16 gamma[C],
		   const _Float16 beta[C], _Float16 y[N][C], float mean[N], float rstd[N])
{
#pragma fuse kernel(layernorm_fwd) parallel(n)
	for (int n = 0; n < N; n++) {
		float mu = 0.0f;
		for (int c = 0; c < C; c++) mu += (float)x[n][c];
		mu = mu / C;
		float var = 0.0f;
		for (int c = 0; c < C; c++) {
			float dlt = (float)x[n][c] - mu;
			var += dlt * dlt;
		}
		var = var / C;
		float rs = 1.0f / sqrtf(var + eps);
		mean[n] = mu;
		rstd[n] = rs;
		for (int c = 0; c < C; c++)
			y[n][c] = (_Float16)(((float)x[n][c] - mu) * rs * (float)gamma[c] + (float)beta[c]);
	}
}

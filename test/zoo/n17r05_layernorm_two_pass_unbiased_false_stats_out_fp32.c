/* LayerNorm as a student writes it: mean, then variance as a second pass over (x - mean)^2,
 * gamma/beta, and the mean and rstd saved for backward. fp32. */
#include <math.h>

void layernorm_2pass(int N, int C, float eps, const float x[N][C], const float gamma[C], const float beta[C],
		     float y[N][C], float mean_out[N], float rstd_out[N])
{
#pragma fuse kernel(layernorm_2pass) parallel(n) rolling(c)
	for (int n = 0; n < N; n++) {
		float mean = 0.0f;
		for (int c = 0; c < C; c++) mean += x[n][c];
		mean /= C;
		float var = 0.0f;
		for (int c = 0; c < C; c++) var += (x[n][c] - mean) * (x[n][c] - mean);
		var /= C;
		const float rstd = 1.0f / sqrtf(var + eps);
		for (int c = 0; c < C; c++) y[n][c] = (x[n][c] - mean) * rstd * gamma[c] + beta[c];
		mean_out[n] = mean;
		rstd_out[n] = rstd;
	}
}

/* Pre-LN block: h = x + residual (stored), then LayerNorm(h) one pass (sum, sum of squares),
 * saving mean and rstd for backward; hidden 1024; fp16 activations, fp32 stats. */
#include <math.h>

void add_layernorm(int T, float eps, const _Float16 x[T][1024], const _Float16 res[T][1024],
		   const float gamma[1024], const float beta[1024], _Float16 h[T][1024],
		   _Float16 y[T][1024], float mean[T], float rstd[T])
{
#pragma fuse kernel(add_layernorm) parallel(t)
	for (int t = 0; t < T; t++) {
		float s1 = 0.0f, s2 = 0.0f;
		for (int c = 0; c < 1024; c++) {
			const float v = (float)x[t][c] + (float)res[t][c];
			h[t][c] = (_Float16)v;
			s1 += v;
			s2 += v * v;
		}
		const float mu = s1 / 1024.0f;
		const float var = s2 / 1024.0f - mu * mu;
		const float rs = 1.0f / sqrtf(var + eps);
		mean[t] = mu;
		rstd[t] = rs;
		for (int c = 0; c < 1024; c++)
			y[t][c] = (_Float16)(((float)h[t][c] - mu) * rs * gamma[c] + beta[c]);
	}
}

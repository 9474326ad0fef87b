/* LayerNorm over the last dim: y = (x - mean) / sqrt(var + eps) * gamma + beta, fp16 x/y,
 * fp32 gamma/beta, run-time int C. Style: numerically careful two-pass variance (the second
 * reduction depends on the first's mean), rolling(c) asking fusecc to fuse the chain. */
#include <math.h>

void layernorm(int N, int C, float eps, const _Float16 x[N][C],
	       const float gamma[C], const float beta[C], _Float16 y[N][C])
{
#pragma fuse kernel(layernorm) parallel(n) rolling(c)
	for (int n = 0; n < N; n++) {
		float mean = 0.0f;
		for (int c = 0; c < C; c++)
			mean += (float)x[n][c];
		mean = mean / (float)C;
		float var = 0.0f;
		for (int c = 0; c < C; c++) {
			float dx = (float)x[n][c] - mean;
			var += dx * dx;
		}
		var = var / (float)C;
		float inv = 1.0f / sqrtf(var + eps);
		for (int c = 0; c < C; c++)
			y[n][c] = (_Float16)(((float)x[n][c] - mean) * inv * gamma[c] + beta[c]);
	}
}

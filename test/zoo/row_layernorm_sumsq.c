/* row_layernorm_sumsq.c: LayerNorm over the last dim with the one-pass statistics
 * mean = sum x / C, var = sum x^2 / C - mean^2 (biased, as nn.LayerNorm).
 * Style: fp32, sum and sum of squares accumulated in the same loop, mean / var / rstd as
 * locals, affine gamma and beta. parallel(r), no strategy clause. */
#include <math.h>

void layernorm(int R, int C, float eps, const float x[R][C], const float gamma[C],
	       const float beta[C], float y[R][C])
{
#pragma fuse kernel(layernorm) parallel(r)
	for (int r = 0; r < R; r++) {
		float s1 = 0.0f, s2 = 0.0f;
		for (int c = 0; c < C; c++) {
			s1 += x[r][c];
			s2 += x[r][c] * x[r][c];
		}
		float mean = s1 / C;
		float var = s2 / C - mean * mean;
		float rstd = 1.0f / sqrtf(var + eps);
		for (int c = 0; c < C; c++)
			y[r][c] = (x[r][c] - mean) * rstd * gamma[c] + beta[c];
	}
}

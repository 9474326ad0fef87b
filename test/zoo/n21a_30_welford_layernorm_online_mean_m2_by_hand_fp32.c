/* LayerNorm with Welford's online mean/variance (as in apex / PyTorch's CUDA kernels, ported to C
 * by someone who knows the two-pass form is slow): mean += delta / n; m2 += delta * (x - mean). */
#include <math.h>

void welford_ln(int R, int C, float eps, const float x[R][C], const float gamma[C], const float beta[C], float y[R][C])
{
#pragma fuse kernel(welford_ln) parallel(r)
	for (int r = 0; r < R; r++) {
		float mean = 0.0f, m2 = 0.0f;
		for (int c = 0; c < C; c++) {
			float delta = x[r][c] - mean;
			mean += delta / (float)(c + 1);
			m2 += delta * (x[r][c] - mean);
		}
		const float rstd = 1.0f / sqrtf(m2 / C + eps);
		for (int c = 0; c < C; c++) y[r][c] = (x[r][c] - mean) * rstd * gamma[c] + beta[c];
	}
}

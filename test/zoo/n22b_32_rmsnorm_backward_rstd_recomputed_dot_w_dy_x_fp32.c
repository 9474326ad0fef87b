/* RMSNorm backward (Apex/liger style) with rstd recomputed in the backward:
 * rstd = 1/sqrt(mean(x^2)+eps); g = w*dy; dx = rstd * (g - x * rstd^2 * mean(g * x));
 * dw is left to a column reduction elsewhere. */
#include <math.h>

void rmsnorm_bwd(int T, int C, float eps, const float x[T][C], const float w[C], const float dy[T][C],
		 float dx[T][C])
{
#pragma fuse kernel(rmsnorm_bwd) parallel(t)
	for (int t = 0; t < T; t++) {
		float ss = 0.0f;
		for (int c = 0; c < C; c++)
			ss += x[t][c] * x[t][c];
		const float rstd = 1.0f / sqrtf(ss / C + eps);
		float gx = 0.0f;
		for (int c = 0; c < C; c++)
			gx += w[c] * dy[t][c] * x[t][c];
		const float k = rstd * rstd * gx / C;
		for (int c = 0; c < C; c++)
			dx[t][c] = rstd * (w[c] * dy[t][c] - x[t][c] * k);
	}
}

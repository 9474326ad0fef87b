/* Probe-ish: softmax statistics used for calibration: Z = sum p, M1 = sum p (x - m),
 * M2 = sum p (x - m)^2 with p = exp(x - m) (polynomials in the partial max). fp32. */
#include <math.h>

void softmax_moments(int R, int C, const float x[R][C], float mean[R], float var[R])
{
#pragma fuse kernel(softmax_moments) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float z = 0.0f, m1 = 0.0f, m2 = 0.0f;
		for (int c = 0; c < C; c++) {
			const float p = expf(x[r][c] - m);
			z += p;
			m1 += p * (x[r][c] - m);
			m2 += p * (x[r][c] - m) * (x[r][c] - m);
		}
		const float mu = m1 / z;
		mean[r] = mu + m;
		var[r] = m2 / z - mu * mu;
	}
}

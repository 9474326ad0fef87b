/* Poly-1 loss (Leng et al. 2022): CE + epsilon * (1 - p_t). The target's logit picked up
 * inside the max loop with `if (c == y) xt = ...`, as people fuse the gather by hand. */
#include <math.h>
#include <stdint.h>

void poly1_loss(int N, int C, float epsilon, const float x[N][C], const int32_t y[N], float loss[N])
{
#pragma fuse kernel(poly1_loss) parallel(n)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY, xt = 0.0f;
		for (int c = 0; c < C; c++) {
			m = fmaxf(m, x[n][c]);
			if (c == y[n])
				xt = x[n][c];
		}
		float z = 0.0f;
		for (int c = 0; c < C; c++)
			z += expf(x[n][c] - m);
		const float ce = m + logf(z) - xt;
		const float pt = expf(-ce);
		loss[n] = ce + epsilon * (1.0f - pt);
	}
}

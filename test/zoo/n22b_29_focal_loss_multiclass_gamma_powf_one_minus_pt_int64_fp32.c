/* Multi-class focal loss (RetinaNet's, softmax variant) per sample: pt = softmax(x)[y],
 * loss = -alpha * (1 - pt)^gamma * log(pt). A detection engineer's C reference. */
#include <math.h>
#include <stdint.h>

void focal_loss(int N, int C, float alpha, float gamma, const float x[N][C], const int64_t y[N], float loss[N])
{
#pragma fuse kernel(focal_loss) parallel(n)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, x[n][c]);
		float z = 0.0f;
		for (int c = 0; c < C; c++)
			z += expf(x[n][c] - m);
		const float logpt = x[n][y[n]] - m - logf(z);
		const float pt = expf(logpt);
		loss[n] = -alpha * powf(1.0f - pt, gamma) * logpt;
	}
}

/* Multi-class focal loss (RetinaNet's, as torchvision-style code writes it for softmax):
 * logpt = log_softmax(x)[target], pt = exp(logpt), loss = -alpha[target] * (1 - pt)^gamma
 * * logpt. A detection engineer's C. */
#include <math.h>
#include <stdint.h>

void focal_loss_rows(int N, int C, float gamma, const float x[N][C], const int64_t target[N],
		     const float alpha[C], float loss[N])
{
#pragma fuse kernel(focal_loss_rows) parallel(n)
	for (int n = 0; n < N; n++) {
		float mx = x[n][0];
		for (int c = 1; c < C; c++)
			mx = fmaxf(mx, x[n][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++)
			s += expf(x[n][c] - mx);
		const float logpt = x[n][target[n]] - mx - logf(s);
		const float pt = expf(logpt);
		loss[n] = -alpha[target[n]] * powf(1.0f - pt, gamma) * logpt;
	}
}

/* Focal loss (RetinaNet, multi-class): -(1 - p_t)^gamma * log p_t, gamma run-time. */
#include <math.h>
#include <stdint.h>
void focal(int N, int C, float gamma, const float x[N][C], const int64_t y[N], float out[N])
{
#pragma fuse kernel(focal) parallel(n)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY, s = 0;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[n][c]);
		for (int c = 0; c < C; c++) s += expf(x[n][c] - m);
		float logpt = x[n][y[n]] - m - logf(s);
		float pt = expf(logpt);
		out[n] = -powf(1.0f - pt, gamma) * logpt;
	}
}

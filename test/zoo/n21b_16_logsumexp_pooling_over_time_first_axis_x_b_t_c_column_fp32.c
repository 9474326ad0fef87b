/* LogSumExp pooling over time (a sound-event detector's pooling): y[b][c] = r^-1 log mean
 * exp(r * x[b][t][c]) over t, the reduction down the time axis of x[B][T][C]. */
#include <math.h>

void lse_pool(int B, int T, int C, float r, const float x[B][T][C], float y[B][C])
{
#pragma fuse kernel(lse_pool) parallel(b, c)
	for (int b = 0; b < B; b++)
		for (int c = 0; c < C; c++) {
			float m = -INFINITY;
			for (int t = 0; t < T; t++) m = fmaxf(m, r * x[b][t][c]);
			float s = 0.0f;
			for (int t = 0; t < T; t++) s += expf(r * x[b][t][c] - m);
			y[b][c] = (m + logf(s / T)) / r;
		}
}

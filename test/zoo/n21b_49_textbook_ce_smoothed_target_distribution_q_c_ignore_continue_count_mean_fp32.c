/* A student's label-smoothed CE: the target distribution q_c = (1 - eps) [c == y] + eps / C
 * written out, loss = -sum q_c log p_c, rows with y < 0 skipped, mean over counted rows. */
#include <math.h>

void ce_smooth_q(int N, int C, float eps, const float x[N][C], const int y[N], float *mean_loss)
{
	float tot = 0.0f;
	int cnt = 0;
#pragma fuse kernel(ce_smooth_q) parallel(n)
	for (int n = 0; n < N; n++) {
		if (y[n] < 0) continue;
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[n][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(x[n][c] - m);
		const float logz = m + logf(s);
		float l = 0.0f;
		for (int c = 0; c < C; c++) {
			const float q = (c == y[n] ? 1.0f - eps : 0.0f) + eps / C;
			l -= q * (x[n][c] - logz);
		}
		tot += l;
		cnt++;
	}
	*mean_loss = cnt ? tot / cnt : 0.0f;
}

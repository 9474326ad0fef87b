/* numpy style log_softmax: helpers row_max / row_logsumexp, lse saved for backward. */
#include <math.h>

static float row_max(const float *x, int n)
{
	float m = x[0];
	for (int c = 1; c < n; c++) m = fmaxf(m, x[c]);
	return m;
}

static float row_sumexp(const float *x, int n, float m)
{
	float s = 0.0f;
	for (int c = 0; c < n; c++) s += expf(x[c] - m);
	return s;
}

void log_softmax_np(int R, int C, const float x[R][C], float y[R][C], float lse[R])
{
#pragma fuse kernel(log_softmax_np) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = row_max(x[r], C);
		float l = m + logf(row_sumexp(x[r], C, m));
		lse[r] = l;
		for (int c = 0; c < C; c++) y[r][c] = x[r][c] - l;
	}
}

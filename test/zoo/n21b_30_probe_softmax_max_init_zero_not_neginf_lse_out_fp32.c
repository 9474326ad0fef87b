/* Probe: the max initialised to 0 (a common slip), so the shift is max(0, max x): softmax is
 * unchanged but the LSE written as m + log(s) must still be exact, and rows of large
 * negative logits underflow in C (s == 0, lse = -inf): the fused C must do the same. */
#include <math.h>

void sm_lse_m0(int R, int C, const float x[R][C], float y[R][C], float lse[R])
{
#pragma fuse kernel(sm_lse_m0) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = 0.0f;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(x[r][c] - m);
		for (int c = 0; c < C; c++) y[r][c] = expf(x[r][c] - m) / s;
		lse[r] = m + logf(s);
	}
}

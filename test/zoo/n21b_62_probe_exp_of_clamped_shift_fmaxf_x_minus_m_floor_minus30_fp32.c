/* Probe: a "numerically safe" softmax clamping the shifted logit before the exponential,
 * expf(fmaxf(x - m, -30)): the contribution is not an exponential of a linear function of m. */
#include <math.h>

void sm_clamped(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(sm_clamped) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(fmaxf(x[r][c] - m, -30.0f));
		for (int c = 0; c < C; c++) y[r][c] = expf(fmaxf(x[r][c] - m, -30.0f)) / s;
	}
}

/* Probe: "softmax + 1" (quiet softmax / off-by-one attention) with the denominator seeded from
 * a parameter (the extra column's weight) rather than a constant: s = bias_w * exp(-m) + sum. */
#include <math.h>

void softmax_plus(int R, int C, float w0, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_plus) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = 0.0f;
		for (int c = 0; c < C; c++) m = x[r][c] > m ? x[r][c] : m;
		float s = w0 * expf(-m);
		for (int c = 0; c < C; c++) s += expf(x[r][c] - m);
		for (int c = 0; c < C; c++) y[r][c] = expf(x[r][c] - m) / s;
	}
}

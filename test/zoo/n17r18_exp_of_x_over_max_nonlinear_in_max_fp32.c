/* Probe: a normaliser that is not a shift: s = sum exp(x / m) with m the row max (positive
 * inputs, "max-normalised" scores). No rescaling can merge partial sums: a fuser must do two
 * passes or refuse. fp32. */
#include <math.h>

void exp_over_max(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(exp_over_max) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(x[r][c] / m);
		for (int c = 0; c < C; c++) y[r][c] = expf(x[r][c] / m) / s;
	}
}

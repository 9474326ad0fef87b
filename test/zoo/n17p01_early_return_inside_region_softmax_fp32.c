/* Probe: an early `return` inside the region (when a row has no columns), as in a defensive port. */
#include <math.h>

void softmax_ret(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_ret) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		if (C == 0) return;
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(x[r][c] - m);
		for (int c = 0; c < C; c++) y[r][c] = expf(x[r][c] - m) / s;
	}
}

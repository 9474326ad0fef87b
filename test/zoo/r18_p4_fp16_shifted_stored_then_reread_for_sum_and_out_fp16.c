/* PROBE. Op-by-op port: y = (x - max) stored to an fp16 output (rounded), then the sum of
 * exp(y) reads the ROUNDED y back, then y overwritten with log-softmax from the rounded y.
 * A fuser that keeps the unrounded value computes something else. fp16. */
#include <math.h>

void logsoftmax_staged(int R, int C, const _Float16 x[R][C], _Float16 y[R][C], float lse[R])
{
#pragma fuse kernel(logsoftmax_staged) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, (float)x[r][c]);
		for (int c = 0; c < C; c++) y[r][c] = (_Float16)((float)x[r][c] - m);
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf((float)y[r][c]);
		const float ls = logf(s);
		for (int c = 0; c < C; c++) y[r][c] = (_Float16)((float)y[r][c] - ls);
		lse[r] = m + ls;
	}
}

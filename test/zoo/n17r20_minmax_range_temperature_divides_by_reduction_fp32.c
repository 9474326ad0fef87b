/* Probe: exp((x - max) / (max - min)): the divisor is itself a reduction of the row, so a
 * partial max/min cannot be repaired by a factor. fp32. */
#include <math.h>

void range_softmax(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(range_softmax) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float mx = -INFINITY, mn = INFINITY;
		for (int c = 0; c < C; c++) { mx = fmaxf(mx, x[r][c]); mn = fminf(mn, x[r][c]); }
		const float t = mx - mn + 1e-6f;
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf((x[r][c] - mx) / t);
		for (int c = 0; c < C; c++) y[r][c] = expf((x[r][c] - mx) / t) / s;
	}
}

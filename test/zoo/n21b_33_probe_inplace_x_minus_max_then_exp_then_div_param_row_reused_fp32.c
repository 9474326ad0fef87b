/* Probe: numpy's in-place softmax on the caller's buffer: x -= max; x = exp(x); x /= sum,
 * each op a loop over the row storing into x. */
#include <math.h>

void softmax_inplace(int R, int C, float x[R][C])
{
#pragma fuse kernel(softmax_inplace) parallel(r)
	for (int r = 0; r < R; r++) {
		float mx = -INFINITY;
		for (int c = 0; c < C; c++) mx = fmaxf(mx, x[r][c]);
		for (int c = 0; c < C; c++) x[r][c] = x[r][c] - mx;
		float s = 0.0f;
		for (int c = 0; c < C; c++) {
			x[r][c] = expf(x[r][c]);
			s += x[r][c];
		}
		for (int c = 0; c < C; c++) x[r][c] /= s;
	}
}

/* PROBE: in-place softmax on a non-const buffer (x is input and output): x -= max, then exp in place with the
 * sum, then divide; each later loop reads the value the previous loop stored. */
#include <math.h>
void softmax_inplace(int R, int C, float x[R][C])
{
#pragma fuse kernel(softmax_inplace)
	for (int r = 0; r < R; r++) {
		float mx = -INFINITY;
		for (int c = 0; c < C; c++) mx = fmaxf(mx, x[r][c]);
		for (int c = 0; c < C; c++) x[r][c] = x[r][c] - mx;
		float s = 0.0f;
		for (int c = 0; c < C; c++) { x[r][c] = expf(x[r][c]); s += x[r][c]; }
		for (int c = 0; c < C; c++) x[r][c] /= s;
	}
}

/* PROBE. In-place softmax over the input, three updates of x in place: subtract the max, exp
 * (and sum), divide -- each loop reads the value the previous loop stored. fp32. */
#include <math.h>

void softmax_inplace3(int R, int C, float x[R][C])
{
#pragma fuse kernel(softmax_inplace3) parallel(r)
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

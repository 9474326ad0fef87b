/* PROBE: in-place softmax on the array it reads (x is input and output), the max then reused after
 * x has been overwritten with exponentials; then a divide in place. */
#include <math.h>

void softmax_inplace(int R, int C, float x[R][C])
{
#pragma fuse kernel(softmax_inplace) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) { x[r][c] = expf(x[r][c] - m); s += x[r][c]; }
		for (int c = 0; c < C; c++) x[r][c] /= s;
	}
}

/* Softmax whose max starts at a caller-given floor (m = max(floor, max_c x)), as code that
 * guards against all -inf rows does. fp32. */
#include <math.h>

void softmax_floor(int R, int C, float floor_val, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_floor) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float m = floor_val;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(x[r][c] - m);
		for (int c = 0; c < C; c++) y[r][c] = expf(x[r][c] - m) / s;
	}
}

/* Probe: the denominator seeded from a scalar parameter (an "off-by-one" softmax with a
 * learned extra mass: s = extra; s += exp(x - m)), not rescaled by the max. fp32. */
#include <math.h>

void softmax_extra(int R, int C, float extra, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_extra) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = extra;
		for (int c = 0; c < C; c++) s += expf(x[r][c] - m);
		for (int c = 0; c < C; c++) y[r][c] = expf(x[r][c] - m) / s;
	}
}

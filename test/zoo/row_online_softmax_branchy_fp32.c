/* row_online_softmax_branchy_fp32.c: softmax with the online normaliser written with a
 * branch: the running sum is rescaled only when the max grows (`if (v > m) { d *= expf(m - v);
 * m = v; }`), then the element added at the current max. fp32, splitk(c), parallel(r). */
#include <math.h>
void softmax_branchy(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_branchy) parallel(r) splitk(c)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY, d = 0.0f;
		for (int c = 0; c < C; c++) {
			float v = x[r][c];
			if (v > m) {
				d *= expf(m - v);
				m = v;
			}
			d += expf(v - m);
		}
		for (int c = 0; c < C; c++)
			y[r][c] = expf(x[r][c] - m) / d;
	}
}

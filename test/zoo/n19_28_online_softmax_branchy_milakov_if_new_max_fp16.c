/* Online normaliser (Milakov & Gimelshein 2018) as a student writes it with a branch instead of fmaxf:
 * if (x > m) { d = d * expf(m - x) + 1; m = x; } else d += expf(x - m); then y = expf(x - m) / d. fp16 rows. */
#include <math.h>
void online_softmax_branch(int R, int C, const _Float16 x[R][C], _Float16 y[R][C])
{
#pragma fuse kernel(online_softmax_branch)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY, d = 0.0f;
		for (int c = 0; c < C; c++) {
			const float v = (float)x[r][c];
			if (v > m) {
				d = d * expf(m - v) + 1.0f;
				m = v;
			} else {
				d += expf(v - m);
			}
		}
		for (int c = 0; c < C; c++) y[r][c] = (_Float16)(expf((float)x[r][c] - m) / d);
	}
}

/* Probe: a reduction whose bound varies per row through integer modulo, n = r % C + 1 (a
 * ragged prefix), positions past it written as 0. fp32. */
#include <math.h>

void softmax_prefix_mod(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_prefix_mod) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		const int n = r % C + 1;
		float m = -INFINITY;
		for (int c = 0; c < n; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < n; c++) s += expf(x[r][c] - m);
		for (int c = 0; c < C; c++) y[r][c] = c < n ? expf(x[r][c] - m) / s : 0.0f;
	}
}

/* The "online softmax" paper's algorithm over one row, written by hand: one loop keeps the max
 * and the rescaled denominator, a second writes the probabilities. fp32. */
#include <math.h>

void online_softmax(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(online_softmax) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY, d = 0.0f;
		for (int c = 0; c < C; c++) {
			const float m_new = fmaxf(m, x[r][c]);
			d = d * expf(m - m_new) + expf(x[r][c] - m_new);
			m = m_new;
		}
		for (int c = 0; c < C; c++) y[r][c] = expf(x[r][c] - m) / d;
	}
}

/* A max whose operand depends on an earlier max: the repair is additive,
 * m2 + (m_prev - m_used). */
#include <math.h>

void maxmax(int R, int C, const float x[R][C], const float y[R][C], float out[R])
{
#pragma fuse kernel(maxmax) parallel(r) rolling(c) tile(c:5)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, x[r][c]);
		float m2 = -INFINITY;
		for (int c = 0; c < C; c++)
			m2 = y[r][c] - m > m2 ? y[r][c] - m : m2;
		out[r] = m2;
	}
}

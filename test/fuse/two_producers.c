/* A weighted sum whose weight depends on two earlier reductions: a max inside exp and an
 * independent sum as divisor. Its repair multiplies both factors. */
#include <math.h>

void two_producers(int R, int C, const float x[R][C], const float y[R][C], float out[R])
{
#pragma fuse kernel(two_producers) parallel(r)
#pragma fuse rolling(c) tile(c:7)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, x[r][c]);
		float z = 0.0f;
		for (int c = 0; c < C; c++)
			z += y[r][c] * y[r][c] + 0.5f;
		float acc = 0.0f;
		for (int c = 0; c < C; c++)
			acc += expf(x[r][c] - m) / z * y[r][c];
		out[r] = acc;
	}
}

/* tile applies to parallel loops and to the fused loop, not to d. */
#include <math.h>
void f(int R, int C, const float x[R][C], float y[R])
{
#pragma fuse kernel(f) parallel(r) rolling(c) tile(d:4)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			for (int d = 0; d < 4; d++)
				m = fmaxf(m, x[r][c] * d);
		y[r] = m;
	}
}

/* probe: the pass's accumulator is an output row zeroed before the pass, and a pre statement
 * reads that row (o[r][0]) before the pass */
#include <math.h>
void p82(int R, int C, const float x[R][C], float y[R], float z[R])
{
#pragma fuse kernel(p82) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		float l = 0.0f;
		z[r] = l - m;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		for (int c = 0; c < C; c++) l += expf(x[r][c] - m);
		y[r] = m + logf(l);
	}
}

/* probe: between the loops a plain scalar is updated compoundly from the max (t += m), then read in the sum */
#include <math.h>
void p66(int R, int C, const float x[R][C], float y[R])
{
#pragma fuse kernel(p66) parallel(r)
	for (int r = 0; r < R; r++) {
		float t = 0.5f;
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		t += m;
		float l = 0;
		for (int c = 0; c < C; c++) l += expf(x[r][c] - t);
		y[r] = t + logf(l);
	}
}

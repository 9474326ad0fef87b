/* probe: a sum set to 0, then bumped by a bias before its loop (two statements before the pass) */
#include <math.h>
void p52(int R, int C, const float bias[R], const float x[R][C], float lse[R])
{
#pragma fuse kernel(p52) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float l = 0.0f;
		l += expf(bias[r] - m);
		for (int c = 0; c < C; c++) l += expf(x[r][c] - m);
		lse[r] = m + logf(l);
	}
}

/* probe: the max is seeded from a local that is overwritten (before the pass) after the seed */
#include <math.h>
void p81(int R, int C, const float floor_[R], const float x[R][C], float lse[R], float fl[R])
{
#pragma fuse kernel(p81) parallel(r)
	for (int r = 0; r < R; r++) {
		float b0 = floor_[r] + 100.0f;
		float m = b0;
		b0 = -1000.0f;
		fl[r] = b0;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float l = 0;
		for (int c = 0; c < C; c++) l += expf(x[r][c] - m);
		lse[r] = m + logf(l);
	}
}

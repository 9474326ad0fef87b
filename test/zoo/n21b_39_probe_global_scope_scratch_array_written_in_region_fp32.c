/* Probe: a file-scope scratch row (static float buf[4096]) written by the region. */
#include <math.h>

static float buf[4096];

void sm_global(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(sm_global) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) {
			buf[c] = expf(x[r][c] - m);
			s += buf[c];
		}
		for (int c = 0; c < C; c++) y[r][c] = buf[c] / s;
	}
}

/* Probe: a goto skipping a row (C programmer's early exit) inside the region. */
#include <math.h>

void sm_goto(int R, int C, const float x[R][C], const int valid[R], float y[R][C])
{
#pragma fuse kernel(sm_goto) parallel(r)
	for (int r = 0; r < R; r++) {
		if (!valid[r]) goto next;
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(x[r][c] - m);
		for (int c = 0; c < C; c++) y[r][c] = expf(x[r][c] - m) / s;
	next:;
	}
}

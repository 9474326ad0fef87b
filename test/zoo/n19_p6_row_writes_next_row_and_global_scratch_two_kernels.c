/* PROBE: two kernels in one file sharing a file-scope scratch row, the second's row loop writing row i + 1. */
#include <math.h>
static float scratch[4096];
void k1_rowmax(int R, int C, const float x[R][C], float mx[R])
{
#pragma fuse kernel(k1_rowmax)
	for (int r = 0; r < R; r++) {
		for (int c = 0; c < C; c++) scratch[c] = x[r][c];
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, scratch[c]);
		mx[r] = m;
	}
}
void k2_shift(int R, int C, const float x[R][C], float y[R + 1][C])
{
#pragma fuse kernel(k2_shift)
	for (int r = 0; r < R; r++) {
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(x[r][c]);
		for (int c = 0; c < C; c++) y[r + 1][c] = expf(x[r][c]) / s;
	}
}

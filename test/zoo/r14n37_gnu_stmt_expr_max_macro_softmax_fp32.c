/* Linux-kernel-style MAX macro with a GNU statement expression and __typeof__ */
#include <math.h>
#define MAX(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
void sm_gnu(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(sm_gnu) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = MAX(m, x[r][c]);
		float s = 0;
		for (int c = 0; c < C; c++) s += expf(x[r][c] - m);
		for (int c = 0; c < C; c++) y[r][c] = expf(x[r][c] - m) / s;
	}
}

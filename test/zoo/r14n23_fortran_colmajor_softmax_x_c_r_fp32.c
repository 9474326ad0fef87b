/* Fortran port: column-major x(C, R) as x[r] columns: here x[c][r] and softmax over c. */
#include <math.h>
void sm_colmajor(int R, int C, const float x[C][R], float y[C][R])
{
#pragma fuse kernel(sm_colmajor) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[c][r]);
		float s = 0;
		for (int c = 0; c < C; c++) s += expf(x[c][r] - m);
		for (int c = 0; c < C; c++) y[c][r] = expf(x[c][r] - m) / s;
	}
}

/* Probe: in-place stages on the output buffer: y = x; y -= max; y = exp(y); y /= sum (a Fortran
 * port that reuses one array). */
#include <math.h>

void softmax_stages(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_stages) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) { y[r][c] = x[r][c]; m = fmaxf(m, y[r][c]); }
		for (int c = 0; c < C; c++) y[r][c] = y[r][c] - m;
		float s = 0.0f;
		for (int c = 0; c < C; c++) { y[r][c] = expf(y[r][c]); s += y[r][c]; }
		for (int c = 0; c < C; c++) y[r][c] /= s;
	}
}

/* PROBE: a row loop whose body writes the next row (y[r + 1]); y has R + 1 rows, row 0 untouched. */
#include <math.h>
void k2_shift(int R, int C, const float x[R][C], float y[R + 1][C])
{
#pragma fuse kernel(k2_shift)
	for (int r = 0; r < R; r++) {
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(x[r][c]);
		for (int c = 0; c < C; c++) y[r + 1][c] = expf(x[r][c]) / s;
	}
}

/* Softmin (torch.nn.functional.softmin): exp(-x) normalised, stabilised with the row minimum,
 * written as exp(mn - x). fp32. */
#include <math.h>

void softmin_rows(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmin_rows) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float mn = INFINITY;
		for (int c = 0; c < C; c++) mn = fminf(mn, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(mn - x[r][c]);
		for (int c = 0; c < C; c++) y[r][c] = expf(mn - x[r][c]) / s;
	}
}

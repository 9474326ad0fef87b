/* Two regions in one function: the first computes LSE per row, the second reads it. A scalar
 * inv_T is set up before both. */
#include <math.h>
void two_regions(int R, int C, float T, const float x[R][C], float lse[R], float y[R][C])
{
	const float inv_T = 1.0f / T;
#pragma fuse kernel(lse_k) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c] * inv_T);
		float s = 0;
		for (int c = 0; c < C; c++) s += expf(x[r][c] * inv_T - m);
		lse[r] = m + logf(s);
	}
#pragma fuse kernel(sm_k) parallel(r)
	for (int r = 0; r < R; r++)
		for (int c = 0; c < C; c++) y[r][c] = expf(x[r][c] * inv_T - lse[r]);
}

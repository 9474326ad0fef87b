/* Probe: a mask multiplied in as a number, (x > m - band) * expf(x - m), the mask reading
 * the max (a branchless top-band softmax denominator). */
#include <math.h>

void band_lse(int R, int C, float band, const float x[R][C], float lse[R])
{
#pragma fuse kernel(band_lse) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += (float)(x[r][c] > m - band) * expf(x[r][c] - m);
		lse[r] = m + logf(s);
	}
}

/* Probe: the mask is applied in the sum and output loops but NOT in the max loop (the max
 * includes masked keys): legal, the shift cancels; a fuser must not mask the max. */
#include <math.h>
#include <stdbool.h>

void masked_sum_only(int R, int C, const bool keep[R][C], const float x[R][C], float y[R][C], float lse[R])
{
#pragma fuse kernel(masked_sum_only) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) {
			if (!keep[r][c]) continue;
			s += expf(x[r][c] - m);
		}
		lse[r] = m + logf(s);
		for (int c = 0; c < C; c++) y[r][c] = keep[r][c] ? expf(x[r][c] - m) / s : 0.0f;
	}
}

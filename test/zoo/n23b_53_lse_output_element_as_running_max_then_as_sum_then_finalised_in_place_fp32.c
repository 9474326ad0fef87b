/* A C programmer who uses the output element itself as the accumulator, twice: lse[r]
 * first holds the running max, mx[r] is stored from it, then lse[r] holds the sum of
 * exponentials, and finally lse[r] = mx[r] + log(lse[r]). */
#include <math.h>

void lse_in_output(int R, int C, const float x[R][C], float mx[R], float lse[R])
{
#pragma fuse kernel(lse_in_output) parallel(r)
	for (int r = 0; r < R; r++) {
		lse[r] = -INFINITY;
		for (int c = 0; c < C; c++)
			lse[r] = fmaxf(lse[r], x[r][c]);
		mx[r] = lse[r];
		lse[r] = 0.0f;
		for (int c = 0; c < C; c++)
			lse[r] += expf(x[r][c] - mx[r]);
		lse[r] = mx[r] + logf(lse[r]);
	}
}

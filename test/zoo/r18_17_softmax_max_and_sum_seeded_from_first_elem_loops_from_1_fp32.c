/* A textbook softmax that avoids the -INFINITY literal: both the max and the sum are seeded
 * from element 0 (the sum with exp(x0 - max), AFTER the max is known) and both loops start at
 * 1. Output also the log-sum-exp. fp32. */
#include <math.h>

void softmax_seed0(int R, int C, const float x[R][C], float y[R][C], float lse[R])
{
#pragma fuse kernel(softmax_seed0) parallel(r)
	for (int r = 0; r < R; r++) {
		float mx = x[r][0];
		for (int c = 1; c < C; c++)
			if (x[r][c] > mx) mx = x[r][c];
		float sum = expf(x[r][0] - mx);
		for (int c = 1; c < C; c++) sum += expf(x[r][c] - mx);
		for (int c = 0; c < C; c++) y[r][c] = expf(x[r][c] - mx) / sum;
		lse[r] = mx + logf(sum);
	}
}

/* A softmax "centred" by the row mean (a numerics shortcut some people take when logits are
 * known to be small: the mean is one more sum in the same pass). The same probabilities
 * as the max shift while no exponential overflows. */
#include <math.h>

void softmax_mean_shift(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_mean_shift) parallel(r)
	for (int r = 0; r < R; r++) {
		float mu = 0.0f;
		for (int c = 0; c < C; c++)
			mu += x[r][c];
		mu /= C;
		float s = 0.0f;
		for (int c = 0; c < C; c++)
			s += expf(x[r][c] - mu);
		for (int c = 0; c < C; c++)
			y[r][c] = expf(x[r][c] - mu) / s;
	}
}

/* A softmax stabilised by the largest magnitude rather than the largest value (any shift
 * gives the same probabilities; someone reusing an absmax they already compute for
 * quantisation). */
#include <math.h>

void softmax_absmax_shift(int R, int C, const float x[R][C], float y[R][C], float amax_out[R])
{
#pragma fuse kernel(softmax_absmax_shift) parallel(r)
	for (int r = 0; r < R; r++) {
		float a = 0.0f;
		for (int c = 0; c < C; c++)
			a = fmaxf(a, fabsf(x[r][c]));
		amax_out[r] = a;
		float s = 0.0f;
		for (int c = 0; c < C; c++)
			s += expf(x[r][c] - a);
		for (int c = 0; c < C; c++)
			y[r][c] = expf(x[r][c] - a) / s;
	}
}

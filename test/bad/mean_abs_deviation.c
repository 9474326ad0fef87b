/* The mean absolute deviation, sum |x - mean|: the mean sits inside a function that is not
 * a product (nor a sum of products) of a part without it and a part with it, so no
 * accumulator can be re-tagged when the mean moves. */
#include <math.h>

void mad(int R, int C, const float x[R][C], float out[R])
{
#pragma fuse kernel(mad) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float mean = 0.0f;
		for (int c = 0; c < C; c++)
			mean += x[r][c] / C;
		float d = 0.0f;
		for (int c = 0; c < C; c++)
			d += fabsf(x[r][c] - mean);
		out[r] = d / C;
	}
}

/* safe_softmax.c: row-wise safe softmax, y[r] = exp(x[r] - max x[r]) / sum exp(...),
 * the smallest cascade of reductions (RedFuser): row max, then sum of exp, then a map.
 * rolling(c) fuses the max and the sum into one pass (online softmax); the normalising
 * map needs the final sum and stays a second pass. fp32; e.g. R = 4096, C = 1024 ... 32768. */
#include <math.h>

void safe_softmax(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(safe_softmax) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, x[r][c]);
		float l = 0.0f;
		for (int c = 0; c < C; c++)
			l += expf(x[r][c] - m);
		for (int c = 0; c < C; c++)
			y[r][c] = expf(x[r][c] - m) / l;
	}
}

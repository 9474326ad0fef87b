/* row_masked_softmax_isfinite_guard_fp32.c: softmax over the kept entries of each row (a
 * byte mask), a fully masked row giving zeros through an `isfinite(m)` guard, as careful C
 * ports of masked_softmax write it. Style: fp32, <math.h>'s isfinite (glibc expands it to
 * __builtin_isfinite), conditional max and sum, parallel(t) with no strategy clause. */
#include <math.h>

void masked_softmax(int T, int C, const float x[T][C], const unsigned char keep[T][C], float y[T][C])
{
#pragma fuse kernel(masked_softmax) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			if (keep[t][c])
				m = fmaxf(m, x[t][c]);
		float z = 0.0f;
		for (int c = 0; c < C; c++)
			if (keep[t][c])
				z += expf(x[t][c] - m);
		for (int c = 0; c < C; c++)
			y[t][c] = isfinite(m) && keep[t][c] ? expf(x[t][c] - m) / z : 0.0f;
	}
}

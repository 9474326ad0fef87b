/* cross_entropy.c: softmax cross-entropy per row, loss[r] = logsumexp(x[r]) - sum_c y[r][c] x[r][c],
 * with the target as a one-hot (or soft-label) weight row y (a class index would be a
 * data-dependent subscript). Cascade: max, sum of exp after the max, an independent dot.
 * splitk(c) splits the long vocabulary row into chunks merged with the repair term.
 * fp32; e.g. R = 1 ... 8192 tokens, C = 32000 ... 262144 classes. */
#include <math.h>

void cross_entropy(int R, int C, const float x[R][C], const float y[R][C], float loss[R])
{
#pragma fuse kernel(cross_entropy) parallel(r) splitk(c)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, x[r][c]);
		float l = 0.0f;
		for (int c = 0; c < C; c++)
			l += expf(x[r][c] - m);
		float t = 0.0f;
		for (int c = 0; c < C; c++)
			t += y[r][c] * x[r][c];
		loss[r] = m + logf(l) - t;
	}
}

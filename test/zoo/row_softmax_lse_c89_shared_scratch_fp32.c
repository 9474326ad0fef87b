/* row_softmax_lse_c89_shared_scratch_fp32.c: a softmax and a log-sum-exp of the same
 * logits, one region each.
 * Style: C89, the iterators and the row's scalars declared once at the top of the
 * function (int r, c; float m, s;) and reused by both regions as scratch; fp32.
 * rolling(c). */
#include <math.h>

void softmax_lse(int R, int C, const float x[R][C], float y[R][C], float lse[R])
{
	int r, c;
	float m, s;
#pragma fuse kernel(softmax) parallel(r) rolling(c)
	for (r = 0; r < R; r++) {
		m = -INFINITY;
		for (c = 0; c < C; c++)
			m = fmaxf(m, x[r][c]);
		s = 0.0f;
		for (c = 0; c < C; c++)
			s += expf(x[r][c] - m);
		for (c = 0; c < C; c++)
			y[r][c] = expf(x[r][c] - m) / s;
	}
#pragma fuse kernel(logsumexp) parallel(r) rolling(c)
	for (r = 0; r < R; r++) {
		m = -INFINITY;
		for (c = 0; c < C; c++)
			m = fmaxf(m, x[r][c]);
		s = 0.0f;
		for (c = 0; c < C; c++)
			s += expf(x[r][c] - m);
		lse[r] = m + logf(s);
	}
}

/* KL(p || q) where q's log-softmax is also an output: the row of logq is written by one
 * loop and read back by the KL loop (saving a recompute), p given as log-probs. */
#include <math.h>

void logq_and_kl(int R, int C, const float logp[R][C], const float xq[R][C], float logq[R][C], float kl[R])
{
#pragma fuse kernel(logq_and_kl) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, xq[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++)
			s += expf(xq[r][c] - m);
		const float lse = m + logf(s);
		for (int c = 0; c < C; c++)
			logq[r][c] = xq[r][c] - lse;
		float acc = 0.0f;
		for (int c = 0; c < C; c++)
			acc += expf(logp[r][c]) * (logp[r][c] - logq[r][c]);
		kl[r] = acc;
	}
}

/* A log-sum-exp over the vocabulary ported from a Triton kernel that loads BLOCK columns at
 * a time with mask=cols < V, other=-inf: each block's max with `if (x > bm)`, then m_new =
 * max(m, bm), d = d * exp(m - m_new) + sum(exp(x - m_new)); writes lse and the target's loss. */
#include <math.h>
#define BLOCK 1024
void lse_xent_blocks(int R, int V, const float logits[R][V], const int target[R], float lse[R], float loss[R])
{
#pragma fuse kernel(lse_xent_blocks) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY, d = 0.0f;
		for (int b0 = 0; b0 < V; b0 += BLOCK) {
			float x[BLOCK], bm = -INFINITY;
			for (int j = 0; j < BLOCK; j++) {
				x[j] = b0 + j < V ? logits[r][b0 + j] : -INFINITY;
				if (x[j] > bm) bm = x[j];
			}
			const float m_new = fmaxf(m, bm);
			float bs = 0.0f;
			for (int j = 0; j < BLOCK; j++) bs += expf(x[j] - m_new);
			d = d * expf(m - m_new) + bs;
			m = m_new;
		}
		lse[r] = m + logf(d);
		loss[r] = lse[r] - logits[r][target[r]];
	}
}

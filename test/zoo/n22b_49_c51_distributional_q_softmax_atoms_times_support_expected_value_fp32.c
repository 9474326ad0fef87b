/* C51 (distributional RL): per (state, action) a softmax over N_ATOMS logits, Q = sum p * z
 * with z the support array. Attention-free chain: softmax then a weighted sum of a value row. */
#include <math.h>

void c51_q(int B, int A, int NA, const float logits[B][A][NA], const float support[NA], float q[B][A])
{
#pragma fuse kernel(c51_q) parallel(b, a)
	for (int b = 0; b < B; b++)
		for (int a = 0; a < A; a++) {
			float m = -INFINITY;
			for (int k = 0; k < NA; k++)
				m = fmaxf(m, logits[b][a][k]);
			float z = 0.0f;
			for (int k = 0; k < NA; k++)
				z += expf(logits[b][a][k] - m);
			float qv = 0.0f;
			for (int k = 0; k < NA; k++)
				qv += expf(logits[b][a][k] - m) / z * support[k];
			q[b][a] = qv;
		}
}

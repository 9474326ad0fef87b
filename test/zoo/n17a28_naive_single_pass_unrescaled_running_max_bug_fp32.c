/* A buggy single-pass port seen in the wild: the running max is updated in the same loop as the
 * denominator but the sum is never rescaled (l += exp(s - m_running)). fusecc must compute what
 * C computes (not a "repaired" softmax), or refuse. Decode, D = 64, fp32. */
#include <math.h>

void naive_one_pass(int B, int L, const float q[B][64], const float k[B][L][64], float lse[B])
{
#pragma fuse kernel(naive_one_pass) parallel(b) rolling(j)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY, l = 0.0f;
		for (int j = 0; j < L; j++) {
			float s = 0.0f;
			for (int d = 0; d < 64; d++) s += q[b][d] * k[b][j][d];
			m = fmaxf(m, s);
			l += expf(s - m);
		}
		lse[b] = m + logf(l);
	}
}

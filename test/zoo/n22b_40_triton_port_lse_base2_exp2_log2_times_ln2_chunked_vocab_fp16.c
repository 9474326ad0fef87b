/* A Triton cross-entropy kernel ported to C by hand: the vocab walked in BLOCK chunks (online,
 * base 2: x * log2e, exp2f, rescale per chunk), lse = (m + log2(l)) * ln2, loss = lse - x[target]. */
#include <math.h>
#include <stdint.h>

#define BLOCK 1024
#define LOG2E 1.4426950408889634f
#define LN2 0.6931471805599453f

void ce_fwd_triton(int T, int V, const _Float16 logits[T][V], const int32_t target[T], float loss[T],
		   float lse_out[T])
{
#pragma fuse kernel(ce_fwd_triton) parallel(t)
	for (int t = 0; t < T; t++) {
		float m_i = -INFINITY, l_i = 0.0f;
		for (int c0 = 0; c0 < V; c0 += BLOCK) {
			const int c1 = c0 + BLOCK < V ? c0 + BLOCK : V;
			float m_ij = m_i;
			for (int c = c0; c < c1; c++)
				m_ij = fmaxf(m_ij, (float)logits[t][c] * LOG2E);
			float l_ij = 0.0f;
			for (int c = c0; c < c1; c++)
				l_ij += exp2f((float)logits[t][c] * LOG2E - m_ij);
			l_i = l_i * exp2f(m_i - m_ij) + l_ij;
			m_i = m_ij;
		}
		const float lse = (m_i + log2f(l_i)) * LN2;
		lse_out[t] = lse;
		loss[t] = lse - (float)logits[t][target[t]];
	}
}

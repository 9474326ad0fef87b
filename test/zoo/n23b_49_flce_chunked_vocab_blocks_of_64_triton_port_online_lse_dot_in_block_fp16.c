/* Fused linear cross-entropy ported from a Triton kernel: the vocab walked in blocks of
 * BLOCK_V, each block's logits computed into a block array, its max and sum folded into
 * the running (m_i, l_i) once per block; the target logit picked when its block passes.
 * fp16 hidden and weight ([V][K], nn.Linear's), K = 128. */
#include <math.h>
#include <stdint.h>

#define BLOCK_V 64
#define K 128

void flce_blocked(int T, int V, const _Float16 h[T][K], const _Float16 w[V][K], const int32_t y[T], float loss[T])
{
#pragma fuse kernel(flce_blocked) parallel(t)
	for (int t = 0; t < T; t++) {
		float m_i = -INFINITY, l_i = 0.0f, xt = 0.0f;
		for (int v0 = 0; v0 < V; v0 += BLOCK_V) {
			float z[BLOCK_V];
			float m_ij = m_i;
			for (int n = 0; n < BLOCK_V; n++) {
				float acc = -INFINITY;
				if (v0 + n < V) {
					acc = 0.0f;
					for (int k = 0; k < K; k++)
						acc += (float)h[t][k] * (float)w[v0 + n][k];
					if (v0 + n == y[t])
						xt = acc;
				}
				z[n] = acc;
				m_ij = fmaxf(m_ij, acc);
			}
			float l_ij = 0.0f;
			for (int n = 0; n < BLOCK_V; n++)
				l_ij += expf(z[n] - m_ij);
			l_i = l_i * expf(m_i - m_ij) + l_ij;
			m_i = m_ij;
		}
		loss[t] = m_i + logf(l_i) - xt;
	}
}

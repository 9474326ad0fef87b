/* The Triton tutorial's _attn_fwd (non-causal stage) ported to C by someone keeping its
 * block structure line for line: qk_scale = sm_scale * 1.44269504, m_ij = max(m_i,
 * rowmax(qk) * qk_scale), p = exp2(qk * qk_scale - m_ij), l_ij = rowsum(p), alpha =
 * exp2(m_i - m_ij), acc = acc * alpha + p @ v (the dot in a local), BLOCK_N a #define,
 * tl.where(offs_n < N_CTX, qk, -inf) for the last block as a ternary. */
#include <math.h>
#define BLOCK_N 64
#define HEAD_DIM 64
void attn_fwd(int Z, int H, int N_CTX, float sm_scale, const _Float16 *Q, const _Float16 *K, const _Float16 *V, _Float16 *Out)
{
	const float qk_scale = sm_scale * 1.44269504f;
#pragma fuse kernel(attn_fwd) parallel(z, h, m)
	for (int z = 0; z < Z; z++)
		for (int h = 0; h < H; h++)
			for (int m = 0; m < N_CTX; m++) {
				const _Float16 *q = Q + (((long)z * H + h) * N_CTX + m) * HEAD_DIM;
				const _Float16 *k = K + ((long)z * H + h) * N_CTX * HEAD_DIM;
				const _Float16 *v = V + ((long)z * H + h) * N_CTX * HEAD_DIM;
				float m_i = -INFINITY, l_i = 1.0f, acc[HEAD_DIM];
				for (int d = 0; d < HEAD_DIM; d++) acc[d] = 0.0f;
				for (int start_n = 0; start_n < N_CTX; start_n += BLOCK_N) {
					float qk[BLOCK_N];
					float rowmax = -INFINITY;
					for (int n = 0; n < BLOCK_N; n++) {
						float dot = 0.0f;
						if (start_n + n < N_CTX)
							for (int d = 0; d < HEAD_DIM; d++) dot += (float)q[d] * (float)k[(long)(start_n + n) * HEAD_DIM + d];
						qk[n] = start_n + n < N_CTX ? dot : -INFINITY;
						rowmax = fmaxf(rowmax, qk[n]);
					}
					const float m_ij = fmaxf(m_i, rowmax * qk_scale);
					float p[BLOCK_N], l_ij = 0.0f;
					for (int n = 0; n < BLOCK_N; n++) {
						p[n] = exp2f(qk[n] * qk_scale - m_ij);
						l_ij += p[n];
					}
					const float alpha = exp2f(m_i - m_ij);
					l_i = l_i * alpha + l_ij;
					for (int d = 0; d < HEAD_DIM; d++) {
						float pv = 0.0f;
						for (int n = 0; n < BLOCK_N; n++)
							if (start_n + n < N_CTX) pv += p[n] * (float)v[(long)(start_n + n) * HEAD_DIM + d];
						acc[d] = acc[d] * alpha + pv;
					}
					m_i = m_ij;
				}
				_Float16 *o = Out + (((long)z * H + h) * N_CTX + m) * HEAD_DIM;
				for (int d = 0; d < HEAD_DIM; d++) o[d] = (_Float16)(acc[d] / l_i);
			}
}

/* The Triton tutorial's causal forward (STAGE 3) ported to C with its two calls of
 * _attn_fwd_inner kept as two key-block loops: first the blocks wholly below the diagonal
 * of this query block (no mask), then the diagonal block with tl.where(offs_m >= offs_n, qk,
 * -1.0e6) as a ternary. exp2 with qk_scale = sm_scale * 1.44269504; m_i seeded -inf, l_i 1. */
#include <math.h>
#define BLOCK_M 64
#define BLOCK_N 64
void attn_fwd_causal(int Z, int H, int N_CTX, float sm_scale, const _Float16 Q[Z][H][N_CTX][64], const _Float16 K[Z][H][N_CTX][64],
		     const _Float16 V[Z][H][N_CTX][64], _Float16 Out[Z][H][N_CTX][64])
{
	const float qk_scale = sm_scale * 1.44269504f;
#pragma fuse kernel(attn_fwd_causal) parallel(z, h, m)
	for (int z = 0; z < Z; z++)
		for (int h = 0; h < H; h++)
			for (int m = 0; m < N_CTX; m++) {
				const int lo = m / BLOCK_M * BLOCK_M;
				const int hi = lo + BLOCK_M < N_CTX ? lo + BLOCK_M : N_CTX;
				float m_i = -INFINITY, l_i = 1.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				/* stage 1: off-band */
				for (int start_n = 0; start_n < lo; start_n += BLOCK_N) {
					float qk[BLOCK_N], m_ij = m_i;
					for (int n = 0; n < BLOCK_N; n++) {
						float s = 0.0f;
						for (int d = 0; d < 64; d++) s += (float)Q[z][h][m][d] * (float)K[z][h][start_n + n][d];
						qk[n] = s * qk_scale;
						m_ij = fmaxf(m_ij, qk[n]);
					}
					float l_ij = 0.0f;
					for (int n = 0; n < BLOCK_N; n++) { qk[n] = exp2f(qk[n] - m_ij); l_ij += qk[n]; }
					const float alpha = exp2f(m_i - m_ij);
					l_i = l_i * alpha + l_ij;
					for (int d = 0; d < 64; d++) {
						acc[d] *= alpha;
						for (int n = 0; n < BLOCK_N; n++) acc[d] += qk[n] * (float)V[z][h][start_n + n][d];
					}
					m_i = m_ij;
				}
				/* stage 2: the diagonal block */
				for (int start_n = lo; start_n < hi; start_n += BLOCK_N) {
					float qk[BLOCK_N], m_ij = m_i;
					for (int n = 0; n < BLOCK_N; n++) {
						float s = -1.0e6f;
						if (start_n + n <= m) {
							s = 0.0f;
							for (int d = 0; d < 64; d++) s += (float)Q[z][h][m][d] * (float)K[z][h][start_n + n][d];
							s *= qk_scale;
						}
						qk[n] = s;
						m_ij = fmaxf(m_ij, qk[n]);
					}
					float l_ij = 0.0f;
					for (int n = 0; n < BLOCK_N; n++) { qk[n] = exp2f(qk[n] - m_ij); l_ij += qk[n]; }
					const float alpha = exp2f(m_i - m_ij);
					l_i = l_i * alpha + l_ij;
					for (int d = 0; d < 64; d++) {
						acc[d] *= alpha;
						for (int n = 0; n < BLOCK_N; n++)
							if (start_n + n <= m) acc[d] += qk[n] * (float)V[z][h][start_n + n][d];
					}
					m_i = m_ij;
				}
				for (int d = 0; d < 64; d++) Out[z][h][m][d] = (_Float16)(acc[d] / l_i);
			}
}

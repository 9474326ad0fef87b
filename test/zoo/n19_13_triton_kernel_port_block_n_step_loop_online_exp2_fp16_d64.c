/* A Triton _attn_fwd kernel ported to C by hand, keeping its BLOCK_N key blocks: for start_n in range(0, hi, BLOCK_N),
 * qk_scale = sm_scale * 1.44269504, m_ij = max(m_i, rowmax(qk)), p = exp2(qk - m_ij), alpha = exp2(m_i - m_ij). */
#include <math.h>
#define BLOCK_N 32
void attn_fwd(int Z, int H, int N_CTX, float sm_scale, const _Float16 Q[Z][H][N_CTX][64], const _Float16 K[Z][H][N_CTX][64],
	      const _Float16 V[Z][H][N_CTX][64], _Float16 Out[Z][H][N_CTX][64])
{
	const float qk_scale = sm_scale * 1.44269504f;
#pragma fuse kernel(attn_fwd) parallel(z, h, m)
	for (int z = 0; z < Z; z++)
		for (int h = 0; h < H; h++)
			for (int m = 0; m < N_CTX; m++) {
				float m_i = -INFINITY, l_i = 1.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int start_n = 0; start_n < N_CTX; start_n += BLOCK_N) {
					float qk[BLOCK_N];
					float m_ij = m_i;
					for (int n = 0; n < BLOCK_N; n++) {
						float s = -INFINITY;
						if (start_n + n < N_CTX) {
							s = 0.0f;
							for (int d = 0; d < 64; d++) s += (float)Q[z][h][m][d] * (float)K[z][h][start_n + n][d];
							s *= qk_scale;
						}
						qk[n] = s;
						m_ij = fmaxf(m_ij, s);
					}
					float l_ij = 0.0f;
					for (int n = 0; n < BLOCK_N; n++) { qk[n] = exp2f(qk[n] - m_ij); l_ij += qk[n]; }
					const float alpha = exp2f(m_i - m_ij);
					l_i = l_i * alpha + l_ij;
					for (int d = 0; d < 64; d++) {
						float a = acc[d] * alpha;
						for (int n = 0; n < BLOCK_N; n++) if (start_n + n < N_CTX) a += qk[n] * (float)V[z][h][start_n + n][d];
						acc[d] = a;
					}
					m_i = m_ij;
				}
				for (int d = 0; d < 64; d++) Out[z][h][m][d] = (_Float16)(acc[d] / l_i);
			}
}

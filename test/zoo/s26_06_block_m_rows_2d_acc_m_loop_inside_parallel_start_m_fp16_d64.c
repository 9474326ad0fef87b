/* A Triton kernel ported with its query block too: parallel over (z, h, start_m), the
 * BLOCK_M rows of the block kept as arrays m_i[BLOCK_M], l_i[BLOCK_M], acc[BLOCK_M][64] and a
 * loop over the block's rows inside each key block, as tl's [BLOCK_M, BLOCK_N] tiles are. */
#include <math.h>
#define BLOCK_M 16
#define BLOCK_N 32
void attn_fwd_mblock(int Z, int H, int N_CTX, float sm_scale, const _Float16 Q[Z][H][N_CTX][64], const _Float16 K[Z][H][N_CTX][64],
		     const _Float16 V[Z][H][N_CTX][64], _Float16 Out[Z][H][N_CTX][64])
{
	const float qk_scale = sm_scale * 1.44269504f;
#pragma fuse kernel(attn_fwd_mblock) parallel(z, h, start_m)
	for (int z = 0; z < Z; z++)
		for (int h = 0; h < H; h++)
			for (int start_m = 0; start_m < N_CTX; start_m += BLOCK_M) {
				float m_i[BLOCK_M], l_i[BLOCK_M], acc[BLOCK_M][64];
				for (int r = 0; r < BLOCK_M; r++) {
					m_i[r] = -INFINITY;
					l_i[r] = 1.0f;
					for (int d = 0; d < 64; d++) acc[r][d] = 0.0f;
				}
				for (int start_n = 0; start_n < N_CTX; start_n += BLOCK_N) {
					for (int r = 0; r < BLOCK_M; r++) {
						if (start_m + r >= N_CTX) continue;
						float qk[BLOCK_N], m_ij = m_i[r];
						for (int n = 0; n < BLOCK_N; n++) {
							float s = -INFINITY;
							if (start_n + n < N_CTX) {
								s = 0.0f;
								for (int d = 0; d < 64; d++) s += (float)Q[z][h][start_m + r][d] * (float)K[z][h][start_n + n][d];
								s *= qk_scale;
							}
							qk[n] = s;
							m_ij = fmaxf(m_ij, s);
						}
						float l_ij = 0.0f;
						for (int n = 0; n < BLOCK_N; n++) { qk[n] = exp2f(qk[n] - m_ij); l_ij += qk[n]; }
						const float alpha = exp2f(m_i[r] - m_ij);
						l_i[r] = l_i[r] * alpha + l_ij;
						for (int d = 0; d < 64; d++) {
							acc[r][d] *= alpha;
							for (int n = 0; n < BLOCK_N; n++)
								if (start_n + n < N_CTX) acc[r][d] += qk[n] * (float)V[z][h][start_n + n][d];
						}
						m_i[r] = m_ij;
					}
				}
				for (int r = 0; r < BLOCK_M; r++)
					if (start_m + r < N_CTX)
						for (int d = 0; d < 64; d++) Out[z][h][start_m + r][d] = (_Float16)(acc[r][d] / l_i[r]);
			}
}

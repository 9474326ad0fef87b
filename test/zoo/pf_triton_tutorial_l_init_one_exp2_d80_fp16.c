/* pf_triton_tutorial_l_init_one_exp2_d80_fp16: the Triton fused-attention tutorial's inner
 * loop ported to C: m_i / l_i / acc names, l_i = 1.0 as the tutorial starts it (rescaled away
 * by the first key: exp2(-inf) = 0), qk_scale = sm_scale * log2(e) folded, exp2f everywhere,
 * alpha rescale. Head dim 80 (phi-2 / StableLM), bidirectional, only a tile(...) clause. */
#include <math.h>
#define HEAD_DIM 80

void attn_fwd(int Z, int H, int N_CTX, float sm_scale,
	      const _Float16 Q[Z][H][N_CTX][HEAD_DIM], const _Float16 K[Z][H][N_CTX][HEAD_DIM],
	      const _Float16 V[Z][H][N_CTX][HEAD_DIM], _Float16 Out[Z][H][N_CTX][HEAD_DIM])
{
	const float qk_scale = sm_scale * 1.44269504f;
#pragma fuse kernel(attn_fwd) parallel(z, h, m) tile(m:128, n:64)
	for (int z = 0; z < Z; z++)
		for (int h = 0; h < H; h++)
			for (int m = 0; m < N_CTX; m++) {
				float m_i = -INFINITY, l_i = 1.0f;
				float acc[HEAD_DIM];
				for (int d = 0; d < HEAD_DIM; d++) acc[d] = 0.0f;
				for (int n = 0; n < N_CTX; n++) {
					float qk = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						qk += (float)Q[z][h][m][d] * (float)K[z][h][n][d];
					float m_ij = fmaxf(m_i, qk * qk_scale);
					float p = exp2f(qk * qk_scale - m_ij);
					float alpha = exp2f(m_i - m_ij);
					l_i = l_i * alpha + p;
					for (int d = 0; d < HEAD_DIM; d++)
						acc[d] = acc[d] * alpha + p * (float)V[z][h][n][d];
					m_i = m_ij;
				}
				for (int d = 0; d < HEAD_DIM; d++)
					Out[z][h][m][d] = (_Float16)(acc[d] / l_i);
			}
}

/* FlashAttention-2 forward reference as a Triton author writes it for testing: exp2 with the
 * scale folded with log2(e), the row's LSE saved (natural log) for the backward; causal;
 * D=128; explicit tile clause. */
#include <math.h>

void fa2_fwd(int B, int H, int N, float sm_scale, const _Float16 q[B][H][N][128],
	     const _Float16 k[B][H][N][128], const _Float16 v[B][H][N][128], _Float16 o[B][H][N][128],
	     float lse[B][H][N])
{
	const float qk_scale = sm_scale * 1.4426950408889634f;
#pragma fuse kernel(fa2_fwd) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m_i = -INFINITY, l_i = 0.0f, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float qk = 0.0f;
					for (int d = 0; d < 128; d++) qk += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					qk = qk * qk_scale;
					const float m_ij = fmaxf(m_i, qk);
					const float alpha = exp2f(m_i - m_ij);
					const float p = exp2f(qk - m_ij);
					l_i = l_i * alpha + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * alpha + p * (float)v[b][h][j][d];
					m_i = m_ij;
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = (_Float16)(acc[d] / l_i);
				lse[b][h][i] = (m_i + log2f(l_i)) * 0.6931471805599453f;
			}
}

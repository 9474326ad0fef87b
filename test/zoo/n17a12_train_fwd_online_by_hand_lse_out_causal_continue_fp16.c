/* Training forward (no dropout) as a FlashAttention test reference: an online softmax written by
 * hand (m_new, alpha, rescale), causal `if (j > i) continue;`, returns O and the LSE. D = 64. */
#include <math.h>

void fa_fwd_ref(int B, int H, int N, float softmax_scale, const _Float16 q[B][H][N][64],
		const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64],
		float lse[B][H][N])
{
#pragma fuse kernel(fa_fwd_ref) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					if (j > i) continue;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= softmax_scale;
					float m_new = fmaxf(m, s);
					float alpha = expf(m - m_new);
					float p = expf(s - m_new);
					l = l * alpha + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * alpha + p * (float)v[b][h][j][d];
					m = m_new;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
				lse[b][h][i] = m + logf(l);
			}
}

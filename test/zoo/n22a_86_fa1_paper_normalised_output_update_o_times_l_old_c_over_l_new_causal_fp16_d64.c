/* FlashAttention-1 paper, Algorithm 1, transcribed per query row: the output is kept normalised at
 * every step, O <- (l_old * e^{m_old - m_new} * O + e^{s - m_new} * v) / l_new; causal, fp16. */
#include <math.h>

void fa1_paper(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
	       const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(fa1_paper) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, O[64];
				for (int d = 0; d < 64; d++) O[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= 0.125f;
					const float m_new = fmaxf(m, s);
					const float l_new = expf(m - m_new) * l + expf(s - m_new);
					for (int d = 0; d < 64; d++)
						O[d] = (l * expf(m - m_new) * O[d] + expf(s - m_new) * (float)v[b][h][j][d]) / l_new;
					m = m_new;
					l = l_new;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)O[d];
			}
}

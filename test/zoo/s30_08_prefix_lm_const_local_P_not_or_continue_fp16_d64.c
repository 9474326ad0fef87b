/* Prefix-LM attention (UniLM / PaliGemma style) with the prefix length per batch read into a
 * const local, and the mask written as the negation of the visible set in a continue:
 * keys in the prefix are seen by every query, the rest causally. fp16, d = 64. */
#include <math.h>
#include <stdint.h>

void prefix_lm_attn(int B, int H, int N, const int32_t prefix_len[B], const _Float16 q[B][H][N][64],
		    const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
	const float sm_scale = 0.125f;
#pragma fuse kernel(prefix_lm) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int P = prefix_len[b];
				float m_i = -INFINITY, l_i = 0.0f, acc[64];
				for (int d = 0; d < 64; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					if (!(j < P || j <= i))
						continue;
					float qk = 0.0f;
					for (int d = 0; d < 64; d++)
						qk += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					qk *= sm_scale;
					float m_ij = fmaxf(m_i, qk);
					float alpha = expf(m_i - m_ij);
					float p = expf(qk - m_ij);
					l_i = l_i * alpha + p;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * alpha + p * (float)v[b][h][j][d];
					m_i = m_ij;
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l_i);
			}
}

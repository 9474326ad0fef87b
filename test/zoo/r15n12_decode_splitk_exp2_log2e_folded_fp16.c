/* FlashDecoding-style reference written by a Triton user: scale * log2(e) folded into qk_scale,
 * exp2f everywhere, a split-k clause; position per sequence (attend to keys 0..pos[b]). */
#include <math.h>
#include <stdint.h>

void flash_decode(int B, int H, int L, float sm_scale, const int32_t pos[B],
		  const _Float16 q[B][H][64], const _Float16 k[B][H][L][64], const _Float16 v[B][H][L][64],
		  _Float16 o[B][H][64])
{
	const float qk_scale = sm_scale * 1.44269504f;
#pragma fuse kernel(flash_decode) parallel(b, h) splitk(n)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m_i = -INFINITY;
			float l_i = 0.0f;
			float acc[64];
			for (int d = 0; d < 64; d++) acc[d] = 0.0f;
			for (int n = 0; n <= pos[b]; n++) {
				float qk = 0.0f;
				for (int d = 0; d < 64; d++) qk += (float)q[b][h][d] * (float)k[b][h][n][d];
				qk *= qk_scale;
				const float m_ij = fmaxf(m_i, qk);
				const float alpha = exp2f(m_i - m_ij);
				const float p = exp2f(qk - m_ij);
				l_i = l_i * alpha + p;
				for (int d = 0; d < 64; d++) acc[d] = acc[d] * alpha + p * (float)v[b][h][n][d];
				m_i = m_ij;
			}
			for (int d = 0; d < 64; d++) o[b][h][d] = (_Float16)(acc[d] / l_i);
		}
}

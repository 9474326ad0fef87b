/* Scaled cosine attention (Swin-v2, "Query-Key Normalization for Transformers") in a mixed-precision
 * C port: fp16 activations, the dot and both norms in fp32; the key's norm is computed in the key loop
 * and the score divided by it after the dot; tau a per-head learned temperature clamped at 100.
 * Non-causal (an image window), D = 64. */
#include <math.h>

void cos_attn(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
	      const _Float16 v[B][H][N][64], const float logit_scale[H], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(cos_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const float tau = expf(fminf(logit_scale[h], 4.605170185988091f));
				float qq = 0.0f;
				for (int d = 0; d < 64; d++)
					qq += (float)q[b][h][i][d] * (float)q[b][h][i][d];
				const float q_inv = 1.0f / fmaxf(sqrtf(qq), 1e-12f);
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float kk = 0.0f;
					for (int d = 0; d < 64; d++)
						kk += (float)k[b][h][j][d] * (float)k[b][h][j][d];
					const float k_norm = fmaxf(sqrtf(kk), 1e-12f);
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s = s * q_inv * tau / k_norm;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}

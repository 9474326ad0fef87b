/* Training-time attention reference with a pre-drawn dropout mask (uint8 [B][H][N][N], 1 = keep)
 * applied to the normalised probabilities and rescaled by 1/(1-p), as in FlashAttention's tests. */
#include <math.h>
#include <stdint.h>

void attn_dropout(int B, int H, int N, float p_drop, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		  const _Float16 v[B][H][N][64], const uint8_t keep[B][H][N][N], _Float16 o[B][H][N][64])
{
	const float rescale = 1.0f / (1.0f - p_drop);
#pragma fuse kernel(attn_dropout) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = t * 0.125f;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += (keep[b][h][i][j] ? s[j] / l * rescale : 0.0f) * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)a;
				}
			}
}

/* nn.MultiheadAttention cross attention: Nq decoder queries over Nk encoder keys,
 * key_padding_mask bool [B][Nk] with True = padding (PyTorch's convention), fp16, D=64. */
#include <math.h>
#include <stdbool.h>

void mha_cross(int B, int H, int NQ, int NK, const bool key_padding_mask[B][NK],
	       const _Float16 q[B][H][NQ][64], const _Float16 k[B][H][NK][64], const _Float16 v[B][H][NK][64],
	       _Float16 o[B][H][NQ][64])
{
#pragma fuse kernel(mha_cross) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < NQ; i++) {
				float att[NK];
				float m = -INFINITY;
				for (int j = 0; j < NK; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					att[j] = key_padding_mask[b][j] ? -INFINITY : s * 0.125f;
					m = fmaxf(m, att[j]);
				}
				float z = 0.0f;
				for (int j = 0; j < NK; j++) { att[j] = expf(att[j] - m); z += att[j]; }
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < NK; j++) a += att[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(a / z);
				}
			}
}

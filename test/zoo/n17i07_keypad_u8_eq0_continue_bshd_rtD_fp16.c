/* HF encoder with attention_mask (uint8, 1 = keep) skipping padded keys with
 * `if (attention_mask[b][j] == 0) continue;`, BSHD layout, run-time head_dim. fp16. */
#include <math.h>
#include <stdint.h>

void enc_attn_keypad(int B, int S, int H, int head_dim, const uint8_t attention_mask[B][S], const _Float16 q[B][S][H][head_dim],
		     const _Float16 k[B][S][H][head_dim], const _Float16 v[B][S][H][head_dim], _Float16 o[B][S][H][head_dim])
{
	const float scaling = powf((float)head_dim, -0.5f);
#pragma fuse kernel(enc_attn_keypad) parallel(b, i, h) rolling(j)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < S; i++)
			for (int h = 0; h < H; h++) {
				float m = -INFINITY, l = 0.0f;
				for (int j = 0; j < S; j++) {
					if (attention_mask[b][j] == 0) continue;
					float s = 0.0f;
					for (int d = 0; d < head_dim; d++) s += (float)q[b][i][h][d] * (float)k[b][j][h][d];
					m = fmaxf(m, s * scaling);
				}
				for (int j = 0; j < S; j++) {
					if (attention_mask[b][j] == 0) continue;
					float s = 0.0f;
					for (int d = 0; d < head_dim; d++) s += (float)q[b][i][h][d] * (float)k[b][j][h][d];
					l += expf(s * scaling - m);
				}
				for (int d = 0; d < head_dim; d++) {
					float a = 0.0f;
					for (int j = 0; j < S; j++) {
						if (attention_mask[b][j] == 0) continue;
						float s = 0.0f;
						for (int e = 0; e < head_dim; e++) s += (float)q[b][i][h][e] * (float)k[b][j][h][e];
						a += expf(s * scaling - m) * (float)v[b][j][h][d];
					}
					o[b][i][h][d] = (_Float16)(a / l);
				}
			}
}

/* BART decoder cross-attention: decoder queries (NQ) attend to encoder states (NK), the encoder
 * attention_mask (uint8, 1 = real token) turned into an additive -inf, scale applied to q first as
 * BartAttention does (q_proj(x) * scaling). */
#include <math.h>
#include <stdint.h>

void bart_cross(int B, int H, int NQ, int NK, const _Float16 q[B][H][NQ][64], const _Float16 k[B][H][NK][64],
		const _Float16 v[B][H][NK][64], const uint8_t enc_mask[B][NK], _Float16 o[B][H][NQ][64])
{
	const float scaling = 0.125f;
#pragma fuse kernel(bart_cross) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < NQ; i++) {
				float qs[64];
				for (int d = 0; d < 64; d++) qs[d] = (float)q[b][h][i][d] * scaling;
				float w[NK], mx = -INFINITY;
				for (int j = 0; j < NK; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += qs[d] * (float)k[b][h][j][d];
					if (enc_mask[b][j] == 0) s = -INFINITY;
					w[j] = s;
					mx = fmaxf(mx, s);
				}
				float sum = 0.0f;
				for (int j = 0; j < NK; j++) {
					w[j] = expf(w[j] - mx);
					sum += w[j];
				}
				for (int j = 0; j < NK; j++) w[j] /= sum;
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < NK; j++) a += w[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)a;
				}
			}
}

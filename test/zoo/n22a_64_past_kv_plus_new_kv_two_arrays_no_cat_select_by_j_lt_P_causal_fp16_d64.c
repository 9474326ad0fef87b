/* HF-style layer_past without torch.cat: keys 0..P-1 come from past_k, keys P..P+NQ-1 from k_new
 * (the new tokens), selected by j < P; queries are the NQ new tokens at positions P + i, causal. */
#include <math.h>

void attn_past_new(int B, int H, int P, int NQ, const _Float16 q[B][H][NQ][64], const _Float16 past_k[B][H][P][64],
		   const _Float16 past_v[B][H][P][64], const _Float16 k_new[B][H][NQ][64], const _Float16 v_new[B][H][NQ][64],
		   _Float16 o[B][H][NQ][64])
{
#pragma fuse kernel(attn_past_new) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < NQ; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j <= P + i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)(j < P ? past_k[b][h][j][d] : k_new[b][h][j - P][d]);
					s *= 0.125f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * c + p * (float)(j < P ? past_v[b][h][j][d] : v_new[b][h][j - P][d]);
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}

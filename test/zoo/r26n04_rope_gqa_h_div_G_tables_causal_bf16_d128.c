/* Mistral / Llama-3 GQA prefill with RoPE applied in the score loop: H query heads, H / G KV heads
 * read as k[b][h / G], NeoX half-split rotary from cos/sin tables [N][64] (a port of HF's
 * apply_rotary_pos_emb + repeat_kv that never materialises the rotated or repeated keys). Causal,
 * bf16 storage, fp32 math, D = 128. */
#include <math.h>
#include "fusecc.h"

void gqa_rope_attn(int B, int H, int G, int N, const fusecc_bf16 q[B][H][N][128], const fusecc_bf16 k[B][H / G][N][128],
		   const fusecc_bf16 v[B][H / G][N][128], const float cos_t[N][64], const float sin_t[N][64],
		   fusecc_bf16 o[B][H][N][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(gqa_rope_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) {
						float x1 = fusecc_bf16_to_float(q[b][h][i][d]), x2 = fusecc_bf16_to_float(q[b][h][i][d + 64]);
						float y1 = fusecc_bf16_to_float(k[b][h / G][j][d]), y2 = fusecc_bf16_to_float(k[b][h / G][j][d + 64]);
						s += (x1 * cos_t[i][d] - x2 * sin_t[i][d]) * (y1 * cos_t[j][d] - y2 * sin_t[j][d]) +
						     (x2 * cos_t[i][d] + x1 * sin_t[i][d]) * (y2 * cos_t[j][d] + y1 * sin_t[j][d]);
					}
					s *= scale;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++)
						acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][h / G][j][d]);
					m = mn;
				}
				for (int d = 0; d < 128; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}

/* gpt-oss attention: a learned per-head sink logit joins the softmax (max seeded with it, its
 * exponential in the denominator, no value), sliding window 128 on alternate layers, GQA h / G, D=64. */
#include <math.h>
#include "fusecc.h"

void gptoss_attn(int B, int H, int G, int N, const fusecc_bf16 q[B][N][H][64], const fusecc_bf16 k[B][N][H / G][64],
		 const fusecc_bf16 v[B][N][H / G][64], const float sinks[H], fusecc_bf16 o[B][N][H][64])
{
	const float sm_scale = 0.125f;
#pragma fuse kernel(gptoss_attn) parallel(b, i, h) rolling(j)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				float m = sinks[h];
				for (int j = 0; j <= i; j++) {
					if (j + 128 <= i) continue;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += fusecc_bf16_to_float(q[b][i][h][d]) * fusecc_bf16_to_float(k[b][j][h / G][d]);
					m = fmaxf(m, s * sm_scale);
				}
				float l = expf(sinks[h] - m);
				float acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					if (j + 128 <= i) continue;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += fusecc_bf16_to_float(q[b][i][h][d]) * fusecc_bf16_to_float(k[b][j][h / G][d]);
					float p = expf(s * sm_scale - m);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * fusecc_bf16_to_float(v[b][j][h / G][d]);
				}
				for (int d = 0; d < 64; d++) o[b][i][h][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}

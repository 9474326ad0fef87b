/* Perceiver / Q-Former style cross-attention: a fixed set of NL learned latent queries per
 * head (the same for every batch element, so q has no batch index) attends to the M input
 * tokens of each batch element. bf16 storage, D = 64, no mask. */
#include <math.h>
#include "fusecc.h"

void latent_cross_attn(int B, int H, int NL, int M, const fusecc_bf16 latents_q[H][NL][64],
		       const fusecc_bf16 k[B][H][M][64], const fusecc_bf16 v[B][H][M][64], fusecc_bf16 out[B][H][NL][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(latent_cross_attn) parallel(b, h, n) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int n = 0; n < NL; n++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j < M; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += fusecc_bf16_to_float(latents_q[h][n][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s *= scale;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][h][j][d]);
					m = mn;
				}
				for (int d = 0; d < 64; d++)
					out[b][h][n][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}

/* Prefix caching as one loop over the P cached and T new keys, the source picked with the
 * condition written the other way round (`j >= P ? new : cache`), as someone thinking of
 * the new keys first writes it. bf16, D = 64, causal among the new keys. */
#include <math.h>
#include "fusecc.h"

void prefix_rev(int B, int H, int P, int T, const fusecc_bf16 q[B][H][T][64], const fusecc_bf16 kc[B][H][P][64],
		const fusecc_bf16 vc[B][H][P][64], const fusecc_bf16 k[B][H][T][64], const fusecc_bf16 v[B][H][T][64],
		fusecc_bf16 o[B][H][T][64])
{
#pragma fuse kernel(prefix_rev) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < T; i++) {
				float m = -INFINITY;
				for (int j = 0; j <= P + i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) *
						     fusecc_bf16_to_float(j >= P ? k[b][h][j - P][d] : kc[b][h][j][d]);
					m = fmaxf(m, 0.125f * s);
				}
				float l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= P + i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) *
						     fusecc_bf16_to_float(j >= P ? k[b][h][j - P][d] : kc[b][h][j][d]);
					float p = expf(0.125f * s - m);
					l += p;
					for (int d = 0; d < 64; d++)
						acc[d] += p * fusecc_bf16_to_float(j >= P ? v[b][h][j - P][d] : vc[b][h][j][d]);
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}

/* DiT's adaLN-Zero modulate(norm1(x), shift, scale): LayerNorm without affine (eps 1e-6), then
 * x * (1 + scale[b]) + shift[b] per sample and channel; bf16 tokens x[B][T][C]. */
#include <math.h>
#include "fusecc.h"

void adaln_modulate(int B, int T, int C, const fusecc_bf16 x[B][T][C], const float shift[B][C],
		    const float scale[B][C], fusecc_bf16 y[B][T][C])
{
#pragma fuse kernel(adaln_modulate) parallel(b, t)
	for (int b = 0; b < B; b++)
		for (int t = 0; t < T; t++) {
			float mu = 0.0f;
			for (int c = 0; c < C; c++)
				mu += fusecc_bf16_to_float(x[b][t][c]);
			mu /= C;
			float var = 0.0f;
			for (int c = 0; c < C; c++) {
				float d = fusecc_bf16_to_float(x[b][t][c]) - mu;
				var += d * d;
			}
			var /= C;
			const float rs = 1.0f / sqrtf(var + 1e-6f);
			for (int c = 0; c < C; c++) {
				float h = (fusecc_bf16_to_float(x[b][t][c]) - mu) * rs;
				y[b][t][c] = fusecc_float_to_bf16(h * (1.0f + scale[b][c]) + shift[b][c]);
			}
		}
}

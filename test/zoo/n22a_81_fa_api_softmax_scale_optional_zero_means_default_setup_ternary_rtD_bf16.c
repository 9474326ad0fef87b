/* flash_attn_func(softmax_scale=None) ported to C: the caller passes 0 for "default", the set-up
 * picks 1/sqrt(D) then; run-time head dim, causal flag as an int parameter. */
#include <math.h>
#include "fusecc.h"

void fa_api(int B, int H, int N, int D, int causal, float softmax_scale, const fusecc_bf16 q[B][N][H][D],
	    const fusecc_bf16 k[B][N][H][D], const fusecc_bf16 v[B][N][H][D], fusecc_bf16 o[B][N][H][D])
{
	const float scale = softmax_scale > 0.0f ? softmax_scale : 1.0f / sqrtf((float)D);
#pragma fuse kernel(fa_api) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				float m = -INFINITY, l = 0.0f, acc[D];
				for (int d = 0; d < D; d++) acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					if (causal && j > i)
						continue;
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += fusecc_bf16_to_float(q[b][i][h][d]) * fusecc_bf16_to_float(k[b][j][h][d]);
					s *= scale;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < D; d++) acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][j][h][d]);
					m = mn;
				}
				for (int d = 0; d < D; d++) o[b][i][h][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}

/* Padded batch with per-sequence query and key lengths (int32 arrays): rows i < qlen[b] are
 * computed (padding rows left untouched), keys j < klen[b], causal aligned to the end
 * (j <= i + klen[b] - qlen[b]). bf16, D = 128. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void padded_attn(int B, int H, int NQ, int NK, const int32_t qlen[B], const int32_t klen[B], const fusecc_bf16 q[B][H][NQ][128],
		 const fusecc_bf16 k[B][H][NK][128], const fusecc_bf16 v[B][H][NK][128], fusecc_bf16 o[B][H][NQ][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(padded_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < qlen[b]; i++) {
				const int last = i + klen[b] - qlen[b];
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int j = 0; j <= last; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					m = fmaxf(m, s * scale);
				}
				for (int j = 0; j <= last; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					float p = expf(s * scale - m);
					l += p;
					for (int d = 0; d < 128; d++) acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}

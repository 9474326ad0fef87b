/* r15x04: BERT-style encoder attention, no clause: BSHD, run-time head_dim, key padding mask uint8. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void bert_attn(int B, int S, int H, int hd, const uint8_t keep[B][S], const fusecc_bf16 q[B][S][H][hd],
               const fusecc_bf16 k[B][S][H][hd], const fusecc_bf16 v[B][S][H][hd], fusecc_bf16 o[B][S][H][hd])
{
	const float sc = 1.0f / sqrtf((float)hd);
#pragma fuse kernel(bert_attn)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < S; i++)
			for (int h = 0; h < H; h++) {
				float sco[S];
				float mx = -INFINITY;
				for (int j = 0; j < S; j++) {
					float d0 = 0.0f;
					for (int d = 0; d < hd; d++)
						d0 += fusecc_bf16_to_float(q[b][i][h][d]) * fusecc_bf16_to_float(k[b][j][h][d]);
					sco[j] = keep[b][j] ? d0 * sc : -INFINITY;
					mx = fmaxf(mx, sco[j]);
				}
				float den = 0.0f;
				for (int j = 0; j < S; j++) { sco[j] = expf(sco[j] - mx); den += sco[j]; }
				for (int d = 0; d < hd; d++) {
					float a = 0.0f;
					for (int j = 0; j < S; j++) a += sco[j] * fusecc_bf16_to_float(v[b][j][h][d]);
					o[b][i][h][d] = fusecc_float_to_bf16(a / den);
				}
			}
}

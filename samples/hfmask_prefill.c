/* hfmask_prefill.c: prefill attention with a HuggingFace-style attention_mask, a uint8
 * tensor (1: attend, 0: padding) turned into an additive bias the way BERT-era models
 * build their "extended attention mask": (1 - mask) * -10000. A padding key is then
 * nearly, not exactly, excluded, and a row of padding only stays finite (uniform).
 * Style: `const uint8_t attention_mask[B][N]` promoted in float arithmetic; scores
 * recomputed in each pass; max as `m = m > s ? m : s`; P.V with j outside d into acc[D],
 * normalised after.
 * bf16 storage (fusecc.h), fp32 math, D = 64; B = 1 ... 32, N = 128 ... 4096. */
#include <math.h>
#include <stdint.h>

#include "fusecc.h"

#define D 64

void hfmask_prefill(int B, int H, int N, const uint8_t attention_mask[B][N],
		    const fusecc_bf16 q[B][H][N][D], const fusecc_bf16 k[B][H][N][D],
		    const fusecc_bf16 v[B][H][N][D], fusecc_bf16 o[B][H][N][D])
{
	const float scale = 1.0f / sqrtf((float)D);

#pragma fuse kernel(hfmask_prefill) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s = s * scale + (1.0f - attention_mask[b][j]) * -10000.0f;
					m = m > s ? m : s;
				}
				float l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s = s * scale + (1.0f - attention_mask[b][j]) * -10000.0f;
					float p = expf(s - m);
					l += p;
					for (int d = 0; d < D; d++)
						acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}

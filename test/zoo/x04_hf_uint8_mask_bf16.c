/* HuggingFace-style attention_mask (uint8: 1 = attend, 0 = padding), bf16, HEAD_DIM 64.
 * Style: the mask becomes an additive bias through a ternary (0 or -10000, as old HF models
 * did, so even an all-padding row stays finite); scale computed before the loop; scores
 * recomputed in each pass; j-outer P.V into acc[64]; rolling(j). */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

#define HEAD_DIM 64

void hf_masked_attn(int B, int H, int N, const uint8_t attention_mask[B][N],
		    const fusecc_bf16 q[B][H][N][HEAD_DIM], const fusecc_bf16 k[B][H][N][HEAD_DIM],
		    const fusecc_bf16 v[B][H][N][HEAD_DIM], fusecc_bf16 o[B][H][N][HEAD_DIM])
{
	const float scale = 1.0f / sqrtf((float)HEAD_DIM);

#pragma fuse kernel(hf_masked_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) *
						     fusecc_bf16_to_float(k[b][h][j][d]);
					s = s * scale + (attention_mask[b][j] ? 0.0f : -10000.0f);
					m = fmaxf(m, s);
				}
				float l = 0.0f;
				float acc[HEAD_DIM];
				for (int d = 0; d < HEAD_DIM; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) *
						     fusecc_bf16_to_float(k[b][h][j][d]);
					s = s * scale + (attention_mask[b][j] ? 0.0f : -10000.0f);
					float p = expf(s - m);
					l += p;
					for (int d = 0; d < HEAD_DIM; d++)
						acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
				}
				for (int d = 0; d < HEAD_DIM; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}

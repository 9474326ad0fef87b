/* BERT-style encoder self-attention over padded batches: the key loop bounded by the int64
 * sequence length of the batch row (keys past it are padding); #define HEAD_DIM 64; bf16. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"
#define HEAD_DIM 64

void bert_attn(int B, int H, int S, const int64_t lengths[B], const fusecc_bf16 q[B][H][S][HEAD_DIM],
	       const fusecc_bf16 k[B][H][S][HEAD_DIM], const fusecc_bf16 v[B][H][S][HEAD_DIM], fusecc_bf16 o[B][H][S][HEAD_DIM])
{
	const float scale = 1.0f / sqrtf((float)HEAD_DIM);
#pragma fuse kernel(bert_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < S; i++) {
				float m = -INFINITY, l = 0.0f;
				float acc[HEAD_DIM];
				for (int d = 0; d < HEAD_DIM; d++) acc[d] = 0.0f;
				for (int j = 0; j < lengths[b]; j++) {
					float s = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					m = fmaxf(m, s * scale);
				}
				for (int j = 0; j < lengths[b]; j++) {
					float s = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					const float p = expf(s * scale - m);
					l += p;
					for (int d = 0; d < HEAD_DIM; d++) acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
				}
				for (int d = 0; d < HEAD_DIM; d++) o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}

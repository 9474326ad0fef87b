/* A textbook exercise: scaled dot-product attention with a look-ahead mask; the student stops
 * the key loop at the diagonal with `break`, masks with -1e9 in the softmax loops over the full
 * row, and keeps the head dim as a #define of 112. */
#include <math.h>
#include "fusecc.h"
#define SEQ_D 112

void masked_attention(int batch, int heads, int seq, const fusecc_bf16 Q[batch][heads][seq][SEQ_D],
		      const fusecc_bf16 K[batch][heads][seq][SEQ_D], const fusecc_bf16 V[batch][heads][seq][SEQ_D],
		      fusecc_bf16 O[batch][heads][seq][SEQ_D])
{
	int b, h, i, j, d;
#pragma fuse kernel(masked_attention)
	for (b = 0; b < batch; b++)
		for (h = 0; h < heads; h++)
			for (i = 0; i < seq; i++) {
				float score[seq];
				for (j = 0; j < seq; j++) {
					if (j > i) break;
					float dot = 0;
					for (d = 0; d < SEQ_D; d++)
						dot += fusecc_bf16_to_float(Q[b][h][i][d]) * fusecc_bf16_to_float(K[b][h][j][d]);
					score[j] = dot / sqrtf((float)SEQ_D);
				}
				float biggest = -1e9f;
				for (j = 0; j <= i; j++)
					if (score[j] > biggest) biggest = score[j];
				float total = 0;
				for (j = 0; j <= i; j++) {
					score[j] = expf(score[j] - biggest);
					total += score[j];
				}
				for (d = 0; d < SEQ_D; d++) {
					float out = 0;
					for (j = 0; j <= i; j++) out += score[j] / total * fusecc_bf16_to_float(V[b][h][j][d]);
					O[b][h][i][d] = fusecc_float_to_bf16(out);
				}
			}
}

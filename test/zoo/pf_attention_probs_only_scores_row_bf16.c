/* pf_attention_probs_only_scores_row_bf16.c: the attention probabilities alone, as a
 * visualisation tool computes them (softmax(q k^T * scale) for one layer, no values):
 * scores kept in a row s[N], max and sum over it, then the probabilities stored from it.
 * Style: bf16 q and k through fusecc_bf16_to_float, fp32 probabilities, head dim 64 as a
 * #define, scale computed before the region from the head dim. */
#include <math.h>
#include "fusecc.h"

#define HEAD_DIM 64

void attn_probs(int B, int H, int N, const fusecc_bf16 q[B][H][N][HEAD_DIM],
		const fusecc_bf16 k[B][H][N][HEAD_DIM], float probs[B][H][N][N])
{
	const float scale = 1.0f / sqrtf((float)HEAD_DIM);
#pragma fuse kernel(attn_probs) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						dot += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s[j] = dot * scale;
					mx = fmaxf(mx, s[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++)
					sum += expf(s[j] - mx);
				for (int j = 0; j < N; j++)
					probs[b][h][i][j] = expf(s[j] - mx) / sum;
			}
}

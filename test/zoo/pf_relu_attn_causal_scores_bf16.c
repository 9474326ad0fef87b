/* pf_relu_attn_causal_scores_bf16.c: ReLU attention (Wortsman et al., 2023: "Replacing
 * softmax with ReLU in Vision Transformers"), causal: relu(q.k * scale) / L with L the
 * number of keys the row sees.
 * Style: PyTorch eager ported op by op: the scores of the row stored in s[N] by one loop,
 * weights applied by a second loop with the key index outer and the head dim inner;
 * `#define HD 64`, bf16 storage, the causal mask as the loop bound. */
#include <math.h>
#include "fusecc.h"
#define HD 64

void relu_attn(int B, int H, int N, float scale, const fusecc_bf16 q[B][H][N][HD], const fusecc_bf16 k[B][H][N][HD],
	       const fusecc_bf16 v[B][H][N][HD], fusecc_bf16 o[B][H][N][HD])
{
#pragma fuse kernel(relu_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				for (int j = 0; j <= i; j++) {
					float dot = 0.0f;
					for (int d = 0; d < HD; d++)
						dot += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s[j] = dot * scale;
				}
				float out[HD];
				for (int d = 0; d < HD; d++)
					out[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float w = fmaxf(s[j], 0.0f) / (float)(i + 1);
					for (int d = 0; d < HD; d++)
						out[d] += w * fusecc_bf16_to_float(v[b][h][j][d]);
				}
				for (int d = 0; d < HD; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(out[d]);
			}
}

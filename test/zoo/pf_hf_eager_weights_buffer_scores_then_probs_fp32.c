/* pf_hf_eager_weights_buffer_scores_then_probs_fp32.c: HuggingFace's eager attention with
 * output_attentions=True as a C port keeps it: attn_weights first holds the masked scores
 * (QK^T / sqrt(64) + mask), the max and the sum of exponentials read them back, then the
 * same buffer is overwritten in place with the probabilities, which the P.V loop reads.
 * Style: fp32, head dim 64 in the array types, an additive float mask [B][N][N], d-outer
 * P.V over the stored weights, rolling(j). */
#include <math.h>

void eager_attention(int B, int H, int N, const float query[B][H][N][64], const float key[B][H][N][64],
                     const float value[B][H][N][64], const float mask[B][N][N],
                     float attn_weights[B][H][N][N], float attn_output[B][H][N][64])
{
#pragma fuse kernel(eager_attention) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float row_max = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += query[b][h][i][d] * key[b][h][j][d];
					s = s / 8.0f + mask[b][i][j];
					attn_weights[b][h][i][j] = s;
					row_max = fmaxf(row_max, s);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++)
					sum += expf(attn_weights[b][h][i][j] - row_max);
				for (int j = 0; j < N; j++)
					attn_weights[b][h][i][j] = expf(attn_weights[b][h][i][j] - row_max) / sum;
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += attn_weights[b][h][i][j] * value[b][h][j][d];
					attn_output[b][h][i][d] = acc;
				}
			}
}

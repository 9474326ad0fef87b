/* pf_scores_row_exp_inplace_probs_out_fp32.c: attention that returns its probabilities,
 * written around one local row of scores: sc[N] holds the scaled, masked q.k, then is
 * exponentiated in place while the sum is taken (llama2.c's softmax), the normalised row
 * goes to the caller's attn_weights, and P.V reads attn_weights back.
 * Style: fp32, a VLA row of run-time size, fmaxf max, d-outer P.V, rolling(j). */
#include <math.h>

void attn_probs(int B, int H, int N, const float query[B][H][N][64], const float key[B][H][N][64],
                const float value[B][H][N][64], const float mask[B][N][N], float attn_weights[B][H][N][N],
                float attn_output[B][H][N][64])
{
#pragma fuse kernel(attn_probs) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sc[N];
				float row_max = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += query[b][h][i][d] * key[b][h][j][d];
					s = s / 8.0f + mask[b][i][j];
					sc[j] = s;
					row_max = fmaxf(row_max, s);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) {
					sc[j] = expf(sc[j] - row_max);
					sum += sc[j];
				}
				for (int j = 0; j < N; j++)
					attn_weights[b][h][i][j] = sc[j] / sum;
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += attn_weights[b][h][i][j] * value[b][h][j][d];
					attn_output[b][h][i][d] = acc;
				}
			}
}

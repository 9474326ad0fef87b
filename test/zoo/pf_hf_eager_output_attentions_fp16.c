/* pf_hf_eager_output_attentions_fp16.c: HuggingFace's eager attention with
 * output_attentions=True, ported to C by hand: the softmax'd weights are stored to
 * attn_weights (the caller returns them), then the output multiplies the stored weights
 * by V, reading them back. Style: fp16 storage like the model's dtype (the weights are
 * rounded to fp16 before the matmul, as torch does), an additive attention_mask[B][N]
 * of 0 / -inf for padding, scale as a parameter, separate max / sum / store loops that
 * each recompute q.k, P.V d-outer reading the weights. */
#include <math.h>

void eager_attn(int B, int H, int N, float scaling, const _Float16 q[B][H][N][64],
		const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64],
		const float attention_mask[B][N], _Float16 attn_weights[B][H][N][N],
		_Float16 attn_output[B][N][H][64])
{
#pragma fuse kernel(eager_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float row_max = -INFINITY;
				for (int j = 0; j < N; j++) {
					float w = 0.0f;
					for (int d = 0; d < 64; d++)
						w += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					w = w * scaling + attention_mask[b][j];
					row_max = fmaxf(row_max, w);
				}
				float row_sum = 0.0f;
				for (int j = 0; j < N; j++) {
					float w = 0.0f;
					for (int d = 0; d < 64; d++)
						w += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					w = w * scaling + attention_mask[b][j];
					row_sum += expf(w - row_max);
				}
				for (int j = 0; j < N; j++) {
					float w = 0.0f;
					for (int d = 0; d < 64; d++)
						w += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					w = w * scaling + attention_mask[b][j];
					attn_weights[b][h][i][j] = (_Float16)(expf(w - row_max) / row_sum);
				}
				for (int d = 0; d < 64; d++) {
					float o = 0.0f;
					for (int j = 0; j < N; j++)
						o += (float)attn_weights[b][h][i][j] * (float)v[b][h][j][d];
					attn_output[b][i][h][d] = (_Float16)o;
				}
			}
}

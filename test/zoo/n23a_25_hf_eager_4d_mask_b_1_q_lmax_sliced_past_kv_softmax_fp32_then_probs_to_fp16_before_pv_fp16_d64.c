/* HF transformers eager_attention_forward with a KV cache, transcribed literally:
 * attn_weights = q @ k^T * scaling; attn_weights += causal_mask[:, :, :, :L] (a 4D fp16
 * additive mask [B][1][Nq][Lmax], wider than the L = past + Nq keys used);
 * softmax(dim=-1, dtype=float32).to(query.dtype) -- the probabilities are rounded to fp16
 * BEFORE the matmul with v; attn_output = attn_weights @ v. fp16 everywhere else. */
#include <math.h>

void eager_attention_forward(int B, int H, int Nq, int L, int Lmax, float scaling, const _Float16 q[B][H][Nq][64],
			     const _Float16 k[B][H][L][64], const _Float16 v[B][H][L][64],
			     const _Float16 causal_mask[B][1][Nq][Lmax], _Float16 attn_output[B][H][Nq][64])
{
#pragma fuse kernel(eager_attention_forward) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < Nq; i++) {
				float w[L];
				float mx = -INFINITY;
				for (int j = 0; j < L; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 64; d++)
						dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					_Float16 aw = (_Float16)(dot * scaling);
					aw = (_Float16)((float)aw + (float)causal_mask[b][0][i][j]);
					w[j] = (float)aw;
					mx = fmaxf(mx, w[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < L; j++) {
					w[j] = expf(w[j] - mx);
					sum += w[j];
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < L; j++)
						acc += (float)(_Float16)(w[j] / sum) * (float)v[b][h][j][d];
					attn_output[b][h][i][d] = (_Float16)acc;
				}
			}
}

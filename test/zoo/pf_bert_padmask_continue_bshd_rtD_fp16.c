/* pf_bert_padmask_continue_bshd_rtD_fp16.c: BERT self-attention with HuggingFace's padding
 * mask (unsigned char attention_mask[B][S], 1 keeps, 0 pads), written as a condition: padded
 * keys skipped with `if (!attention_mask[b][t]) continue;` in the max pass and in the sum +
 * P.V pass. [B, S, H, D] layout, run-time head dim HD, scale computed before the region, a
 * row with every key padded gives 0. rolling(t), parallel(b, s, n). */
#include <math.h>

void bert_self_attn(int B, int S, int NH, int HD, const _Float16 q[B][S][NH][HD],
		    const _Float16 k[B][S][NH][HD], const _Float16 v[B][S][NH][HD],
		    const unsigned char attention_mask[B][S], _Float16 ctx[B][S][NH][HD])
{
	const float scale = 1.0f / sqrtf((float)HD);
#pragma fuse kernel(bert_self_attn) parallel(b, s, n) rolling(t)
	for (int b = 0; b < B; b++)
		for (int s = 0; s < S; s++)
			for (int n = 0; n < NH; n++) {
				float m = -INFINITY;
				for (int t = 0; t < S; t++) {
					if (!attention_mask[b][t])
						continue;
					float x = 0.0f;
					for (int d = 0; d < HD; d++)
						x += (float)q[b][s][n][d] * (float)k[b][t][n][d];
					m = fmaxf(m, x * scale);
				}
				float den = 0.0f;
				float acc[HD];
				for (int d = 0; d < HD; d++)
					acc[d] = 0.0f;
				for (int t = 0; t < S; t++) {
					if (!attention_mask[b][t])
						continue;
					float x = 0.0f;
					for (int d = 0; d < HD; d++)
						x += (float)q[b][s][n][d] * (float)k[b][t][n][d];
					float p = expf(x * scale - m);
					den += p;
					for (int d = 0; d < HD; d++)
						acc[d] += p * (float)v[b][t][n][d];
				}
				for (int d = 0; d < HD; d++)
					ctx[b][s][n][d] = (_Float16)(den > 0.0f ? acc[d] / den : 0.0f);
			}
}

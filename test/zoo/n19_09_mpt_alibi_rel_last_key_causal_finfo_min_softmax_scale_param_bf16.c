/* MosaicML MPT scaled_multihead_dot_product_attention with alibi: slopes 1/2^(8(h+1)/H) (alibi_bias_max 8),
 * bias = slope * (j - (s_k - 1)) (arange(1 - s_k, 1)), causal masked_fill with finfo(bf16).min, softmax_scale arg. */
#include <math.h>
#include "fusecc.h"
void mpt_attn(int b_, int n_heads, int s_q, int s_k, float softmax_scale, const fusecc_bf16 q[b_][n_heads][s_q][128],
	      const fusecc_bf16 k[b_][n_heads][s_k][128], const fusecc_bf16 v[b_][n_heads][s_k][128], fusecc_bf16 out[b_][s_q][n_heads][128])
{
	const float min_val = -3.3895313892515355e38f;
#pragma fuse kernel(mpt_attn) parallel(b, h, i)
	for (int b = 0; b < b_; b++)
		for (int h = 0; h < n_heads; h++)
			for (int i = 0; i < s_q; i++) {
				const float slope = 1.0f / powf(2.0f, 8.0f * (float)(h + 1) / (float)n_heads);
				float attn_weight[s_k];
				for (int j = 0; j < s_k; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s = s * softmax_scale + slope * (float)(j - (s_k - 1));
					/* causal over the last s_q rows: key j visible to query i when j <= i + s_k - s_q */
					if (j > i + s_k - s_q) s = min_val;
					attn_weight[j] = s;
				}
				float mx = -INFINITY;
				for (int j = 0; j < s_k; j++) mx = fmaxf(mx, attn_weight[j]);
				float den = 0.0f;
				for (int j = 0; j < s_k; j++) den += expf(attn_weight[j] - mx);
				for (int d = 0; d < 128; d++) {
					float acc = 0.0f;
					for (int j = 0; j < s_k; j++) acc += expf(attn_weight[j] - mx) * fusecc_bf16_to_float(v[b][h][j][d]);
					out[b][i][h][d] = fusecc_float_to_bf16(acc / den);
				}
			}
}

/* HF BartAttention eager: query_states = q_proj(x) * scaling (q already scaled), attn_weights = bmm(q, k^T)
 * + attention_mask[B][1][tgt][src] (additive), softmax, layer_head_mask.view(1,-1,1,1) * attn_weights, bmm(., v). */
#include <math.h>
void bart_attn(int bsz, int num_heads, int tgt_len, int src_len, const float query_states[bsz][num_heads][tgt_len][64],
	       const float key_states[bsz][num_heads][src_len][64], const float value_states[bsz][num_heads][src_len][64],
	       const float attention_mask[bsz][1][tgt_len][src_len], const float layer_head_mask[num_heads],
	       float attn_output[bsz][tgt_len][num_heads][64])
{
#pragma fuse kernel(bart_attn) parallel(b, h, i)
	for (int b = 0; b < bsz; b++)
		for (int h = 0; h < num_heads; h++)
			for (int i = 0; i < tgt_len; i++) {
				float attn_weights[src_len];
				for (int j = 0; j < src_len; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += query_states[b][h][i][d] * key_states[b][h][j][d];
					attn_weights[j] = s + attention_mask[b][0][i][j];
				}
				float m = -INFINITY;
				for (int j = 0; j < src_len; j++) m = fmaxf(m, attn_weights[j]);
				float l = 0.0f;
				for (int j = 0; j < src_len; j++) l += expf(attn_weights[j] - m);
				for (int j = 0; j < src_len; j++) attn_weights[j] = layer_head_mask[h] * (expf(attn_weights[j] - m) / l);
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < src_len; j++) a += attn_weights[j] * value_states[b][h][j][d];
					attn_output[b][i][h][d] = a;
				}
			}
}

/* DeepSeek-V2 MLA prefill (non-absorbed) ported from modeling_deepseek: q_head_dim = nope + rope run-time (DK),
 * v_head_dim DV, softmax_scale = q_head_dim^-0.5 * mscale^2 (YaRN: 0.1 * mscale_all_dim * log(factor) + 1). */
#include <math.h>
void deepseek_mla(int bsz, int num_heads, int q_len, int DK, int DV, float rope_factor, float mscale_all_dim,
		  const _Float16 query_states[bsz][num_heads][q_len][DK], const _Float16 key_states[bsz][num_heads][q_len][DK],
		  const _Float16 value_states[bsz][num_heads][q_len][DV], _Float16 attn_output[bsz][q_len][num_heads][DV])
{
	float softmax_scale = 1.0f / sqrtf((float)DK);
	float mscale = 1.0f;
	if (rope_factor > 1.0f) mscale = 0.1f * mscale_all_dim * logf(rope_factor) + 1.0f;
	softmax_scale = softmax_scale * mscale * mscale;
#pragma fuse kernel(deepseek_mla) parallel(b, h, i)
	for (int b = 0; b < bsz; b++)
		for (int h = 0; h < num_heads; h++)
			for (int i = 0; i < q_len; i++) {
				float w[q_len];
				float m = -INFINITY;
				for (int j = 0; j < q_len; j++) {
					float s = 0.0f;
					for (int d = 0; d < DK; d++) s += (float)query_states[b][h][i][d] * (float)key_states[b][h][j][d];
					w[j] = j > i ? -INFINITY : s * softmax_scale;
					m = fmaxf(m, w[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < q_len; j++) l += expf(w[j] - m);
				for (int e = 0; e < DV; e++) {
					float o = 0.0f;
					for (int j = 0; j < q_len; j++) o += expf(w[j] - m) * (float)value_states[b][h][j][e];
					attn_output[b][i][h][e] = (_Float16)(o / l);
				}
			}
}

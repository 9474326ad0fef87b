/* pf_nanogpt_c_hidden_y_accum_bf16_d64: nanoGPT's CausalSelfAttention ported to C without
 * the transposes: q, k, v as [B][T][n_embd] (bf16, after c_attn's split), head h at columns
 * h * head_size + d, y[B][T][n_embd] in fp32 (before c_proj) accumulated over the keys:
 * `y[b][t][h * head_size + d] = 0` then `y[..] += att[t2] * v[..]`, the softmax's
 * division last (`y[..] /= sum`). n_embd 384, n_head 6 (head size 64), causal. */
#include <math.h>
#include "fusecc.h"
#define n_embd 384
#define n_head 6
#define head_size (n_embd / n_head)
void causal_self_attention(int B, int T, const fusecc_bf16 q[B][T][n_embd], const fusecc_bf16 k[B][T][n_embd],
                           const fusecc_bf16 v[B][T][n_embd], float y[B][T][n_embd])
{
	const float scale = 1.0f / sqrtf((float)head_size);
#pragma fuse kernel(causal_self_attention) parallel(b, h, t) rolling(t2)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < n_head; h++)
			for (int t = 0; t < T; t++) {
				float att[T];
				float mx = -INFINITY;
				for (int t2 = 0; t2 <= t; t2++) {
					float a = 0.0f;
					for (int d = 0; d < head_size; d++)
						a += fusecc_bf16_to_float(q[b][t][h * head_size + d]) * fusecc_bf16_to_float(k[b][t2][h * head_size + d]);
					att[t2] = a * scale;
					mx = fmaxf(mx, att[t2]);
				}
				float sum = 0.0f;
				for (int d = 0; d < head_size; d++)
					y[b][t][h * head_size + d] = 0.0f;
				for (int t2 = 0; t2 <= t; t2++) {
					float p = expf(att[t2] - mx);
					sum += p;
					for (int d = 0; d < head_size; d++)
						y[b][t][h * head_size + d] += p * fusecc_bf16_to_float(v[b][t2][h * head_size + d]);
				}
				for (int d = 0; d < head_size; d++)
					y[b][t][h * head_size + d] /= sum;
			}
}

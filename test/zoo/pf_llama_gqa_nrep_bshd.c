/* pf_llama_gqa_nrep_bshd.c: Llama's attention forward ported as is: tensors in the
 * (bsz, seqlen, n_heads, head_dim) layout before the transpose, GQA through
 * repeat_kv's n_rep (query head h reads KV head h / n_rep), the causal mask added to the
 * scores as 0 / -inf (scores + mask), scale 1/sqrt(HEAD_DIM) as a literal-ish constant.
 * Style: fp16, `#define HEAD_DIM 128`, llama parameter names, stored scores[seqlen],
 * max / sum / d-outer P.V normalised after. rolling(t) over the key loop named t. */
#include <math.h>

#define HEAD_DIM 128

void llama_attention(int bsz, int seqlen, int n_heads, int n_kv_heads, int n_rep,
		     const _Float16 xq[bsz][seqlen][n_heads][HEAD_DIM],
		     const _Float16 keys[bsz][seqlen][n_kv_heads][HEAD_DIM],
		     const _Float16 values[bsz][seqlen][n_kv_heads][HEAD_DIM],
		     _Float16 output[bsz][seqlen][n_heads][HEAD_DIM])
{
#pragma fuse kernel(llama_attention) parallel(b, h, s) tile(s:128, t:64) rolling(t)
	for (int b = 0; b < bsz; b++)
		for (int h = 0; h < n_heads; h++)
			for (int s = 0; s < seqlen; s++) {
				float scores[seqlen];
				for (int t = 0; t < seqlen; t++) {
					float dot = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						dot += (float)xq[b][s][h][d] * (float)keys[b][t][h / n_rep][d];
					float mask = t > s ? -INFINITY : 0.0f;
					scores[t] = dot / sqrtf(128.0f) + mask;
				}
				float mx = -INFINITY;
				for (int t = 0; t < seqlen; t++)
					mx = fmaxf(mx, scores[t]);
				float sum = 0.0f;
				for (int t = 0; t < seqlen; t++)
					sum += expf(scores[t] - mx);
				for (int d = 0; d < HEAD_DIM; d++) {
					float acc = 0.0f;
					for (int t = 0; t < seqlen; t++)
						acc += expf(scores[t] - mx) * (float)values[b][t][h / n_rep][d];
					output[b][s][h][d] = (_Float16)(acc / sum);
				}
			}
}

/* BERT-style encoder self-attention with per-sequence valid length (keys past len[b] masked),
 * fp32, BSHD, run-time D; the scale applied inside the dot loop by a JAX-minded engineer
 * (q * scale first, as jax.nn.dot_product_attention does). */
#include <math.h>

void bert_attn(int B, int S, int H, int D, const int len[B], const float *q, const float *k,
	       const float *v, float *o)
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(bert_attn) parallel(b, i, h) rolling(j)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < S; i++)
			for (int h = 0; h < H; h++) {
				const float *qi = q + ((b * S + i) * H + h) * D;
				float m = -INFINITY, l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++) acc[d] = 0.0f;
				for (int j = 0; j < len[b]; j++) {
					const float *kj = k + ((b * S + j) * H + h) * D;
					float s = 0.0f;
					for (int d = 0; d < D; d++) s += (qi[d] * scale) * kj[d];
					m = fmaxf(m, s);
				}
				for (int j = 0; j < len[b]; j++) {
					const float *kj = k + ((b * S + j) * H + h) * D;
					const float *vj = v + ((b * S + j) * H + h) * D;
					float s = 0.0f;
					for (int d = 0; d < D; d++) s += (qi[d] * scale) * kj[d];
					float p = expf(s - m);
					l += p;
					for (int d = 0; d < D; d++) acc[d] += p * vj[d];
				}
				float *oi = o + ((b * S + i) * H + h) * D;
				for (int d = 0; d < D; d++) oi[d] = acc[d] / l;
			}
}

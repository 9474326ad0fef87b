/* Gemma-2 eager attention for a local layer: scores scaled by query_pre_attn_scalar^-0.5, soft-capped
 * with tanh(s / cap) * cap, sliding window of W keys behind and causal, additive -inf through a
 * ternary; head dim 256 fixed. */
#include <math.h>
#include "fusecc.h"

static inline float soft_cap(float s, float cap) { return tanhf(s / cap) * cap; }

void gemma2_local(int B, int H, int T, int W, float query_pre_attn_scalar, float attn_logit_softcapping,
		  const fusecc_bf16 q[B][H][T][256], const fusecc_bf16 k[B][H][T][256],
		  const fusecc_bf16 v[B][H][T][256], fusecc_bf16 o[B][H][T][256])
{
	const float scaling = powf(query_pre_attn_scalar, -0.5f);
#pragma fuse kernel(gemma2_local) parallel(b, h, t) rolling(u)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int t = 0; t < T; t++) {
				float w[T];
				float mx = -INFINITY;
				for (int u = 0; u < T; u++) {
					float dot = 0.0f;
					for (int d = 0; d < 256; d++) dot += fusecc_bf16_to_float(q[b][h][t][d]) * fusecc_bf16_to_float(k[b][h][u][d]);
					float s = soft_cap(dot * scaling, attn_logit_softcapping);
					s += (u > t || t - u >= W) ? -INFINITY : 0.0f;
					w[u] = s;
					mx = fmaxf(mx, s);
				}
				float sum = 0.0f;
				for (int u = 0; u < T; u++) { w[u] = expf(w[u] - mx); sum += w[u]; }
				for (int d = 0; d < 256; d++) {
					float acc = 0.0f;
					for (int u = 0; u < T; u++) acc += w[u] * fusecc_bf16_to_float(v[b][h][u][d]);
					o[b][h][t][d] = fusecc_float_to_bf16(acc / sum);
				}
			}
}

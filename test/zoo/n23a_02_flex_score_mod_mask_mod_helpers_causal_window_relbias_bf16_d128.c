/* FlexAttention semantics written out in C by someone checking a score_mod/mask_mod pair:
 * score_mod adds a relative-position bias (q_idx - kv_idx) * -slope[h]; mask_mod is causal
 * and a sliding window. The helpers take (b, h, q_idx, kv_idx) as in torch.nn.attention.flex.
 * Scores materialised in a row then softmaxed, as the flex reference (_math_attention) does. */
#include <math.h>
#include <stdbool.h>
#include "fusecc.h"

#define HD 128

static inline float score_mod(float score, int b, int h, int q_idx, int kv_idx, const float *slopes)
{
	(void)b;
	return score - slopes[h] * (float)(q_idx - kv_idx);
}

static inline bool mask_mod(int b, int h, int q_idx, int kv_idx, int window)
{
	(void)b; (void)h;
	return q_idx >= kv_idx && q_idx - kv_idx < window;
}

void flex_attention_ref(int B, int H, int S, int window, const fusecc_bf16 q[B][H][S][HD],
			const fusecc_bf16 k[B][H][S][HD], const fusecc_bf16 v[B][H][S][HD], const float slopes[H],
			fusecc_bf16 o[B][H][S][HD])
{
	const float sm_scale = 1.0f / sqrtf((float)HD);
#pragma fuse kernel(flex_attention_ref) parallel(b, h, qi)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int qi = 0; qi < S; qi++) {
				float scores[S];
				float mx = -INFINITY;
				for (int kj = 0; kj < S; kj++) {
					float dot = 0.0f;
					for (int d = 0; d < HD; d++)
						dot += fusecc_bf16_to_float(q[b][h][qi][d]) * fusecc_bf16_to_float(k[b][h][kj][d]);
					float sc = score_mod(dot * sm_scale, b, h, qi, kj, slopes);
					if (!mask_mod(b, h, qi, kj, window))
						sc = -INFINITY;
					scores[kj] = sc;
					mx = fmaxf(mx, sc);
				}
				float denom = 0.0f;
				for (int kj = 0; kj < S; kj++) {
					scores[kj] = expf(scores[kj] - mx);
					denom += scores[kj];
				}
				for (int d = 0; d < HD; d++) {
					float acc = 0.0f;
					for (int kj = 0; kj < S; kj++)
						acc += scores[kj] * fusecc_bf16_to_float(v[b][h][kj][d]);
					o[b][h][qi][d] = fusecc_float_to_bf16(acc / denom);
				}
			}
}

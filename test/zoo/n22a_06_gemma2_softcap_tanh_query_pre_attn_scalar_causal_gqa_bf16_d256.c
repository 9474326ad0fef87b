/* Gemma-2 prefill: q scaled by query_pre_attn_scalar^-0.5, logits soft-capped
 * (cap * tanh(s / cap), attn_logit_softcapping = 50), causal, GQA by h / (H / KVH), bf16, D = 256. */
#include <math.h>
#include "fusecc.h"

void gemma2_attn(int B, int H, int KVH, int N, float softcap, const fusecc_bf16 q[B][H][N][256],
		 const fusecc_bf16 k[B][KVH][N][256], const fusecc_bf16 v[B][KVH][N][256], fusecc_bf16 o[B][H][N][256])
{
	const float scaling = 1.0f / 16.0f; /* query_pre_attn_scalar = 256 */
#pragma fuse kernel(gemma2_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int g = h / (H / KVH);
				float row_max = -INFINITY, row_sum = 0.0f, out[256];
				for (int d = 0; d < 256; d++) out[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float logit = 0.0f;
					for (int d = 0; d < 256; d++)
						logit += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][g][j][d]);
					logit = softcap * tanhf(logit * scaling / softcap);
					float nm = fmaxf(row_max, logit);
					float r = expf(row_max - nm), p = expf(logit - nm);
					row_sum = row_sum * r + p;
					for (int d = 0; d < 256; d++)
						out[d] = out[d] * r + p * fusecc_bf16_to_float(v[b][g][j][d]);
					row_max = nm;
				}
				for (int d = 0; d < 256; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(out[d] / row_sum);
			}
}

/* BLOOM/MPT-style ALiBi in a chunked prefill against a KV cache, by a CUDA programmer:
 * flat bhsd pointers, q holds the Nq new tokens, the cache holds past_len + Nq keys
 * (the new ones already appended). ALiBi bias = slope * (j - qpos) (<= 0 under causal),
 * slopes passed per head. Run-time head dim, bf16 storage, scale computed once. */
#include <math.h>
#include <stddef.h>
#include "fusecc.h"

void alibi_chunk_prefill(int B, int H, int Nq, int past_len, int Lc, int D, const fusecc_bf16 *q,
			 const fusecc_bf16 *kc, const fusecc_bf16 *vc, const float *alibi_slopes, fusecc_bf16 *o)
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(alibi_chunk) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < Nq; i++) {
				const fusecc_bf16 *qrow = q + ((size_t)(b * H + h) * Nq + i) * D;
				const size_t kvoff = (size_t)(b * H + h) * Lc * D;
				const float slope = alibi_slopes[h];
				const int qpos = past_len + i;
				float m = -INFINITY, l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= qpos; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += fusecc_bf16_to_float(qrow[d]) * fusecc_bf16_to_float(kc[kvoff + (size_t)j * D + d]);
					s = s * scale + slope * (float)(j - qpos);
					float mn = fmaxf(m, s);
					float r = expf(m - mn);
					float p = expf(s - mn);
					l = l * r + p;
					for (int d = 0; d < D; d++)
						acc[d] = acc[d] * r + p * fusecc_bf16_to_float(vc[kvoff + (size_t)j * D + d]);
					m = mn;
				}
				for (int d = 0; d < D; d++)
					o[((size_t)(b * H + h) * Nq + i) * D + d] = fusecc_float_to_bf16(acc[d] / l);
			}
}

/* ar04_varlen_absrows_window_gqa_i64_bf16.c: packed varlen prefill with a causal sliding
 * window and grouped-query attention (Mistral/Mixtral), bf16, head dim 128.
 * Style: absolute token rows from int64 offsets; the window start clamped with a ternary
 * assignment, `int64_t start = t - (W - 1); start = start < cu_seqlens[s] ? cu_seqlens[s]
 * : start;`; keys up to t inclusive; the KV head written inline as h / G; one pass
 * with the online rescale spelled out by hand is NOT used: two passes, max then sum. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

#define HD 128

void swa_gqa_varlen(int64_t nseq, int64_t ntok, int64_t H, int64_t G, int64_t W, float scale,
		    const int64_t cu_seqlens[nseq + 1], const fusecc_bf16 q[ntok][H][HD],
		    const fusecc_bf16 k[ntok][H / G][HD], const fusecc_bf16 v[ntok][H / G][HD],
		    fusecc_bf16 o[ntok][H][HD])
{
#pragma fuse kernel(swa_gqa_varlen) parallel(s, h, t) rolling(u)
	for (int64_t s = 0; s < nseq; s++)
		for (int64_t h = 0; h < H; h++)
			for (int64_t t = cu_seqlens[s]; t < cu_seqlens[s + 1]; t++) {
				int64_t start = t - (W - 1);
				start = start < cu_seqlens[s] ? cu_seqlens[s] : start;
				float m = -INFINITY;
				for (int64_t u = start; u <= t; u++) {
					float x = 0.0f;
					for (int d = 0; d < HD; d++)
						x += fusecc_bf16_to_float(q[t][h][d]) * fusecc_bf16_to_float(k[u][h / G][d]);
					m = fmaxf(m, x * scale);
				}
				float z = 0.0f, acc[HD];
				for (int d = 0; d < HD; d++)
					acc[d] = 0.0f;
				for (int64_t u = start; u <= t; u++) {
					float x = 0.0f;
					for (int d = 0; d < HD; d++)
						x += fusecc_bf16_to_float(q[t][h][d]) * fusecc_bf16_to_float(k[u][h / G][d]);
					float p = expf(x * scale - m);
					z += p;
					for (int d = 0; d < HD; d++)
						acc[d] += p * fusecc_bf16_to_float(v[u][h / G][d]);
				}
				for (int d = 0; d < HD; d++)
					o[t][h][d] = fusecc_float_to_bf16(acc[d] / z);
			}
}
